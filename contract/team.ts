/** Team area (spec §3 Team member, Role, Invite; §7 members, invites, roles, profiles): shapes and request schemas. */
import { z } from 'zod';
import { EmailQuery, RegistrationBody, emailField } from './validation';
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

export type InviteStatus = 'pending' | 'accepted' | 'declined' | 'revoked' | 'expired';

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

/** DRF's wording, quoting the value only when it is a short primitive (an object's toString may throw or be anything). */
export function invalidChoiceMessage(input: unknown): string {
  if (input === undefined) return 'This field is required.';
  const quotable = typeof input === 'string' || typeof input === 'number' || typeof input === 'boolean';
  return quotable && String(input).length <= 100 ? `"${String(input)}" is not a valid choice.` : 'Not a valid choice.';
}

const roleId = z.enum(ROLE_IDS, { error: (issue) => invalidChoiceMessage(issue.input) });

export const MemberUpdateBody = z.object({ role_id: roleId });
export const BulkInviteBody = z.object({
  invites: z
    .array(
      z.object({
        email: emailField(),
        role_id: roleId.default('agent'),
      }),
    )
    .min(1, 'Add at least one e-mail address.')
    .max(MAX_BULK_INVITES, `Invite at most ${MAX_BULK_INVITES} people at once.`),
});
export const RolePermissionsUpdateBody = z.object({
  permissions: z
    .record(z.string().max(64).regex(/^can_(view|manage)_[a-z_]+$/), z.boolean())
    .refine((map) => Object.keys(map).length <= 200, 'Too many permissions.'),
});
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

// ---------- Lists (GET /api/members/, GET /api/invites/) ----------

/** Largest page a list answers; pages start at 1. */
export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 25;
/** Sort keys of GET /api/members/ (`-` in front for descending). */
export const MEMBER_ORDERING_FIELDS = ['first_name', 'email', 'role_id', 'created_at'] as const;
export type MemberOrderingField = (typeof MEMBER_ORDERING_FIELDS)[number];
export type MemberOrdering = MemberOrderingField | `-${MemberOrderingField}`;
/** `status` filter of GET /api/invites/: pending (the default), one other status, or all. */
export const INVITE_STATUS_FILTERS = ['pending', 'accepted', 'declined', 'revoked', 'expired', 'all'] as const;
export type InviteStatusFilter = (typeof INVITE_STATUS_FILTERS)[number];

/** page (from 1), page_size (capped) and search of every paged list (members, invites, channels, agent templates). */
export const pageQuery = {
  page: z.coerce.number().int('A valid integer is required.').min(1, 'Invalid page.').max(1_000_000, 'Invalid page.').default(1),
  /** Larger sizes are capped at MAX_PAGE_SIZE (the console's "all"). */
  page_size: z.coerce
    .number()
    .int('A valid integer is required.')
    .min(1, 'Ensure this value is greater than or equal to 1.')
    .default(DEFAULT_PAGE_SIZE)
    .transform((n) => Math.min(n, MAX_PAGE_SIZE)),
  search: z.string().trim().max(200).optional(),
};

export const MemberListQuery = z.object({
  ...pageQuery,
  ordering: z
    .string()
    .trim()
    .refine((v) => (MEMBER_ORDERING_FIELDS as readonly string[]).includes(v.replace(/^-/, '')), `Order by one of: ${MEMBER_ORDERING_FIELDS.join(', ')}.`)
    .transform((v) => v as MemberOrdering)
    .optional(),
});
/** Sort keys of GET /api/invites/ (default: newest first, `-created_at`). */
export const INVITE_ORDERING_FIELDS = ['id', 'email', 'role_id', 'invited_by', 'created_at', 'expires_at'] as const;
export type InviteOrderingField = (typeof INVITE_ORDERING_FIELDS)[number];
export type InviteOrdering = InviteOrderingField | `-${InviteOrderingField}`;

export const InviteListQuery = z.object({
  ...pageQuery,
  status: z.enum(INVITE_STATUS_FILTERS).default('pending'),
  ordering: z
    .string()
    .trim()
    .refine((v) => (INVITE_ORDERING_FIELDS as readonly string[]).includes(v.replace(/^-/, '')), `Order by one of: ${INVITE_ORDERING_FIELDS.join(', ')}.`)
    .transform((v) => v as InviteOrdering)
    .optional(),
});

export type MemberListQuery = z.input<typeof MemberListQuery>;
export type InviteListQuery = z.input<typeof InviteListQuery>;

// ---------- Profile avatar and invite acceptance ----------

/** POST /api/profiles/ answer: the stored key and the URL the avatar is served at. */
export interface ProfileAvatar {
  profile_avatar: string;
  profile_avatar_url: string;
}

/**
 * POST /account/registration/ with the `invite` token of an invitation link
 * (`/auth/signup/create-account?invite=<token>&email=<email>`). A valid token for the e-mail
 * proves the address like a verified onboarding request does.
 */
export const InviteRegistrationBody = RegistrationBody.extend({ invite: z.string().trim().max(200).optional() });
export type InviteRegistrationBody = z.input<typeof InviteRegistrationBody>;

/**
 * GET /api/invites/check_email/?email=…&token=…: only the holder of an invitation link (its token,
 * for that e-mail) learns anything; every other question gets `{email, invited: false, companies: []}`.
 */
export const InviteCheckQuery = EmailQuery.extend({ token: z.string().trim().max(200).optional() });

// ---------- The signed-in user's own invitations (GET /api/invitations/, accept, decline) ----------

/** An open invitation to the signed-in user (matched by the account's e-mail). */
export interface PendingInvitation {
  id: number;
  company: { id: number; name: string; logo: string | null };
  role: { id: RoleId; name: string };
  invited_by: string | null;
  created_at: string;
  expires_at: string;
}

/** POST /api/invitations/{id}/accept/ answer: the company the user is now a member of. */
export interface InvitationAccepted {
  detail: string;
  company_id: number;
}
