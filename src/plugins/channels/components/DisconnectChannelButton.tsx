import { useState } from 'react';
import { IconButton } from '@mui/material';
import { mdiLinkVariantOff } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, ConsoleTooltip, errorText, httpApiRef, MdiIcon, useAlert, useApi } from '../../../core';
import type { Channel } from '../../../../contract/channels';
import { disconnectChannel, useRefreshChannels } from '../api';

/** Disconnects a channel after confirmation (its conversations are kept), then refreshes the list. */
export function DisconnectChannelButton({ channel }: { channel: Channel }) {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const alert = useAlert();
  const refresh = useRefreshChannels();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const label = t('channels.disconnect.action', { name: channel.name });

  const onConfirm = async () => {
    setPending(true);
    try {
      await disconnectChannel(http, channel.id);
    } catch (error) {
      alert.error(errorText(error));
      return;
    } finally {
      setPending(false);
      setOpen(false);
    }
    alert.success(t('channels.disconnect.success'));
    await refresh();
  };

  return (
    <>
      <ConsoleTooltip title={label}>
        <IconButton aria-label={label} onClick={() => setOpen(true)} color="error" size="small">
          <MdiIcon path={mdiLinkVariantOff} />
        </IconButton>
      </ConsoleTooltip>
      <ConfirmDialog
        open={open}
        pending={pending}
        title={t('channels.disconnect.title')}
        message={t('channels.disconnect.message', { name: channel.name })}
        confirmLabel={t('channels.disconnect.confirm')}
        cancelLabel={t('channels.disconnect.cancel')}
        onConfirm={onConfirm}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
