import { Avatar, Box, Chip, Stack, Typography } from '@mui/material';
import { DataTable, List, SearchInput, useRecordContext } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { ConsolePagination, EmptyView, useAccess, useAccount, useIsPhone } from '../../core';
import type { TeamMember } from '../../../contract/team';
import type { Role } from '../../../contract/api';
import { MemberCapacityInput } from './MemberCapacityInput';
import { MemberRoleSelect } from './MemberRoleSelect';
import { RemoveMemberButton } from './RemoveMemberButton';
import { useRoles } from './useRoles';

export function memberName(member: Pick<TeamMember, 'first_name' | 'last_name' | 'email'>): string {
  return `${member.first_name ?? ''} ${member.last_name ?? ''}`.trim() || member.email;
}

function initials(member: TeamMember): string {
  const text = `${(member.first_name ?? '').charAt(0)}${(member.last_name ?? '').charAt(0)}`.toUpperCase();
  return text || member.email.charAt(0).toUpperCase();
}

/** `withEmail`: the e-mail under the name, where it has no column of its own (a phone). */
function NameCell({ withEmail = false }: { withEmail?: boolean }) {
  const { t } = useTranslation();
  const member = useRecordContext<TeamMember>();
  if (!member) return null;
  const name = memberName(member);
  const title = (
    <Typography variant="body2" fontWeight={600}>
      {name}
    </Typography>
  );
  return (
    <Stack direction="row" spacing={1.5} alignItems="center" sx={{ minWidth: 0 }}>
      <Avatar
        src={member.profile_avatar_url ?? member.profile_avatar ?? undefined}
        alt={name}
        data-testid="member-avatar"
        sx={{ width: 36, height: 36, bgcolor: 'primary.main', fontSize: 15 }}
      >
        {initials(member)}
      </Avatar>
      {withEmail ? (
        <Stack sx={{ minWidth: 0 }}>
          {title}
          <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {member.email}
          </Typography>
        </Stack>
      ) : (
        title
      )}
      {member.is_current_user && <Chip size="small" label={t('team.you')} variant="outlined" />}
    </Stack>
  );
}

function RoleCell({ roles, canManage, viewerIsAdmin }: { roles: Role[]; canManage: boolean; viewerIsAdmin: boolean }) {
  const member = useRecordContext<TeamMember>();
  if (!member) return null;
  return <MemberRoleSelect member={member} roles={roles} canManage={canManage} viewerIsAdmin={viewerIsAdmin} />;
}

function CapacityCell({ canManage }: { canManage: boolean }) {
  const member = useRecordContext<TeamMember>();
  if (!member) return null;
  return <MemberCapacityInput member={member} name={memberName(member)} canManage={canManage} />;
}

/** A member on a phone: who, then their role and capacity side by side (the table's columns, stacked). */
function PhoneMemberCell({ roles, canManage, viewerIsAdmin }: { roles: Role[]; canManage: boolean; viewerIsAdmin: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={1}>
      <NameCell withEmail />
      <Stack direction="row" spacing={1.5} alignItems="flex-end">
        {/* The theme makes the select full width: it takes what the capacity leaves. */}
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <RoleCell roles={roles} canManage={canManage} viewerIsAdmin={viewerIsAdmin} />
        </Box>
        <Stack spacing={0.25} sx={{ flexShrink: 0 }}>
          <Typography variant="caption" color="text.secondary">
            {t('team.capacity.label')}
          </Typography>
          <CapacityCell canManage={canManage} />
        </Stack>
      </Stack>
    </Stack>
  );
}

function ActionsCell({ canManage }: { canManage: boolean }) {
  const member = useRecordContext<TeamMember>();
  if (!member || (!canManage && !member.is_current_user)) return null;
  return <RemoveMemberButton member={member} />;
}

/**
 * The company's members (GET /api/members/): avatar and name, e-mail, role; paged with the spec's
 * page sizes, sortable, searchable (`search`), the empty-data view when nothing matches.
 */
export function MembersList() {
  const { t } = useTranslation();
  const { canManage } = useAccess('members');
  const { company } = useAccount();
  const roles = useRoles();
  const viewerIsAdmin = company?.role?.id === 'admin';
  const phone = useIsPhone();

  return (
    <List<TeamMember>
      resource="members"
      title={false}
      filters={[<SearchInput key="q" source="q" alwaysOn placeholder={t('team.search')} />]}
      sort={{ field: 'first_name', order: 'ASC' }}
      perPage={25}
      pagination={<ConsolePagination />}
      empty={<EmptyView />}
      exporter={false}
      actions={false}
      sx={{ '& .RaList-main': { boxShadow: 'none' } }}
    >
      <DataTable<TeamMember> rowClick={false} bulkActionButtons={false} empty={<EmptyView />}>
        {phone
          ? // A phone: the member in one stacked cell beside the actions, nothing scrolled sideways.
            [
              <DataTable.Col key="member" source="first_name" label="resources.members.fields.first_name">
                <PhoneMemberCell roles={roles} canManage={canManage} viewerIsAdmin={viewerIsAdmin} />
              </DataTable.Col>,
              <DataTable.Col key="actions" label="" disableSort align="right" sx={{ width: 48, pl: 0 }}>
                <ActionsCell canManage={canManage} />
              </DataTable.Col>,
            ]
          : [
              <DataTable.Col key="name" source="first_name" label="resources.members.fields.first_name">
                <NameCell />
              </DataTable.Col>,
              <DataTable.Col key="email" source="email" label="resources.members.fields.email" />,
              <DataTable.Col key="role" source="role_id" label="resources.members.fields.role_id">
                <RoleCell roles={roles} canManage={canManage} viewerIsAdmin={viewerIsAdmin} />
              </DataTable.Col>,
              <DataTable.Col key="capacity" label="team.capacity.label" disableSort>
                <CapacityCell canManage={canManage} />
              </DataTable.Col>,
              <DataTable.Col key="actions" label="" disableSort align="right">
                <ActionsCell canManage={canManage} />
              </DataTable.Col>,
            ]}
      </DataTable>
    </List>
  );
}
