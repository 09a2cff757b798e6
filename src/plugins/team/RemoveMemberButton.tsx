import { useState } from 'react';
import { IconButton } from '@mui/material';
import { mdiAccountRemoveOutline, mdiExitRun } from '@mdi/js';
import { useDelete, useRefresh } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { authApiRef, ConfirmDialog, ConsoleTooltip, errorText, MdiIcon, useAccount, useAlert, useApi } from '../../core';
import type { TeamMember } from '../../../contract/team';

/**
 * Removes a member after confirmation (spec §4: the list is refreshed). Removing yourself asks
 * explicitly whether to leave the company, and afterwards reloads your account so the company goes.
 */
export function RemoveMemberButton({ member }: { member: TeamMember }) {
  const { t } = useTranslation();
  const alert = useAlert();
  const auth = useApi(authApiRef);
  const refresh = useRefresh();
  const { company } = useAccount();
  const [open, setOpen] = useState(false);
  const [remove, { isPending }] = useDelete<TeamMember>();
  const self = member.is_current_user;
  const name = `${member.first_name} ${member.last_name ?? ''}`.trim() || member.email;
  const label = self ? t('team.remove.leaveAction') : t('team.remove.action', { name });

  const onConfirm = () =>
    remove(
      'members',
      { id: member.id, previousData: member },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setOpen(false);
          alert.success(t('team.remove.success'));
          refresh();
          if (self) auth.loadUser().catch(() => undefined);
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
        <IconButton aria-label={label} onClick={() => setOpen(true)} color={self ? 'default' : 'error'} size="small">
          <MdiIcon path={self ? mdiExitRun : mdiAccountRemoveOutline} />
        </IconButton>
      </ConsoleTooltip>
      <ConfirmDialog
        open={open}
        pending={isPending}
        title={self ? t('team.remove.leaveTitle') : t('team.remove.title')}
        message={self ? t('team.remove.leaveMessage', { company: company?.name ?? '' }) : t('team.remove.message', { name, email: member.email })}
        confirmLabel={self ? t('team.remove.leaveConfirm') : t('team.remove.confirm')}
        cancelLabel={t('team.actions.cancel')}
        onConfirm={onConfirm}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
