import type { ReactNode } from 'react';
import { Alert, Box, Card, CardActionArea, CardContent, Grid, LinearProgress, Skeleton, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { DashboardStats } from '../../../contract/stats';
import { duration } from '../../core/stats/format';
import { UNASSIGNED_CHATS_PATH } from '../chats';
import { useDashboardStats } from './useDashboardStats';

/** "Today at a glance": the selected company's figures of today (GET /api/stats/dashboard/), each linking to where it is acted on. */
export function TodayCard() {
  const { t } = useTranslation();
  const query = useDashboardStats();
  const d = query.data;

  return (
    <Card variant="outlined" sx={{ borderRadius: 3 }} component="section" aria-labelledby="dashboard-today-title" data-testid="dashboard-today">
      <CardContent sx={{ p: 3 }}>
        <Typography variant="h6" component="h2" fontWeight={600} id="dashboard-today-title">
          {t('dashboard.today.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {d?.scope === 'own' ? t('dashboard.today.subtitleOwn') : t('dashboard.today.subtitle')}
        </Typography>
        {query.isError ? (
          <Alert severity="warning">{t('dashboard.today.loadFailed')}</Alert>
        ) : !d ? (
          <FiguresSkeleton label={t('dashboard.today.loading')} />
        ) : (
          <Figures d={d} />
        )}
      </CardContent>
    </Card>
  );
}

/**
 * The figures' shape while they load, as tall as they will be (six figures of about 100 px, then the broadcasts' and
 * the channels' heading and line): the card no longer grows when they arrive, pushing the company card down
 * (Lighthouse's layout shift on /dashboard, bench/bundle README).
 */
function FiguresSkeleton({ label }: { label: string }) {
  return (
    <Stack spacing={2} aria-label={label} role="status">
      <Grid container spacing={2}>
        {Array.from({ length: 6 }, (_, i) => (
          <Grid key={i} size={{ xs: 6, md: 4, lg: 2 }}>
            <Skeleton variant="rounded" height={100} />
          </Grid>
        ))}
      </Grid>
      <Grid container spacing={2}>
        {[0, 1].map((i) => (
          <Grid key={i} size={{ xs: 12, md: 6 }}>
            {/* A subtitle2 heading (22 px) above a body2 line (20 px). */}
            <Skeleton variant="rounded" width="30%" height={22} sx={{ mb: 1 }} />
            <Skeleton variant="rounded" width="60%" height={20} />
          </Grid>
        ))}
      </Grid>
    </Stack>
  );
}

function Figures({ d }: { d: DashboardStats }) {
  const { t } = useTranslation();
  const botShare = d.conversations_today > 0 ? Math.round((d.bot_conversations_today / d.conversations_today) * 100) : null;
  const attention = d.channels.filter((c) => c.needs_attention || c.near_limit);
  return (
    <Stack spacing={2}>
      <Grid container spacing={2}>
        <Figure id="open" to="/chats" label={t('dashboard.today.open')} value={d.open_conversations} />
        <Figure id="unassigned" to={UNASSIGNED_CHATS_PATH} label={t('dashboard.today.unassigned')} value={d.unassigned_conversations} />
        <Figure id="messages-in" to="/chats" label={t('dashboard.today.messagesIn')} value={d.messages_in_today} />
        <Figure id="messages-out" to="/chats" label={t('dashboard.today.messagesOut')} value={d.messages_out_today} />
        <Figure id="first-response" to="/stats" label={t('dashboard.today.firstResponse')} value={duration(t, d.first_response_today.median)} />
        <Figure
          id="bot-share"
          to="/bots"
          label={t('dashboard.today.botShare')}
          value={botShare === null ? t('stats.none') : `${botShare} %`}
          hint={t('dashboard.today.botShareOf', { bot: d.bot_conversations_today, total: d.conversations_today })}
        />
      </Grid>

      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
            {t('dashboard.today.broadcasts')}
          </Typography>
          {d.running_broadcasts.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {t('dashboard.today.noBroadcasts')}
            </Typography>
          ) : (
            <Stack spacing={1}>
              {d.running_broadcasts.map((b) => (
                <CardActionArea key={b.id} component={RouterLink} to={`/broadcast/${b.id}`} sx={{ borderRadius: 2, p: 1 }} data-testid="dashboard-running-broadcast">
                  <Stack direction="row" justifyContent="space-between">
                    <Typography variant="body2" fontWeight={600}>
                      {b.name}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {t('dashboard.today.broadcastProgress', { sent: b.sent, total: b.n_users })}
                    </Typography>
                  </Stack>
                  <LinearProgress variant="determinate" value={b.progress} aria-label={t('dashboard.today.broadcastProgressLabel', { name: b.name })} sx={{ mt: 0.5 }} />
                </CardActionArea>
              ))}
            </Stack>
          )}
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
            {t('dashboard.today.channels')}
          </Typography>
          {attention.length === 0 ? (
            <Typography variant="body2" color="text.secondary" data-testid="dashboard-channels-ok">
              {d.channels.length === 0 ? t('dashboard.today.noChannels') : t('dashboard.today.channelsOk', { count: d.channels.length })}
            </Typography>
          ) : (
            <Stack spacing={1}>
              {attention.map((c) => (
                <CardActionArea key={c.id} component={RouterLink} to="/channels" sx={{ borderRadius: 2, p: 1 }} data-testid="dashboard-channel-attention">
                  <Typography variant="body2" fontWeight={600}>
                    {c.name}
                  </Typography>
                  {c.reason && (
                    <Typography variant="body2" color="warning.main" sx={{ color: (theme) => (theme.palette.mode === 'dark' ? 'warning.light' : 'warning.dark') }}>
                      {t(`dashboard.today.reasons.${c.reason}`)}
                    </Typography>
                  )}
                  {c.near_limit && c.messaging_limit && (
                    <Typography variant="body2" sx={{ color: (theme) => (theme.palette.mode === 'dark' ? 'warning.light' : 'warning.dark') }}>
                      {t('dashboard.today.nearLimit', { used: c.messaging_limit.used, limit: c.messaging_limit.limit ?? '∞' })}
                    </Typography>
                  )}
                </CardActionArea>
              ))}
            </Stack>
          )}
        </Grid>
      </Grid>
    </Stack>
  );
}

function Figure({ id, to, label, value, hint }: { id: string; to: string; label: string; value: ReactNode; hint?: string }) {
  return (
    <Grid size={{ xs: 6, md: 4, lg: 2 }}>
      <Card variant="outlined" sx={{ borderRadius: 2, height: '100%' }}>
        <CardActionArea component={RouterLink} to={to} sx={{ height: '100%' }} data-testid={`dashboard-figure-${id}`}>
          <Box sx={{ p: 1.5 }}>
            <Typography variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Typography variant="h5" fontWeight={700} data-testid="value">
              {value}
            </Typography>
            {hint && (
              <Typography variant="caption" color="text.secondary">
                {hint}
              </Typography>
            )}
          </Box>
        </CardActionArea>
      </Card>
    </Grid>
  );
}
