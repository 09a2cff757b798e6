import { useState } from 'react';
import { IconButton } from '@mui/material';
import { mdiDeleteOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, ConsoleTooltip, errorText, httpApiRef, MdiIcon, useAlert, useApi } from '../../../core';
import { deleteBroadcast, liveBroadcastsApiRef } from '../api';
import { isRunning } from '../model/status';

/**
 * Deletes a broadcast after a confirmation. A running one (scheduled, waiting, sending, paused) is
 * cancelled first: the dialog says so, and the server stops it before it deletes.
 */
export function DeleteBroadcastButton({ id, name, status, onDeleted }: { id: number; name: string; status: string; onDeleted: () => void }) {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const live = useApi(liveBroadcastsApiRef);
  const alert = useAlert();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const running = isRunning(status);

  const confirm = async () => {
    setPending(true);
    try {
      await deleteBroadcast(http, id);
      live.forget(id);
      alert.success(t('broadcasts.delete.success'));
      setOpen(false);
      onDeleted();
    } catch (error) {
      alert.error(t('broadcasts.delete.error', { error: errorText(error) }));
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <ConsoleTooltip title={t('broadcasts.delete.action', { name })}>
        <IconButton aria-label={t('broadcasts.delete.action', { name })} onClick={() => setOpen(true)} size="small">
          <MdiIcon path={mdiDeleteOutline} />
        </IconButton>
      </ConsoleTooltip>
      <ConfirmDialog
        open={open}
        title={t('broadcasts.delete.title')}
        message={running ? t('broadcasts.delete.runningMessage', { name }) : t('broadcasts.delete.message', { name })}
        confirmLabel={running ? t('broadcasts.delete.cancelAndDelete') : t('broadcasts.delete.confirm')}
        cancelLabel={t('broadcasts.common.keep')}
        pending={pending}
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
