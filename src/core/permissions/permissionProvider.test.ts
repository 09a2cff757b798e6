// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { createAccountStore } from '../account/accountStore';
import { membership, testUser } from '../account/testUsers';
import { createPermissionProvider } from './permissionProvider';
import { resourceAccess } from './resourceAccess';

describe('resourceAccess', () => {
  const perms = { can_view_members: true, can_manage_members: false, can_view_billing: false, CAN_MANAGE_FLOWS: true };
  const areas = { invites: 'members', plans: 'billing' };

  it('maps list/show/export to view and create/edit/delete to manage of the resource area', () => {
    expect(resourceAccess(perms, areas, { resource: 'invites', action: 'list' })).toBe(true);
    expect(resourceAccess(perms, areas, { resource: 'invites', action: 'show' })).toBe(true);
    expect(resourceAccess(perms, areas, { resource: 'invites', action: 'create' })).toBe(false);
    expect(resourceAccess(perms, areas, { resource: 'plans', action: 'export' })).toBe(false);
    expect(resourceAccess(perms, areas, { resource: 'flows', action: 'delete' })).toBe(true);
    expect(resourceAccess(perms, areas, { resource: 'invites.email', action: 'read' })).toBe(true);
  });

  it('falls back to the resource name as area; absent view flags allow', () => {
    expect(resourceAccess({}, {}, { resource: 'stats', action: 'list' })).toBe(true);
    expect(resourceAccess({}, {}, { resource: 'stats', action: 'edit' })).toBe(false);
  });
});

describe('permission provider', () => {
  beforeEach(() => localStorage.clear());

  it("checks the selected company's permissions", () => {
    const account = createAccountStore();
    account.setUser(testUser([membership(1, { can_view_team: false, can_view_members: false }), membership(2, { can_manage_members: true })]));
    const provider = createPermissionProvider(account);
    provider.setResourceAreas({ invites: 'members' });
    account.selectCompany(1);
    expect(provider.canView('team')).toBe(false); // alias team → members
    expect(provider.canAccess({ resource: 'invites', action: 'list' })).toBe(false);
    account.selectCompany(2);
    expect(provider.canView('members')).toBe(true);
    expect(provider.canManage('team')).toBe(true);
    expect(provider.canAccess({ resource: 'invites', action: 'edit' })).toBe(true);
  });
});
