import { useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  FormControl,
  Grid,
  InputLabel,
  MenuItem,
  Paper,
  Select,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { alpha, useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { PieChart } from '@mui/x-charts/PieChart';
import { mdiDownload } from '@mdi/js';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { StatsReport } from '../../../contract/stats';
import { EmptyView, featureFlagsApiRef, formatDate, httpApiRef, MdiIcon, useAccount, useApi, visuallyHidden } from '../../core';
import { PRESETS, downloadCsv, fetchChannels, fetchStats, presetRange, type Preset } from './model';
import { duration, useBrowserTimeZone } from '../../core/stats/format';

/** `toLocaleString(locale)` without options: the numeric date and time. */
const NUMERIC_DATE_TIME: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' };

type Cell = string | number | null;

/** /stats: figures over a date range and per channel; every chart has its table beside it, every table a CSV export. */
export default function StatsPage() {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const features = useApi(featureFlagsApiRef);
  const { companyId } = useAccount();
  const tz = useBrowserTimeZone();
  const [preset, setPreset] = useState<Preset>('last30');
  const [range, setRange] = useState(() => presetRange('last30'));
  const [channel, setChannel] = useState<number | null>(null);

  const channels = useQuery({ queryKey: ['stats', 'channels', companyId], queryFn: ({ signal }) => fetchChannels(http, signal), retry: false });
  const validRange = /^\d{4}-\d{2}-\d{2}$/.test(range.from) && /^\d{4}-\d{2}-\d{2}$/.test(range.to) && range.from <= range.to;
  const stats = useQuery({
    queryKey: ['stats', 'report', companyId, range.from, range.to, tz, channel],
    queryFn: ({ signal }) => fetchStats(http, { ...range, tz, channel }, signal),
    enabled: validRange,
    retry: false,
  });

  const choosePreset = (value: Preset) => {
    setPreset(value);
    if (value !== 'custom') setRange(presetRange(value));
  };

  const data = stats.data;
  const engagement = features.isEnabled('broadcast_engagement');

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 1400 }}>
      <Typography variant="h4" component="h1" fontWeight={700}>
        {t('stats.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('stats.subtitle')}
      </Typography>

      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 3 }} component="form" aria-label={t('stats.filters.label')} onSubmit={(e) => e.preventDefault()}>
        <FormControl size="small" sx={{ minWidth: 180 }}>
          <InputLabel id="stats-range-label">{t('stats.filters.range')}</InputLabel>
          <Select labelId="stats-range-label" label={t('stats.filters.range')} value={preset} onChange={(e) => choosePreset(e.target.value as Preset)} data-testid="stats-preset">
            {PRESETS.map((p) => (
              <MenuItem key={p} value={p}>
                {t(`stats.filters.presets.${p}`)}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <TextField
          size="small"
          type="date"
          label={t('stats.filters.from')}
          value={range.from}
          onChange={(e) => {
            setPreset('custom');
            setRange((r) => ({ ...r, from: e.target.value }));
          }}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: range.to, 'data-testid': 'stats-from' } }}
        />
        <TextField
          size="small"
          type="date"
          label={t('stats.filters.to')}
          value={range.to}
          onChange={(e) => {
            setPreset('custom');
            setRange((r) => ({ ...r, to: e.target.value }));
          }}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: range.from, 'data-testid': 'stats-to' } }}
        />
        <FormControl size="small" sx={{ minWidth: 200 }}>
          <InputLabel id="stats-channel-label">{t('stats.filters.channel')}</InputLabel>
          <Select
            labelId="stats-channel-label"
            label={t('stats.filters.channel')}
            value={channel === null ? 'all' : String(channel)}
            onChange={(e) => setChannel(e.target.value === 'all' ? null : Number(e.target.value))}
          >
            <MenuItem value="all">{t('stats.filters.allChannels')}</MenuItem>
            {(channels.data ?? []).map((c) => (
              <MenuItem key={c.id} value={String(c.id)}>
                {c.name}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Stack>

      {data?.scope === 'own' && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="stats-own-scope">
          {t('stats.ownScope')}
        </Alert>
      )}

      {stats.isError ? (
        <Alert severity="error" action={<Button onClick={() => stats.refetch()}>{t('stats.retry')}</Button>}>
          {t('stats.loadFailed')}
        </Alert>
      ) : !data ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
          <CircularProgress aria-label={t('stats.loading')} />
        </Box>
      ) : isEmpty(data) ? (
        <EmptyView />
      ) : (
        <Report data={data} engagement={engagement} />
      )}
    </Box>
  );
}

