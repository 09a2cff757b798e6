/** Team area (spec §3 Team member, Role, Invite; §7 members, invites, roles, profiles): shapes and request schemas. */
import { z } from 'zod';
import { EMAIL_PATTERN } from './validation';
import { ROLE_IDS, type PermissionMap, type RoleId } from './permissions';

export interface TeamMember {
  /** The membership id (PATCH/DELETE /api/members/{id}/). */
  id: number;
  user_id: number;
  first_name: string;
  last_name: string;
  email: string;
  role_id: RoleId;
  role: { id: RoleId; name: string };
  profile_avatar: string | null;
  profile_avatar_url: string | null;
  created_at: string;
  /** True for the caller's own membership (the UI asks before removing yourself). */
  is_current_user: boolean;
}

export type InviteStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export interface Invite {
  id: number;
  email: string;
  role_id: RoleId;
  status: InviteStatus;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
}

export interface RolePermissions {
  role_id: RoleId;
  name: string;
  permissions: PermissionMap;
  /** Admins always keep every permission, so nobody can lock the company out. */
  editable: boolean;
}

/** How long an invite link stays valid. */
export const INVITE_TTL_DAYS = 7;
/** The most addresses one bulk invite takes. */
export const MAX_BULK_INVITES = 50;

const roleId = z.enum(ROLE_IDS);

export const MemberUpdateBody = z.object({ role_id: roleId });
export const BulkInviteBody = z.object({
  invites: z
    .array(
      z.object({
        email: z.string().trim().toLowerCase().regex(EMAIL_PATTERN, 'Enter a valid email address.'),
        role_id: roleId.default('agent'),
      }),
    )
    .min(1, 'Add at least one e-mail address.')
    .max(MAX_BULK_INVITES, `Invite at most ${MAX_BULK_INVITES} people at once.`),
});
export const RolePermissionsUpdateBody = z.object({ permissions: z.record(z.string().regex(/^can_(view|manage)_[a-z_]+$/), z.boolean()) });
/** Avatar as an image data URL (png, jpeg, gif, webp), at most about 1 MB. */
export const ProfileAvatarBody = z.object({
  avatar: z
    .string()
    .max(1_400_000, 'The image must be at most 1 MB.')
    .regex(/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/, 'Upload a PNG, JPEG, GIF or WebP image.'),
});

export type MemberUpdateBody = z.infer<typeof MemberUpdateBody>;
export type BulkInviteBody = z.input<typeof BulkInviteBody>;
export type RolePermissionsUpdateBody = z.infer<typeof RolePermissionsUpdateBody>;
