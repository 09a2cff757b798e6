import { describe, expect, it } from 'vitest';
import { canManage, canView, defaultPermissions } from './permissions';

describe('canView and canManage', () => {
  it("read the area's flags, spelled as stored or in another case", () => {
    expect(canView({ can_view_billing: false }, 'billing')).toBe(false);
    expect(canView({ CAN_VIEW_BILLING: false }, 'billing')).toBe(false);
    expect(canManage({ can_manage_flows: true }, 'flows')).toBe(true);
    expect(canManage({ Can_Manage_Flows: true }, 'flows')).toBe(true);
  });

  it('let an absent flag allow viewing and refuse managing', () => {
    expect(canView({}, 'billing')).toBe(true);
    expect(canManage({}, 'billing')).toBe(false);
    expect(canView(null, 'billing')).toBe(true);
    expect(canManage(undefined, 'billing')).toBe(false);
  });

  it("follow a role's defaults", () => {
    expect(canManage(defaultPermissions('admin'), 'permissions')).toBe(true);
    expect(canView(defaultPermissions('manager'), 'permissions')).toBe(false);
  });
});
