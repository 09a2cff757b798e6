import { Avatar, Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import { mdiOpenInNew } from '@mdi/js';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ConsoleTooltip, MdiIcon, statusTextColor } from '../../../core';
import type { Channel } from '../../../../contract/channels';
import { channelIdentifier, channelState, formatDate, PLATFORM_ICONS, STATE_COLORS } from './channelDisplay';
import { AutoAssignSwitch } from './AutoAssignSwitch';
import { CsatSwitch } from './CsatSwitch';
import { DefaultFlowSelect } from './DefaultFlowSelect';
import { DisconnectChannelButton } from './DisconnectChannelButton';
import { RetrySetupButton } from './RetrySetupButton';

/** The platform's mdi icon on its brand colour. */
export function PlatformAvatar({ platform }: { platform: Channel['platform'] }) {
  const { t } = useTranslation();
  const icon = PLATFORM_ICONS[platform] ?? PLATFORM_ICONS.sandbox;
  return (
    <Avatar variant="rounded" sx={{ bgcolor: icon.color, color: '#fff', width: 44, height: 44 }} aria-label={t(`channels.platforms.${platform}`)} role="img">
      <MdiIcon path={icon.path} />
    </Avatar>
  );
}

/**
 * One channel: platform icon, name, identifier (phone number, page or account id), status chip
 * with the signup error when part of it failed, the date it was added, and — for members who
 * manage channels — its actions (retry setup, customer simulator, disconnect).
 */
export function ChannelCard({ channel, canManage }: { channel: Channel; canManage: boolean }) {
  const { t, i18n } = useTranslation();
  const nameId = useId();
  const state = channelState(channel);
  const identifier = channelIdentifier(channel);
  const identifierText = 'text' in identifier ? identifier.text : t(identifier.key, identifier.values);
  const problem =
    state === 'needs_attention'
      ? channel.signup_error || t('channels.status.needsAttentionHelp')
      : state === 'failed'
        ? channel.signup_error || t('channels.status.failedHelp')
        : null;
  const date = formatDate(channel.created_at, i18n.language);
  const isSandbox = channel.platform === 'sandbox';

  return (
    <Paper component="li" variant="outlined" aria-labelledby={nameId} sx={{ listStyle: 'none', p: 2, borderRadius: 2 }}>
      {/* The channel and its state on the first line; its settings on a line of their own below, so the settings a
          connected channel gained (default flow, auto-assign, ratings) never squeeze its name out of the card. */}
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems={{ md: 'center' }}>
        <Stack direction="row" spacing={2} alignItems="center" sx={{ flex: 1, minWidth: 0 }}>
          <PlatformAvatar platform={channel.platform} />
          <Box sx={{ minWidth: 0 }}>
            <Typography id={nameId} variant="subtitle1" component="h2" fontWeight={600} noWrap>
              {channel.name}
            </Typography>
            <Typography variant="body2" color="text.secondary" noWrap>
              {t(`channels.platforms.${channel.platform}`)} · {identifierText}
            </Typography>
            {problem && (
              <Typography variant="caption" sx={{ display: 'block', color: state === 'failed' ? 'error.main' : statusTextColor('warning') }}>
                {problem}
              </Typography>
            )}
          </Box>
        </Stack>
        {/* The state and the actions share a row: on a phone the disconnect button sits beside the state, not
            alone on a line of its own. */}
        <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap" alignItems="center" justifyContent="space-between">
          <Stack spacing={0.5} alignItems={{ xs: 'flex-start', md: 'flex-end' }} sx={{ minWidth: { md: 170 } }}>
            <ConsoleTooltip title={problem ?? ''} disableHoverListener={!problem} disableFocusListener={!problem}>
              <Chip size="small" color={STATE_COLORS[state]} variant={state === 'connected' ? 'filled' : 'outlined'} label={t(`channels.status.${state}`)} />
            </ConsoleTooltip>
            <Typography variant="caption" color="text.secondary">
              {state === 'connected' ? t('channels.since.connected', { date }) : t('channels.since.added', { date })}
            </Typography>
          </Stack>
          {canManage && (
            <Stack direction="row" spacing={1} alignItems="center" justifyContent="flex-end" sx={{ minWidth: { md: 220 } }}>
              {channel.platform === 'whatsapp' && channel.signup_status === 'partial_failure' && state !== 'disconnected' && (
                <RetrySetupButton channel={channel} />
              )}
              {isSandbox && channel.simulator_url && (
                <Button
                  size="small"
                  variant="outlined"
                  href={channel.simulator_url}
                  target="_blank"
                  rel="noopener noreferrer"
                  endIcon={<MdiIcon path={mdiOpenInNew} />}
                  sx={{ fontWeight: 600 }}
                >
                  {t('channels.simulator')}
                </Button>
              )}
              {!isSandbox && state !== 'disconnected' && <DisconnectChannelButton channel={channel} />}
            </Stack>
          )}
        </Stack>
      </Stack>
      {state === 'connected' && (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems="flex-start" sx={{ mt: 2, pt: 2, borderTop: 1, borderColor: 'divider', '& > *': { flex: { md: '1 1 0' }, minWidth: 0 } }}>
          <DefaultFlowSelect channelId={channel.id} />
          <AutoAssignSwitch channelId={channel.id} />
          <CsatSwitch channelId={channel.id} />
        </Stack>
      )}
    </Paper>
  );
}
