import { useState } from 'react';
import { Button, CircularProgress } from '@mui/material';
import { mdiRefresh } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { errorText, httpApiRef, MdiIcon, useAlert, useApi } from '../../../core';
import type { Channel } from '../../../../contract/channels';
import { retrySignup, useRefreshChannels } from '../api';

/** "Retry setup" of a partial_failure WhatsApp signup: POST /api/wa-onboard/retry/, then refresh. */
export function RetrySetupButton({ channel }: { channel: Channel }) {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const alert = useAlert();
  const refresh = useRefreshChannels();
  const [pending, setPending] = useState(false);

  const onClick = async () => {
    setPending(true);
    try {
      const answer = await retrySignup(http, channel.external_id);
      if (answer?.status === 'completed') alert.success(t('channels.retry.completed'));
      else if (answer?.status === 'partial_failure' || answer?.status === 'failed')
        alert.error(t('channels.retry.stillFailing', { error: answer.error || t(`channels.status.${answer.status === 'failed' ? 'failedHelp' : 'needsAttentionHelp'}`) }));
      else alert.info(t('channels.retry.started'));
    } catch (error) {
      alert.error(errorText(error));
    } finally {
      setPending(false);
    }
    await refresh();
  };

  return (
    <Button
      size="small"
      variant="outlined"
      color="warning"
      onClick={onClick}
      disabled={pending}
      startIcon={pending ? <CircularProgress size={14} color="inherit" aria-hidden /> : <MdiIcon path={mdiRefresh} />}
      sx={{ fontWeight: 600 }}
    >
      {t('channels.retry.action')}
    </Button>
  );
}
