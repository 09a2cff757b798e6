/** A member's permissions: the role's defaults (built once per role) under the company's override. */
import { describe, expect, it } from 'vitest';
import { defaultPermissions } from '../../../contract/permissions';
import { effectivePermissions } from './memberships';

describe('effectivePermissions', () => {
  it("is the role's defaults with the override on top, frozen: no request can change another's", () => {
    const agent = effectivePermissions('agent', null);
    expect(agent).toEqual(defaultPermissions('agent'));
    const overridden = effectivePermissions('agent', { can_manage_flows: true, can_view_billing: true });
    expect(overridden).toEqual({ ...defaultPermissions('agent'), can_manage_flows: true, can_view_billing: true });
    // Neither an answer nor the defaults it came from can be changed (one frozen map per role, shared).
    expect(() => ((agent as Record<string, boolean>).can_manage_chats = false)).toThrow(TypeError);
    expect(() => ((overridden as Record<string, boolean>).can_manage_flows = false)).toThrow(TypeError);
    expect(effectivePermissions('agent', null)).toBe(agent);
    expect(effectivePermissions('agent', undefined)).toEqual(defaultPermissions('agent'));
    expect(effectivePermissions('admin', null)).toEqual(defaultPermissions('admin'));
    expect(effectivePermissions('manager', {})).toEqual(defaultPermissions('manager'));
  });
});
