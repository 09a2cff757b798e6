import type { Invite, RolePermissions, TeamMember } from '../../../../contract/team';
import { defaultPermissions, type RoleId } from '../../../../contract/permissions';
import { membership, testUser } from '../../../core/account/testUsers';

const ROLE_LABELS: Record<RoleId, string> = { admin: 'Admin', manager: 'Manager', agent: 'Agent' };

export const ROLES = [
  { id: 'admin', name: 'Admin' },
  { id: 'manager', name: 'Manager' },
  { id: 'agent', name: 'Agent' },
];

export function member(id: number, first: string, last: string, email: string, role: RoleId, extra: Partial<TeamMember> = {}): TeamMember {
  return {
    id,
    user_id: id + 100,
    first_name: first,
    last_name: last,
    email,
    role_id: role,
    role: { id: role, name: ROLE_LABELS[role] },
    profile_avatar: null,
    profile_avatar_url: null,
    created_at: '2024-01-01T00:00:00Z',
    is_current_user: false,
    ...extra,
  };
}

export const MEMBERS: TeamMember[] = [
  member(1, 'Ada', 'Lovelace', 'ada@example.com', 'admin', { is_current_user: true }),
  member(2, 'Grace', 'Hopper', 'grace@example.com', 'agent'),
  member(3, 'Alan', 'Turing', 'alan@example.com', 'manager'),
];

export function invite(id: number, email: string, role: RoleId = 'agent'): Invite {
  return {
    id,
    email,
    role_id: role,
    status: 'pending',
    invited_by: 'Ada Lovelace',
    created_at: '2024-01-01T00:00:00Z',
    expires_at: '2024-01-08T00:00:00Z',
  };
}

export function rolePermissions(): RolePermissions[] {
  return (['admin', 'manager', 'agent'] as RoleId[]).map((role) => ({
    role_id: role,
    name: ROLE_LABELS[role],
    permissions: defaultPermissions(role),
    editable: role !== 'admin',
  }));
}

/** A signed-in user whose selected company (id 1) grants `permissions` with `role`. */
export function viewer(permissions: Record<string, boolean>, role: RoleId = 'admin') {
  return testUser([membership(1, permissions, { name: 'Demo Company', role: { id: role, name: ROLE_LABELS[role] } })]);
}