function isEmpty(d: StatsReport): boolean {
  const x = d.totals;
  return x.conversations_started + x.conversations_closed + x.messages_in + x.messages_out === 0 && d.broadcasts.length === 0;
}

function Report({ data, engagement }: { data: StatsReport; engagement: boolean }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const x = data.totals;
  const file = (name: string) => `stats-${name}-${data.from}-${data.to}.csv`;
  const d = (s: number | null) => duration(t, s);

  const tiles: { id: string; label: string; value: string; hint?: string }[] = [
    { id: 'started', label: t('stats.totals.started'), value: String(x.conversations_started) },
    { id: 'closed', label: t('stats.totals.closed'), value: String(x.conversations_closed) },
    { id: 'messages-in', label: t('stats.totals.messagesIn'), value: String(x.messages_in) },
    { id: 'messages-out', label: t('stats.totals.messagesOut'), value: String(x.messages_out) },
    { id: 'first-response', label: t('stats.totals.firstResponse'), value: d(x.first_response.median), hint: t('stats.totals.medianP90', { p90: d(x.first_response.p90) }) },
    { id: 'resolution', label: t('stats.totals.resolution'), value: d(x.resolution.median), hint: t('stats.totals.medianP90', { p90: d(x.resolution.p90) }) },
    { id: 'bot-handled', label: t('stats.totals.botHandled'), value: String(x.bot_handled) },
    { id: 'human-handled', label: t('stats.totals.humanHandled'), value: String(x.human_handled) },
    // Issue #22: the share of ratings 4 and 5 among the CSAT responses of the period.
    { id: 'csat', label: t('stats.totals.csat'), value: percent(data.csat.score), hint: t('stats.totals.csatResponses', { count: data.csat.responses }) },
    // Issue #24: the assistant's share of questions answered (company figures only).
    ...(data.assistant
      ? [
          {
            id: 'assistant',
            label: t('stats.totals.assistant'),
            value: percent(data.assistant.answer_rate),
            hint: t('stats.totals.assistantHint', { answered: data.assistant.answered, questions: data.assistant.questions, handovers: data.assistant.handovers }),
          },
        ]
      : []),
  ];
  function percent(score: number | null): string {
    return score === null ? t('stats.none') : `${score} %`;
  }
  const csatHeaders = [t('stats.columns.agent'), t('stats.columns.email'), t('stats.columns.responses'), t('stats.columns.satisfied'), t('stats.columns.csatScore')];
  const csatRows: Cell[][] = data.csat.agents.map((a) => [a.name, a.email, a.responses, a.satisfied, percent(a.score)]);
  const csatCsv: Cell[][] = data.csat.agents.map((a) => [a.name, a.email, a.responses, a.satisfied, a.score]);

  const unansweredHeaders = [t('stats.columns.question'), t('stats.columns.timesAsked'), t('stats.columns.lastAsked')];
  const unansweredRows: Cell[][] = (data.assistant?.unanswered ?? []).map((q) => [q.question, q.count, formatDate(q.last_asked, i18n.language, NUMERIC_DATE_TIME)]);
  const unansweredCsv: Cell[][] = (data.assistant?.unanswered ?? []).map((q) => [q.question, q.count, q.last_asked]);

  const dailyHeaders = [t('stats.columns.date'), t('stats.columns.started'), t('stats.columns.closed'), t('stats.columns.messagesIn'), t('stats.columns.messagesOut')];
  const dailyRows: Cell[][] = data.daily.map((r) => [r.date, r.started, r.closed, r.messages_in, r.messages_out]);

  const agentHeaders = [
    t('stats.columns.agent'),
    t('stats.columns.email'),
    t('stats.columns.answered'),
    t('stats.columns.frtMedian'),
    t('stats.columns.frtP90'),
    t('stats.columns.resolved'),
    t('stats.columns.resMedian'),
    t('stats.columns.resP90'),
    t('stats.columns.messagesOut'),
  ];
  const agentRows: Cell[][] = data.agents.map((a) => [
    a.name,
    a.email,
    a.first_response.count,
    d(a.first_response.median),
    d(a.first_response.p90),
    a.resolution.count,
    d(a.resolution.median),
    d(a.resolution.p90),
    a.messages_out,
  ]);
  const agentCsv: Cell[][] = data.agents.map((a) => [a.name, a.email, a.first_response.count, a.first_response.median, a.first_response.p90, a.resolution.count, a.resolution.median, a.resolution.p90, a.messages_out]);

  const handlingHeaders = [t('stats.columns.handledBy'), t('stats.columns.conversations')];
  const handlingRows: Cell[][] = [
    [t('stats.handling.bot'), x.bot_handled],
    [t('stats.handling.human'), x.human_handled],
  ];

  const channelHeaders = [t('stats.columns.channel'), t('stats.columns.platform'), t('stats.columns.started'), t('stats.columns.messagesIn'), t('stats.columns.messagesOut')];
  const channelRows: Cell[][] = data.channels.map((c) => [c.name, c.platform, c.started, c.messages_in, c.messages_out]);

  const heatHeaders = [t('stats.columns.weekday'), t('stats.columns.hour'), t('stats.columns.messages')];
  const heatRows: Cell[][] = data.heatmap.map((c) => [t(`stats.weekdays.${c.weekday}`), c.hour, c.messages]);

  const funnelHeaders = [
    t('stats.columns.broadcast'),
    t('stats.columns.createdAt'),
    t('stats.columns.recipients'),
    t('stats.columns.sent'),
    t('stats.columns.delivered'),
    t('stats.columns.read'),
    t('stats.columns.replied'),
    t('stats.columns.failed'),
  ];
  const funnelRows: Cell[][] = data.broadcasts.map((b) => [b.name, b.created_at.slice(0, 10), b.n_users, b.sent, b.delivered, b.read, b.replied, b.failed]);

  return (
    <Stack spacing={3}>
      <Grid container spacing={2} data-testid="stats-totals">
        {tiles.map((tile) => (
          <Grid key={tile.id} size={{ xs: 6, md: 3 }}>
            <Card variant="outlined" sx={{ borderRadius: 3, height: '100%' }} data-testid={`stats-total-${tile.id}`}>
              <CardContent>
                <Typography variant="body2" color="text.secondary" component="h2">
                  {tile.label}
                </Typography>
                <Typography variant="h5" fontWeight={700} data-testid="value">
                  {tile.value}
                </Typography>
                {tile.hint && (
                  <Typography variant="caption" color="text.secondary">
                    {tile.hint}
                  </Typography>
                )}
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>

      <Section
        id="daily"
        title={t('stats.sections.daily')}
        headers={dailyHeaders}
        rows={dailyRows}
        fileName={file('daily')}
        chart={
          <LineChart
            height={280}
            xAxis={[{ scaleType: 'point', data: data.daily.map((r) => r.date) }]}
            series={[
              { data: data.daily.map((r) => r.started), label: t('stats.columns.started') },
              { data: data.daily.map((r) => r.closed), label: t('stats.columns.closed') },
              { data: data.daily.map((r) => r.messages_in), label: t('stats.columns.messagesIn') },
              { data: data.daily.map((r) => r.messages_out), label: t('stats.columns.messagesOut') },
            ]}
          />
        }
      />

      <Section
        id="agents"
        title={t('stats.sections.agents')}
        headers={agentHeaders}
        rows={agentRows}
        csvRows={agentCsv}
        fileName={file('agents')}
        chart={
          data.agents.length > 0 ? (
            <BarChart
              height={60 + Math.max(1, data.agents.length) * 48}
              layout="horizontal"
              yAxis={[{ scaleType: 'band', data: data.agents.map((a) => a.name), width: 110 }]}
              series={[
                { data: data.agents.map((a) => Math.round((a.first_response.median ?? 0) / 60)), label: `${t('stats.columns.frtMedian')} (min)` },
                { data: data.agents.map((a) => Math.round((a.first_response.p90 ?? 0) / 60)), label: `${t('stats.columns.frtP90')} (min)` },
              ]}
            />
          ) : null
        }
      />

      <Section id="csat" title={t('stats.sections.csat')} hint={t('stats.sections.csatHint')} headers={csatHeaders} rows={csatRows} csvRows={csatCsv} fileName={file('csat')} chart={null} />

      {data.assistant && (
        <Section
          id="assistant"
          title={t('stats.sections.assistant')}
          hint={t('stats.sections.assistantHint')}
          headers={unansweredHeaders}
          rows={unansweredRows}
          csvRows={unansweredCsv}
          fileName={file('assistant-unanswered')}
          chart={null}
        />
      )}

      <Section
        id="handling"
        title={t('stats.sections.handling')}
        headers={handlingHeaders}
        rows={handlingRows}
        fileName={file('handling')}
        chart={
          x.bot_handled + x.human_handled > 0 ? (
            <PieChart
              height={220}
              series={[
                {
                  data: [
                    { id: 'bot', value: x.bot_handled, label: t('stats.handling.bot'), color: theme.palette.secondary.main },
                    { id: 'human', value: x.human_handled, label: t('stats.handling.human'), color: theme.palette.primary.main },
                  ],
                  innerRadius: 50,
                },
              ]}
            />
          ) : null
        }
      />

      <Section
        id="channels"
        title={t('stats.sections.channels')}
        headers={channelHeaders}
        rows={channelRows}
        fileName={file('channels')}
        chart={
          data.channels.length > 0 ? (
            <BarChart
              height={260}
              xAxis={[{ scaleType: 'band', data: data.channels.map((c) => c.name) }]}
              series={[
                { data: data.channels.map((c) => c.messages_in), label: t('stats.columns.messagesIn') },
                { data: data.channels.map((c) => c.messages_out), label: t('stats.columns.messagesOut') },
              ]}
            />
          ) : null
        }
      />

      <Section id="heatmap" title={t('stats.sections.heatmap')} headers={heatHeaders} rows={heatRows} fileName={file('busiest-hours')} chart={<HeatMap data={data} />} />

      {engagement && data.scope === 'company' && (
        <Section
          id="broadcasts"
          title={t('stats.sections.broadcasts')}
          headers={funnelHeaders}
          rows={funnelRows}
          fileName={file('broadcasts')}
          chart={
            data.broadcasts.length > 0 ? (
              <BarChart
                height={280}
                xAxis={[{ scaleType: 'band', data: data.broadcasts.slice(0, 8).map((b) => b.name) }]}
                series={(['sent', 'delivered', 'read', 'replied'] as const).map((k) => ({ data: data.broadcasts.slice(0, 8).map((b) => b[k]), label: t(`stats.columns.${k}`) }))}
              />
            ) : null
          }
        />
      )}
    </Stack>
  );
}

/** A chart with its table beside it and the table's CSV export; the spec's empty view where there is nothing. */
function Section({ id, title, chart, headers, rows, csvRows, fileName, hint }: { id: string; title: string; chart: ReactNode; headers: string[]; rows: Cell[][]; csvRows?: Cell[][]; fileName: string; hint?: string }) {
  const { t } = useTranslation();
  const headingId = `stats-section-${id}`;
  return (
    <Card variant="outlined" sx={{ borderRadius: 3 }} component="section" aria-labelledby={headingId} data-testid={`stats-section-${id}`}>
      <CardContent>
        <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mb: 1 }}>
          <Typography variant="h6" component="h2" id={headingId}>
            {title}
          </Typography>
          <Button
            size="small"
            startIcon={<MdiIcon path={mdiDownload} />}
            disabled={rows.length === 0}
            onClick={() => downloadCsv(fileName, headers, csvRows ?? rows)}
            aria-label={t('stats.exportCsvOf', { table: title })}
          >
            {t('stats.exportCsv')}
          </Button>
        </Stack>
        {hint && (
          <Typography variant="body2" color="text.secondary">
            {hint}
          </Typography>
        )}
        {rows.length === 0 ? (
          <EmptyView />
        ) : (
          <Grid container spacing={2}>
            {/* A table of more than five columns (the agents, a broadcast's funnel) takes the whole width under its chart:
                beside it, half a 1440-px screen hid its last columns behind a scroll. */}
            <Grid size={{ xs: 12, lg: chart && headers.length <= 5 ? 6 : 12 }}>{chart}</Grid>
            <Grid size={{ xs: 12, lg: chart && headers.length <= 5 ? 6 : 12 }}>
              {/* A scrolling region: focusable so keyboard users can scroll it. */}
              <TableContainer component={Paper} variant="outlined" sx={{ maxHeight: 360 }} tabIndex={0} role="region" aria-labelledby={headingId}>
                <Table size="small" stickyHeader aria-labelledby={headingId}>
                  <TableHead>
                    <TableRow>
                      {headers.map((h) => (
                        <TableCell key={h}>{h}</TableCell>
                      ))}
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {rows.map((row, i) => (
                      <TableRow key={i}>
                        {row.map((cell, j) => (
                          <TableCell key={j} sx={j === 0 ? { whiteSpace: 'nowrap' } : undefined}>
                            {cell ?? t('stats.none')}
                          </TableCell>
                        ))}
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
            </Grid>
          </Grid>
        )}
      </CardContent>
    </Card>
  );
}

/** Weekday × hour grid of customer messages (a table: readable by screen readers, tinted by volume). */
function HeatMap({ data }: { data: StatsReport }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const counts = new Map(data.heatmap.map((c) => [`${c.weekday}-${c.hour}`, c.messages]));
  const max = Math.max(1, ...data.heatmap.map((c) => c.messages));
  const hours = Array.from({ length: 24 }, (_, h) => h);
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('stats.sections.heatmapHint')}
      </Typography>
      <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={t('stats.sections.heatmap')}>
      <Table size="small" padding="none" aria-label={t('stats.sections.heatmap')} data-testid="stats-heatmap" sx={{ tableLayout: 'fixed', minWidth: 560 }}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: 44 }}>
              <Box component="span" sx={visuallyHidden}>
                {t('stats.columns.weekday')}
              </Box>
            </TableCell>
            {hours.map((h) => (
              <TableCell key={h} align="center" sx={{ fontSize: 11 }}>
                {h}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {[1, 2, 3, 4, 5, 6, 7].map((day) => (
            <TableRow key={day}>
              <TableCell component="th" scope="row" sx={{ fontSize: 12 }}>
                {t(`stats.weekdays.${day}`)}
              </TableCell>
              {hours.map((h) => {
                const n = counts.get(`${day}-${h}`) ?? 0;
                return (
                  <TableCell
                    key={h}
                    align="center"
                    sx={{ fontSize: 11, height: 26, bgcolor: n ? alpha(theme.palette.primary.main, 0.08 + 0.3 * (n / max)) : undefined, color: 'text.primary' }}
                  >
                    {n || ''}
                  </TableCell>
                );
              })}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      </Box>
    </Box>
  );
}

