import { useState } from 'react';
import { Chip, IconButton, Stack, Typography } from '@mui/material';
import { mdiEmailRemoveOutline } from '@mdi/js';
import { DataTable, DateField, List, SelectInput, useDelete, useRecordContext, useRefresh } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, ConsolePagination, ConsoleTooltip, EmptyView, errorText, formatDate, InlineFacts, MdiIcon, useAccess, useAlert, useIsPhone } from '../../core';
import type { Invite, InviteStatus } from '../../../contract/team';
import { roleName, useRoles } from './useRoles';

function RoleCell() {
  const roles = useRoles();
  const invite = useRecordContext<Invite>();
  return invite ? <>{roleName(roles, invite.role_id)}</> : null;
}

const STATUS_COLORS: Record<InviteStatus, 'default' | 'info' | 'success' | 'warning'> = {
  pending: 'info',
  declined: 'warning',
  accepted: 'success',
  revoked: 'default',
  expired: 'default',
};

/** What became of the invite: the invitee's answer (accepted, declined) or the company's (revoked), or time (expired). */
function StatusCell() {
  const { t } = useTranslation();
  const invite = useRecordContext<Invite>();
  if (!invite) return null;
  return <Chip size="small" variant="outlined" color={STATUS_COLORS[invite.status]} label={t(`team.invites.status.${invite.status}`)} />;
}

/** An invite on a phone: the address and its state, then role, who invited and the expiry in one line. */
function PhoneInviteCell() {
  const { t, i18n } = useTranslation();
  const roles = useRoles();
  const invite = useRecordContext<Invite>();
  if (!invite) return null;
  return (
    <Stack spacing={0.75} sx={{ minWidth: 0, alignItems: 'flex-start' }}>
      <Typography variant="body2" fontWeight={600} sx={{ overflowWrap: 'anywhere' }}>
        {invite.email}
      </Typography>
      <StatusCell />
      <InlineFacts
        facts={[
          { label: t('resources.invites.fields.role_id'), value: roleName(roles, invite.role_id) },
          { label: t('resources.invites.fields.invited_by'), value: invite.invited_by },
          { label: t('resources.invites.fields.expires_at'), value: formatDate(invite.expires_at, i18n.language, { dateStyle: 'medium', timeStyle: 'short' }) },
        ]}
      />
    </Stack>
  );
}

/** The list's status filter: pending by default; declined shows who said no. */
function StatusFilter(props: { source: string; alwaysOn?: boolean }) {
  const { t } = useTranslation();
  const choices = (['pending', 'declined', 'accepted', 'revoked', 'expired', 'all'] as const).map((id) => ({ id, name: t(`team.invites.status.${id}`) }));
  return <SelectInput {...props} label={t('team.invites.show')} choices={choices} emptyText={t('team.invites.status.pending')} emptyValue="pending" />;
}

function RevokeButton() {
  const { t } = useTranslation();
  const alert = useAlert();
  const refresh = useRefresh();
  const invite = useRecordContext<Invite>();
  const [open, setOpen] = useState(false);
  const [remove, { isPending }] = useDelete<Invite>();
  // Only an open invite can be revoked; the others are on record.
  if (!invite || invite.status !== 'pending') return null;
  const label = t('team.invites.revoke', { email: invite.email });

  const onConfirm = () =>
    remove(
      'invites',
      { id: invite.id, previousData: invite },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setOpen(false);
          alert.success(t('team.invites.revoked'));
          refresh();
        },
        onError: (error) => {
          setOpen(false);
          alert.error(errorText(error));
        },
      },
    );

  return (
    <>
      <ConsoleTooltip title={label}>
        <IconButton aria-label={label} color="error" size="small" onClick={() => setOpen(true)}>
          <MdiIcon path={mdiEmailRemoveOutline} />
        </IconButton>
      </ConsoleTooltip>
      <ConfirmDialog
        open={open}
        pending={isPending}
        title={t('team.invites.revokeTitle')}
        message={t('team.invites.revokeMessage', { email: invite.email })}
        confirmLabel={t('team.invites.revokeConfirm')}
        cancelLabel={t('team.actions.cancel')}
        onConfirm={onConfirm}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/**
 * The company's invites (GET /api/invites/), pending by default: e-mail (never the name of an account,
 * which the company sees only once the invitee joins), role, who invited, status, expiry, and a revoke action.
 */
export function PendingInvites() {
  const { canManage } = useAccess('members');
  const phone = useIsPhone();
  return (
    <List<Invite>
      resource="invites"
      title={false}
      disableSyncWithLocation
      storeKey="team.invites"
      filters={[<StatusFilter key="status" source="status" alwaysOn />]}
      filterDefaultValues={{ status: 'pending' }}
      perPage={25}
      pagination={<ConsolePagination />}
      empty={<EmptyView />}
      exporter={false}
      actions={false}
      sx={{ '& .RaList-main': { boxShadow: 'none' } }}
    >
      <DataTable<Invite> rowClick={false} bulkActionButtons={false} empty={<EmptyView />}>
        {phone ? (
          // A phone: the invite in one stacked cell, nothing scrolled sideways.
          <DataTable.Col source="email" label="resources.invites.fields.email">
            <PhoneInviteCell />
          </DataTable.Col>
        ) : (
          [
            <DataTable.Col key="email" source="email" label="resources.invites.fields.email" />,
            <DataTable.Col key="role" source="role_id" label="resources.invites.fields.role_id">
              <RoleCell />
            </DataTable.Col>,
            <DataTable.Col key="by" source="invited_by" label="resources.invites.fields.invited_by" />,
            <DataTable.Col key="status" source="status" label="resources.invites.fields.status" disableSort>
              <StatusCell />
            </DataTable.Col>,
            <DataTable.Col key="expires" source="expires_at" label="resources.invites.fields.expires_at">
              <DateField source="expires_at" showTime />
            </DataTable.Col>,
          ]
        )}
        {canManage && (
          <DataTable.Col label="" disableSort align="right">
            <RevokeButton />
          </DataTable.Col>
        )}
      </DataTable>
    </List>
  );
}
