import { useState } from 'react';
import { IconButton, Tooltip } from '@mui/material';
import { mdiEmailRemoveOutline } from '@mdi/js';
import { DataTable, DateField, List, useDelete, useRecordContext, useRefresh } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, ConsolePagination, EmptyView, errorText, MdiIcon, useAccess, useAlert } from '../../core';
import type { Invite } from '../../../contract/team';
import { roleName, useRoles } from './useRoles';

function RoleCell() {
  const roles = useRoles();
  const invite = useRecordContext<Invite>();
  return invite ? <>{roleName(roles, invite.role_id)}</> : null;
}

function RevokeButton() {
  const { t } = useTranslation();
  const alert = useAlert();
  const refresh = useRefresh();
  const invite = useRecordContext<Invite>();
  const [open, setOpen] = useState(false);
  const [remove, { isPending }] = useDelete<Invite>();
  if (!invite) return null;
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
      <Tooltip title={label}>
        <IconButton aria-label={label} color="error" size="small" onClick={() => setOpen(true)}>
          <MdiIcon path={mdiEmailRemoveOutline} />
        </IconButton>
      </Tooltip>
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

/** Pending invites (GET /api/invites/): e-mail, role, who invited, expiry, and a revoke action. */
export function PendingInvites() {
  const { canManage } = useAccess('members');
  return (
    <List<Invite>
      resource="invites"
      title={false}
      disableSyncWithLocation
      storeKey="team.invites"
      perPage={25}
      pagination={<ConsolePagination />}
      empty={<EmptyView />}
      exporter={false}
      actions={false}
      sx={{ '& .RaList-main': { boxShadow: 'none' } }}
    >
      <DataTable<Invite> rowClick={false} bulkActionButtons={false} empty={<EmptyView />}>
        <DataTable.Col source="email" label="resources.invites.fields.email" />
        <DataTable.Col source="role_id" label="resources.invites.fields.role_id">
          <RoleCell />
        </DataTable.Col>
        <DataTable.Col source="invited_by" label="resources.invites.fields.invited_by" />
        <DataTable.Col source="expires_at" label="resources.invites.fields.expires_at">
          <DateField source="expires_at" showTime />
        </DataTable.Col>
        {canManage && (
          <DataTable.Col label="" disableSort align="right">
            <RevokeButton />
          </DataTable.Col>
        )}
      </DataTable>
    </List>
  );
}
