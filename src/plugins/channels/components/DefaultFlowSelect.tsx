/**
 * A connected channel's default flow (issue #13 Runtime): the flow a NEW conversation on the channel
 * starts with when the customer's first message is no flow keyword. Read from
 * GET /api/flows/channel-defaults/ (flows view), changed with PUT /api/flows/channel-defaults/{id}/
 * (flows manage; server/plugins/flows/defaults.ts). Shown only with the flows feature and view
 * access; disabled without manage access. Nothing shows while the answer is missing or failed.
 */
import { MenuItem, TextField, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, httpApiRef, useAccess, useAccount, useAlert, useApi, useFeature } from '../../../core';

/** GET /api/flows/channel-defaults/ (server/plugins/flows/defaults.ts ChannelDefaultsResponse). */
interface ChannelDefaults {
  results: { channel_id: number; flow_id: number | null; flow_name: string }[];
  flows: { id: number; flow_name: string }[];
}

const DEFAULTS_PATH = '/api/flows/channel-defaults/';

export function DefaultFlowSelect({ channelId }: { channelId: number }) {
  const { t } = useTranslation();
  const enabled = useFeature('flows');
  const { canView, canManage } = useAccess('flows');
  const http = useApi(httpApiRef);
  const alert = useAlert();
  const { companyId } = useAccount();
  const queryClient = useQueryClient();
  const helpId = useId();
  const [pending, setPending] = useState(false);
  const queryKey = ['channels', 'default-flows', companyId];
  const defaults = useQuery({ queryKey, queryFn: () => http.get<ChannelDefaults>(DEFAULTS_PATH), enabled: enabled && canView, retry: false });
  if (!enabled || !canView || !defaults.data) return null;
  const { flows, results } = defaults.data;
  if (!flows.length) return null;
  const current = results.find((r) => r.channel_id === channelId)?.flow_id ?? null;

  const choose = async (value: string) => {
    const flowId = value ? Number(value) : null;
    setPending(true);
    try {
      await http.put(`${DEFAULTS_PATH}${channelId}/`, { flow_id: flowId });
      await queryClient.invalidateQueries({ queryKey });
      alert.success(t('channels.defaultFlow.saved'));
    } catch (error) {
      alert.error(t('channels.defaultFlow.error', { error: errorText(error) }));
    } finally {
      setPending(false);
    }
  };

  return (
    <div>
      <TextField
        select
        size="small"
        label={t('channels.defaultFlow.label')}
        value={current === null ? '' : String(current)}
        onChange={(e) => void choose(e.target.value)}
        disabled={!canManage || pending}
        sx={{ minWidth: 200 }}
        slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true, inputProps: { 'aria-describedby': helpId } } }}
        data-testid="default-flow-select"
      >
        <MenuItem value="">{t('channels.defaultFlow.none')}</MenuItem>
        {flows.map((f) => (
          <MenuItem key={f.id} value={String(f.id)}>
            {f.flow_name}
          </MenuItem>
        ))}
      </TextField>
      <Typography id={helpId} variant="caption" color="text.secondary" component="p" sx={{ maxWidth: 260, mt: 0.5 }}>
        {t('channels.defaultFlow.help')}
      </Typography>
    </div>
  );
}
