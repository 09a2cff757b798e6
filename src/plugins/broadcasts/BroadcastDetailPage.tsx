import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Grid, Link, Paper, Stack, Typography } from '@mui/material';
import { mdiDownload, mdiPause, mdiPlay, mdiReplay, mdiStop } from '@mdi/js';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, EmptyView, errorText, formatDate, httpApiRef, MdiIcon, useAccount, useAlert, useApi, useFeature } from '../../core';
import { broadcastAction, fetchBroadcast, fetchReport, liveBroadcastsApiRef, type BroadcastAction } from './api';
import { CounterLine, SendingProgress } from './components/LiveCounters';
import { DeleteBroadcastButton } from './components/DeleteBroadcastButton';
import { FunnelChart, funnelSteps } from './components/FunnelChart';
import { RecipientsTable } from './components/RecipientsTable';
import { StatusChip } from './components/StatusChip';
import { useCanSend, useLiveBroadcasts, useOnResync, useWatchChannels } from './hooks';
import { describeFailure } from './model/failures';
import { downloadText, reportFileName, reportToCsv } from './model/report';
import { canCancel, canPause, canResume, countersMayMove, isFinal, mergeLive } from './model/status';

/** How often a broadcast whose counters may still move is re-read besides its live socket events. */
const FALLBACK_REFRESH_MS = 15_000;

/** Recipients reload at most this often while live counters move. */
const RECIPIENTS_RELOAD_MS = 1500;

