import type { CompanyMembership, User } from '../../../contract/api';
import type { PermissionMap } from '../../../contract/permissions';

/** Test fixtures: a membership and a user belonging to the given companies. */
export function membership(id: number, permissions: PermissionMap = {}, extra: Partial<CompanyMembership> = {}): CompanyMembership {
  return {
    id,
    name: `Company ${id}`,
    logo: null,
    translator_domain: null,
    created_at: '2024-01-01T00:00:00Z',
    permissions,
    subscription_plan_name: null,
    role: { id: 'admin', name: 'Admin' },
    agent_feature: false,
    ...extra,
  };
}

export function testUser(companies: CompanyMembership[] = [membership(1)]): User {
  return { id: 7, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', profile_avatar_url: null, companies };
}
