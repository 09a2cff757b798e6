import { Box, LinearProgress, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ConsoleTooltip, useFeature } from '../../../core';
import type { BroadcastStats } from '../../../../contract/broadcasts';

export const COUNTERS = ['sent', 'delivered', 'read', 'replied', 'failed'] as const;

/** The counters shown: replied only with broadcast_engagement. */
export function useCounters(): (typeof COUNTERS)[number][] {
  const engagement = useFeature('broadcast_engagement');
  return COUNTERS.filter((c) => c !== 'replied' || engagement);
}

/** (recipients,) sent / delivered / read / replied / failed, compact, for a list row. */
export function CounterLine({ stats, name, recipients }: { stats: BroadcastStats; name: string; recipients?: number }) {
  const { t } = useTranslation();
  const counters = useCounters();
  return (
    <Stack direction="row" spacing={1.25} useFlexGap flexWrap="wrap" component="dl" sx={{ m: 0, rowGap: 0.75 }} aria-label={t('broadcasts.list.countersOf', { name })}>
      {recipients !== undefined && (
        <Box sx={{ minWidth: 40 }}>
          <Typography component="dt" variant="caption" color="text.secondary" sx={{ display: 'block', lineHeight: 1.2 }}>
            {t('broadcasts.funnel.recipients')}
          </Typography>
          <Typography component="dd" variant="body2" fontWeight={600} sx={{ m: 0 }} data-testid="counter-recipients">
            {recipients.toLocaleString()}
          </Typography>
        </Box>
      )}
      {counters.map((c) => (
        <Box key={c} sx={{ minWidth: 40 }}>
          <Typography component="dt" variant="caption" color="text.secondary" sx={{ display: 'block', lineHeight: 1.2 }}>
            {t(`broadcasts.counters.${c}`)}
          </Typography>
          <Typography component="dd" variant="body2" fontWeight={600} sx={{ m: 0 }} data-testid={`counter-${c}`} color={c === 'failed' && stats[c] > 0 ? 'error' : undefined}>
            {stats[c].toLocaleString()}
          </Typography>
        </Box>
      ))}
    </Stack>
  );
}

/** The live progress bar while a broadcast sends (value in percent). */
export function SendingProgress({ value, name }: { value: number; name: string }) {
  const { t } = useTranslation();
  const rounded = Math.round(value);
  return (
    <ConsoleTooltip title={t('broadcasts.list.progress', { percent: rounded })}>
      <Stack direction="row" spacing={1} alignItems="center" sx={{ minWidth: 120 }}>
        <LinearProgress
          variant="determinate"
          value={value}
          sx={{ flex: 1, height: 6, borderRadius: 3 }}
          aria-label={t('broadcasts.list.progressOf', { name })}
        />
        <Typography variant="caption" color="text.secondary" sx={{ minWidth: 32, textAlign: 'right' }}>
          {rounded}%
        </Typography>
      </Stack>
    </ConsoleTooltip>
  );
}
