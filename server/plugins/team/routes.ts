/**
 * Routes of the team plugin. Everything but the avatar upload is company-scoped: bearer token
 * plus the `Company` header (requireUser → requireCompany → requirePermission). Ids in the
 * path are looked up inside the header's company only, so another company's ids answer 404.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { BulkInviteBody, InviteListQuery, MemberListQuery, MemberUpdateBody, ProfileAvatarBody, RolePermissionsUpdateBody } from '../../../contract/team';
import { currentUser } from '../../core/auth/requireUser';
import { access } from '../../core/access';
import { notFound } from '../../core/errors';
import type { CompanyRow } from '../../core/fastifyTypes';
import { displayName, type InviteService } from './invites';
import type { Actor, MemberService } from './members';
import type { ProfileService } from './profiles';
import type { RolePermissionService } from './rolePermissions';

type IdParams = { Params: { id: string } };

function pathId(request: FastifyRequest<IdParams>): number {
  const { id } = request.params;
  if (!/^\d{1,9}$/.test(id)) throw notFound();
  return Number(id);
}

function company(request: FastifyRequest): CompanyRow {
  return request.company!;
}

function actor(request: FastifyRequest): Actor {
  const { role, permissions } = request.membership!;
  return { userId: currentUser(request).id, role, permissions };
}

export interface TeamServices {
  members: MemberService;
  invites: InviteService;
  permissions: RolePermissionService;
  profiles: ProfileService;
}

/** A data URL of a 1 MB image is about 1.4 MB of JSON, more than the app's default body limit. */
const AVATAR_BODY_LIMIT = 1_500_000;

export function teamRoutes(app: FastifyInstance, { members, invites, permissions, profiles }: TeamServices): void {
  // The access rules (server/core/access): bearer token, Company header membership, then the permission.
  const inCompany = { access: access.company() };
  const viewMembers = { access: access.company('members', 'view') };
  const manageMembers = { access: access.company('members', 'manage') };

  // ---------- members ----------
  app.get<{ Querystring: z.infer<typeof MemberListQuery> }>(
    '/api/members/',
    { schema: { querystring: MemberListQuery }, config: viewMembers },
    async (request) => {
      const { page, page_size, ordering, search } = request.query;
      return members.list(request.url, company(request).id, currentUser(request).id, { page, pageSize: page_size, ordering, search });
    },
  );

  app.patch<IdParams & { Body: z.infer<typeof MemberUpdateBody> }>(
    '/api/members/:id/',
    { schema: { body: MemberUpdateBody }, config: manageMembers },
    async (request) => members.changeRole(actor(request), company(request).id, pathId(request), request.body.role_id),
  );

  // Anyone may leave (remove their own membership); removing others needs can_manage_members (checked in the service).
  app.delete<IdParams>('/api/members/:id/', { config: inCompany }, async (request, reply) => {
    await members.remove(actor(request), company(request).id, pathId(request));
    return reply.code(204).send();
  });

  // ---------- invites ----------
  app.get<{ Querystring: z.infer<typeof InviteListQuery> }>(
    '/api/invites/',
    { schema: { querystring: InviteListQuery }, config: viewMembers },
    async (request) => {
      const { page, page_size, status, ordering, search } = request.query;
      return invites.list(request.url, company(request).id, { page, pageSize: page_size, status, ordering, search });
    },
  );

  app.post<{ Body: z.infer<typeof BulkInviteBody> }>(
    '/api/invites/bulk/',
    { schema: { body: BulkInviteBody }, config: manageMembers },
    async (request, reply) => {
      const user = currentUser(request);
      const inviter = { ...actor(request), name: displayName(user.firstName, user.lastName, user.email)! };
      const results = await invites.bulk(inviter, company(request), request.body.invites);
      return reply.code(201).send({ results });
    },
  );

  app.delete<IdParams>('/api/invites/:id/', { config: manageMembers }, async (request, reply) => {
    await invites.revoke(company(request).id, pathId(request));
    return reply.code(204).send();
  });

  // ---------- role permissions ----------
  app.get('/api/permissions/', { config: { access: access.company('permissions', 'view') } }, async (request) =>
    permissions.list(company(request).id),
  );

  app.patch<{ Params: { role_id: string }; Body: z.infer<typeof RolePermissionsUpdateBody> }>(
    '/api/permissions/:role_id/',
    { schema: { body: RolePermissionsUpdateBody }, config: { access: access.company('permissions', 'manage') } },
    async (request) => permissions.update(company(request).id, request.params.role_id, request.body.permissions),
  );

  // ---------- profile ----------
  // The caller's own profile: a Company header may be sent (the console always does) but is not needed.
  app.post<{ Body: z.infer<typeof ProfileAvatarBody> }>(
    '/api/profiles/',
    { schema: { body: ProfileAvatarBody }, config: { access: access.user() }, bodyLimit: AVATAR_BODY_LIMIT },
    async (request) => profiles.setAvatar(currentUser(request).id, request.body.avatar),
  );
}
