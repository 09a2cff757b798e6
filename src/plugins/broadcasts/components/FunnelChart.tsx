import { Box, Typography } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { useTranslation } from 'react-i18next';
import type { BroadcastStats } from '../../../../contract/broadcasts';

export type FunnelStepName = 'recipients' | 'sent' | 'delivered' | 'read' | 'replied';

/** The funnel's steps: recipients → sent → delivered → read (→ replied with broadcast_engagement). */
export function funnelSteps(nUsers: number, stats: BroadcastStats, engagement: boolean): { step: FunnelStepName; count: number }[] {
  const steps: { step: FunnelStepName; count: number }[] = [
    { step: 'recipients', count: nUsers },
    { step: 'sent', count: stats.sent },
    { step: 'delivered', count: stats.delivered },
    { step: 'read', count: stats.read },
  ];
  if (engagement) steps.push({ step: 'replied', count: stats.replied });
  return steps;
}

/** The funnel as horizontal bars, and the same figures as a text list. */
export function FunnelChart({ steps }: { steps: { step: FunnelStepName; count: number }[] }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const labels = steps.map((s) => t(`broadcasts.funnel.${s.step}`));
  const top = steps[0]?.count || 0;
  return (
    <Box>
      {/* The chart has its own keyboard and screen-reader access (x-charts); the list below repeats the figures as text. */}
      <Box>
        <BarChart
          height={60 + steps.length * 44}
          layout="horizontal"
          yAxis={[{ scaleType: 'band', data: labels, width: 90 }]}
          xAxis={[{ min: 0, tickMinStep: 1 }]}
          series={[{ data: steps.map((s) => s.count), label: t('broadcasts.funnel.title'), color: theme.palette.info.main }]}
          hideLegend
          margin={{ left: 8, right: 16, top: 8, bottom: 8 }}
        />
      </Box>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', flexWrap: 'wrap', gap: 2 }} aria-label={t('broadcasts.funnel.title')}>
        {steps.map((s, i) => (
          <Box component="li" key={s.step} data-testid={`funnel-${s.step}`}>
            <Typography variant="caption" color="text.secondary" component="span">
              {labels[i]}
            </Typography>{' '}
            <Typography component="span" fontWeight={700}>
              {s.count.toLocaleString()}
            </Typography>
            {i > 0 && top > 0 && (
              <Typography component="span" variant="caption" color="text.secondary">
                {' '}
                ({Math.round((s.count / top) * 100)}%)
              </Typography>
            )}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
