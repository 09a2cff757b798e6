/** A member's permissions: the role's defaults (built once per role) under the company's override. */
import { describe, expect, it } from 'vitest';
import { defaultPermissions } from '../../../contract/permissions';
import { effectivePermissions } from './memberships';

describe('effectivePermissions', () => {
  it("is the role's defaults with the override on top, a new object each time that changes no one else's", () => {
    const agent = effectivePermissions('agent', null);
    expect(agent).toEqual(defaultPermissions('agent'));
    const overridden = effectivePermissions('agent', { can_manage_flows: true, can_view_billing: true });
    expect(overridden).toEqual({ ...defaultPermissions('agent'), can_manage_flows: true, can_view_billing: true });
    // Changing one answer changes neither the next one nor the defaults it came from.
    agent.can_manage_chats = false;
    expect(effectivePermissions('agent', undefined)).toEqual(defaultPermissions('agent'));
    expect(effectivePermissions('admin', null)).toEqual(defaultPermissions('admin'));
    expect(effectivePermissions('manager', {})).toEqual(defaultPermissions('manager'));
  });
});
