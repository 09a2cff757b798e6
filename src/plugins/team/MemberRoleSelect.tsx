import { MenuItem, TextField, Typography } from '@mui/material';
import { useUpdate } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { useAlert } from '../../core';
import type { TeamMember } from '../../../contract/team';
import type { Role } from '../../../contract/api';
import type { RoleId } from '../../../contract/permissions';
import { roleUpdateErrorText } from './roleUpdateError';
import { roleName } from './useRoles';

/**
 * The member's role, changed in place (spec §4: the update replaces the member in the list and shows
 * success). Only with manage access to members; only admins may grant or take away the admin role.
 */
export function MemberRoleSelect({ member, roles, canManage, viewerIsAdmin }: { member: TeamMember; roles: Role[]; canManage: boolean; viewerIsAdmin: boolean }) {
  const { t } = useTranslation();
  const alert = useAlert();
  const [update, { isPending }] = useUpdate<TeamMember>();
  const name = `${member.first_name} ${member.last_name ?? ''}`.trim() || member.email;
  const current = member.role_id ?? member.role?.id;
  const label = member.role?.name ?? roleName(roles, current);

  if (!canManage || (!viewerIsAdmin && current === 'admin')) {
    return <Typography variant="body2">{label}</Typography>;
  }

  const options = roles.filter((r) => viewerIsAdmin || r.id !== 'admin');

  const onChange = (roleId: RoleId) => {
    if (roleId === current) return;
    update(
      'members',
      { id: member.id, data: { role_id: roleId }, previousData: member },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => alert.success(t('team.roleUpdated')),
        onError: (error) => alert.error(roleUpdateErrorText(t, error)),
      },
    );
  };

  return (
    <TextField
      select
      size="small"
      value={current}
      disabled={isPending}
      onChange={(e) => onChange(e.target.value as RoleId)}
      slotProps={{ select: { SelectDisplayProps: { 'aria-label': t('team.roleOf', { name }) } } }}
      sx={{ minWidth: 140 }}
    >
      {options.map((role) => (
        <MenuItem key={role.id} value={role.id}>
          {role.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