/** /broadcast/{id}: status and live counters, the funnel, pause/resume/cancel, retry failed, the report, the recipients. */
export default function BroadcastDetailPage() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const broadcastId = Number(id);
  const http = useApi(httpApiRef);
  const live = useApi(liveBroadcastsApiRef);
  const alert = useAlert();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { companyId } = useAccount();
  const engagement = useFeature('broadcast_engagement');
  const canSend = useCanSend();
  const [pending, setPending] = useState<BroadcastAction | 'report' | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);

  const query = useQuery({
    queryKey: ['broadcasts', 'detail', companyId, broadcastId],
    queryFn: ({ signal }) => fetchBroadcast(http, broadcastId, signal),
    enabled: Number.isInteger(broadcastId) && broadcastId > 0,
    retry: false,
    // The socket brings the counters live; while they can still move (sending, or replies within a day of the
    // end), a slow re-read also keeps the page true when the socket is down (reconnecting, or a connect or join
    // refused by its limits). It stopped at completion, and a page whose socket had dropped kept
    // "Delivered 1, Replied 0" while both were delivered and one had replied.
    refetchInterval: (q) => (q.state.data && countersMayMove(q.state.data) ? FALLBACK_REFRESH_MS : false),
  });
  const broadcast = query.data;
  useWatchChannels(broadcast ? [broadcast.page_id] : []);
  useOnResync(() => void query.refetch());
  const { progress } = useLiveBroadcasts();
  const event = progress[broadcastId];
  const fields = broadcast ? mergeLive(broadcast, event) : null;

  // The counters moved (a live event or a re-read): reload the recipients (throttled), and the record once it ends.
  const [version, setVersion] = useState(0);
  const lastReload = useRef(0);
  const statsKey = fields ? JSON.stringify(fields.stats) + fields.status : '';
  const shownStatsKey = useRef('');
  useEffect(() => {
    const before = shownStatsKey.current;
    shownStatsKey.current = statsKey;
    // The recipients loaded with the page: only a change of the counters since reloads them.
    if (!before || before === statsKey) return;
    const wait = Math.max(0, lastReload.current + RECIPIENTS_RELOAD_MS - Date.now());
    const timer = setTimeout(() => {
      lastReload.current = Date.now();
      setVersion((v) => v + 1);
    }, wait);
    return () => clearTimeout(timer);
  }, [statsKey]);
  const finalNow = fields ? isFinal(fields.status) : false;
  useEffect(() => {
    if (finalNow && broadcast && !isFinal(broadcast.status)) void query.refetch();
  }, [finalNow, broadcast, query]);

  const act = async (action: BroadcastAction) => {
    setPending(action);
    try {
      await broadcastAction(http, broadcastId, action);
      live.forget(broadcastId);
      alert.success(t(`broadcasts.detail.done.${action}`));
      await query.refetch();
      setVersion((v) => v + 1);
      void queryClient.invalidateQueries({ queryKey: ['broadcasts', 'list'] });
    } catch (err) {
      alert.error(errorText(err));
    } finally {
      setPending(null);
      setConfirmCancel(false);
    }
  };

  const download = async () => {
    if (!broadcast) return;
    setPending('report');
    try {
      const report = await fetchReport(http, broadcastId);
      downloadText(reportFileName(broadcast.name, broadcast.id), reportToCsv(report));
    } catch (err) {
      alert.error(t('broadcasts.detail.reportError', { error: errorText(err) }));
    } finally {
      setPending(null);
    }
  };

  if (query.isPending && query.fetchStatus !== 'idle') {
    return (
      <Stack alignItems="center" sx={{ py: 8 }}>
        <CircularProgress aria-label={t('broadcasts.common.loading')} />
      </Stack>
    );
  }
  if (!broadcast || !fields) {
    return (
      <Box sx={{ p: { xs: 2, md: 3 } }}>
        <Link component={RouterLink} to="/broadcast" underline="hover" variant="body2">
          {t('broadcasts.backToList')}
        </Link>
        <Typography variant="h4" component="h1" fontWeight={700} sx={{ mt: 1 }}>
          {t('broadcasts.detail.notFound')}
        </Typography>
        <EmptyView title={query.error ? errorText(query.error) : undefined} />
      </Box>
    );
  }

  const busy = pending !== null;
  const failedCount = fields.stats.failed + fields.stats.unknown;
  const steps = funnelSteps(fields.n_users, fields.stats, engagement);
  const date = (iso: string | null) => (iso ? formatDate(iso, i18n.language, { dateStyle: 'medium', timeStyle: 'short' }) : null);

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <Link component={RouterLink} to="/broadcast" underline="hover" variant="body2">
        {t('broadcasts.backToList')}
      </Link>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} justifyContent="space-between" alignItems={{ md: 'flex-start' }} sx={{ mt: 1, mb: 2 }}>
        <Box>
          <Stack direction="row" spacing={1.5} alignItems="center">
            <Typography variant="h4" component="h1" fontWeight={700}>
              {broadcast.name}
            </Typography>
            <StatusChip status={fields.status} reason={fields.status_reason} />
          </Stack>
          <Typography color="text.secondary">
            {t('broadcasts.detail.subtitle', { template: broadcast.template_name, language: broadcast.template_language, date: date(broadcast.created_at) })}
          </Typography>
          {broadcast.scheduled_at && fields.status === 'scheduled' && (
            <Typography color="text.secondary" data-testid="scheduled-at">
              {t('broadcasts.list.scheduledFor', { date: date(broadcast.scheduled_at) })}
              {broadcast.time_zone ? ` (${broadcast.time_zone})` : ''}
            </Typography>
          )}
          {fields.status_reason && (fields.status === 'waiting' || fields.status === 'failed') && (
            <Alert severity={fields.status === 'failed' ? 'error' : 'warning'} sx={{ mt: 1 }}>
              {fields.status_reason}
            </Alert>
          )}
        </Box>
        <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
          {canSend && canPause(fields.status) && (
            <Button variant="outlined" disabled={busy} onClick={() => void act('pause')} startIcon={<MdiIcon path={mdiPause} />}>
              {t('broadcasts.detail.pause')}
            </Button>
          )}
          {canSend && canResume(fields.status) && (
            <Button variant="outlined" disabled={busy} onClick={() => void act('resume')} startIcon={<MdiIcon path={mdiPlay} />}>
              {t('broadcasts.detail.resume')}
            </Button>
          )}
          {canSend && canCancel(fields.status) && (
            <Button variant="outlined" color="error" disabled={busy} onClick={() => setConfirmCancel(true)} startIcon={<MdiIcon path={mdiStop} />}>
              {t('broadcasts.detail.cancel')}
            </Button>
          )}
          {canSend && fields.stats.failed > 0 && !canCancel(fields.status) && (
            <Button variant="outlined" disabled={busy} onClick={() => void act('retry')} startIcon={<MdiIcon path={mdiReplay} />}>
              {t('broadcasts.detail.retry', { count: fields.stats.failed })}
            </Button>
          )}
          <Button
            variant="contained"
            disableElevation
            disabled={busy}
            onClick={() => void download()}
            startIcon={pending === 'report' ? <CircularProgress size={16} color="inherit" aria-hidden /> : <MdiIcon path={mdiDownload} />}
          >
            {t('broadcasts.detail.report')}
          </Button>
          {canSend && <DeleteBroadcastButton id={broadcast.id} name={broadcast.name} status={fields.status} onDeleted={() => navigate('/broadcast')} />}
        </Stack>
      </Stack>

      <Grid container spacing={2} sx={{ mb: 2 }}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Paper variant="outlined" sx={{ p: 2, height: '100%' }}>
            <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
              {t('broadcasts.detail.progress')}
            </Typography>
            <Stack spacing={1.5}>
              <Typography data-testid="detail-recipients">{t('broadcasts.review.recipients', { count: fields.n_users })}</Typography>
              {(fields.status === 'sending' || fields.status === 'waiting') && <SendingProgress value={fields.progress} name={broadcast.name} />}
              <CounterLine stats={fields.stats} name={broadcast.name} />
              {failedCount > 0 && broadcast.failures?.length > 0 && (
                <Box>
                  <Typography variant="subtitle2" component="h3">
                    {t('broadcasts.detail.failures')}
                  </Typography>
                  <Box component="ul" sx={{ pl: 2.5, my: 0.5 }}>
                    {broadcast.failures.map((f) => (
                      <li key={`${f.code}-${f.title}`}>
                        <Typography variant="body2">
                          {describeFailure({ code: f.code, title: f.title }, t)} — <strong>{f.count}</strong>
                        </Typography>
                      </li>
                    ))}
                  </Box>
                </Box>
              )}
            </Stack>
          </Paper>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Paper variant="outlined" sx={{ p: 2, height: '100%' }}>
            <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
              {t('broadcasts.funnel.title')}
            </Typography>
            <FunnelChart steps={steps} />
          </Paper>
        </Grid>
      </Grid>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <RecipientsTable broadcastId={broadcast.id} version={version} />
      </Paper>
      <ConfirmDialog
        open={confirmCancel}
        title={t('broadcasts.detail.cancelTitle')}
        message={t('broadcasts.detail.cancelMessage', { name: broadcast.name })}
        confirmLabel={t('broadcasts.detail.cancel')}
        cancelLabel={t('broadcasts.common.keep')}
        pending={pending === 'cancel'}
        onConfirm={() => void act('cancel')}
        onClose={() => setConfirmCancel(false)}
      />
    </Box>
  );
}
