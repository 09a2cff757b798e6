/**
 * A per-channel on/off setting of the inbox shown on a connected channel's card (issue #22: auto-assignment,
 * CSAT): read from `GET {path}` (chats view: `{results: [{channel_id, enabled}]}`), changed with
 * `PUT {path}{channel}/` (channels manage). Without manage access the switch is read-only with one line saying
 * who can change it; hidden without chats view access. `strings` names the setting's translations
 * (`label`, `help`, `readOnly`, `on`, `off`, `error`).
 */
import { FormControlLabel, Switch, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, httpApiRef, useAccess, useAccount, useAlert, useApi } from '../../../core';

export interface ChannelSettingSwitchProps {
  channelId: number;
  path: string;
  strings: string;
  testId: string;
}

export function ChannelSettingSwitch({ channelId, path, strings, testId }: ChannelSettingSwitchProps) {
  const { t } = useTranslation();
  const chats = useAccess('chats');
  const { canManage } = useAccess('channels');
  const http = useApi(httpApiRef);
  const alert = useAlert();
  const { companyId } = useAccount();
  const queryClient = useQueryClient();
  const helpId = useId();
  const [pending, setPending] = useState(false);
  const queryKey = ['channels', path, companyId];
  const settings = useQuery({ queryKey, queryFn: () => http.get<{ results: { channel_id: number; enabled: boolean }[] }>(path), enabled: chats.canView, retry: false });
  if (!chats.canView || !settings.data) return null;
  const enabled = settings.data.results.some((r) => r.channel_id === channelId && r.enabled);

  const toggle = async (next: boolean) => {
    setPending(true);
    try {
      await http.put(`${path}${channelId}/`, { enabled: next });
      await queryClient.invalidateQueries({ queryKey });
      alert.success(t(next ? `${strings}.on` : `${strings}.off`));
    } catch (error) {
      alert.error(t(`${strings}.error`, { error: errorText(error) }));
    } finally {
      setPending(false);
    }
  };

  return (
    <div>
      <FormControlLabel
        control={<Switch checked={enabled} onChange={(e) => void toggle(e.target.checked)} disabled={!canManage || pending} slotProps={{ input: { 'aria-describedby': helpId } }} />}
        label={t(`${strings}.label`)}
        data-testid={testId}
      />
      <Typography id={helpId} variant="caption" color="text.secondary" component="p" sx={{ maxWidth: 280 }}>
        {canManage ? t(`${strings}.help`) : t(`${strings}.readOnly`)}
      </Typography>
    </div>
  );
}
