/**
 * /bots/{id}: the two views that share this path (spec §2). "Details": the integration (endpoint and
 * key with copy and rotate), the channels the bot runs on (assignment), its steps as an outline and
 * the conversations it handled. "Outline" (?view=outline): the compact read-only outline of the steps.
 */
import { useEffect, useMemo, useState } from 'react';
import { Box, Button, Card, CardContent, Checkbox, Chip, CircularProgress, FormControlLabel, FormGroup, IconButton, Stack, Switch, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { mdiArrowLeft, mdiContentCopy, mdiKeyChange, mdiSitemapOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { ConfirmDialog, ConsoleTooltip, MdiIcon, useAccess, useAlert, useApi } from '../../core';
import type { Bot } from '../../../contract/bots';
import type { Channel } from '../../../contract/channels';
import { botServiceApiRef } from './api/botService';
import { BotLoadError } from './BotLoadError';
import { botErrorText } from './api/errors';
import { useBot, useCompanyChannels, useIntegration, useRefreshBots } from './api/hooks';
import { startStepId } from './model/layout';
import { shortId, stepLabel } from './model/graph';
import { canvasPath } from './BotsPage';

function CopyButton({ value, what }: { value: string; what: string }) {
  const { t } = useTranslation();
  const alert = useAlert();
  return (
    <ConsoleTooltip title={t('bots.detail.copy', { what })}>
      <IconButton
        size="small"
        aria-label={t('bots.detail.copy', { what })}
        onClick={() => {
          void navigator.clipboard?.writeText(value).then(() => alert.success(t('bots.detail.copied')), () => undefined);
        }}
      >
        <MdiIcon path={mdiContentCopy} fontSize="small" />
      </IconButton>
    </ConsoleTooltip>
  );
}

function IntegrationCard() {
  const { t } = useTranslation();
  const integration = useIntegration();
  const service = useApi(botServiceApiRef);
  const alert = useAlert();
  const refresh = useRefreshBots();
  const { canManage } = useAccess('flows');
  const [confirm, setConfirm] = useState(false);
  const [pending, setPending] = useState(false);
  const rotate = async () => {
    setPending(true);
    try {
      await service.rotateKey();
      alert.success(t('bots.detail.rotated'));
      await refresh();
    } catch (error) {
      alert.error(botErrorText(error));
    } finally {
      setPending(false);
      setConfirm(false);
    }
  };
  const data = integration.data;
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('bots.detail.integration')}
        </Typography>
        {data && (
          <Stack spacing={1}>
            <Box>
              <Typography variant="caption" color="text.secondary">
                {t('bots.detail.endpoint')}
              </Typography>
              <Stack direction="row" alignItems="center" spacing={0.5}>
                <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }} data-testid="integration-endpoint">
                  {data.endpoint}
                </Typography>
                <CopyButton value={data.endpoint} what={t('bots.detail.endpoint')} />
              </Stack>
            </Box>
            <Box>
              <Typography variant="caption" color="text.secondary">
                {t('bots.detail.accessKey')}
              </Typography>
              {data.access_key ? (
                <Stack direction="row" alignItems="center" spacing={0.5}>
                  <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }} data-testid="integration-key">
                    {data.access_key}
                  </Typography>
                  <CopyButton value={data.access_key} what={t('bots.detail.accessKey')} />
                </Stack>
              ) : (
                <Typography variant="body2">{t('bots.detail.keyHidden')}</Typography>
              )}
            </Box>
            {canManage && data.access_key && (
              <Box>
                <Button size="small" startIcon={<MdiIcon path={mdiKeyChange} />} onClick={() => setConfirm(true)}>
                  {t('bots.detail.rotate')}
                </Button>
              </Box>
            )}
          </Stack>
        )}
        {integration.isPending && <CircularProgress size={20} aria-label={t('bots.loading')} />}
      </CardContent>
      <ConfirmDialog
        open={confirm}
        pending={pending}
        title={t('bots.detail.rotateTitle')}
        message={t('bots.detail.rotateMessage')}
        confirmLabel={t('bots.detail.rotateConfirm')}
        cancelLabel={t('bots.create.cancel')}
        onConfirm={rotate}
        onClose={() => setConfirm(false)}
      />
    </Card>
  );
}

function ChannelsCard({ bot }: { bot: Bot }) {
  const { t } = useTranslation();
  const channels = useCompanyChannels();
  const service = useApi(botServiceApiRef);
  const alert = useAlert();
  const refresh = useRefreshBots();
  const { canManage } = useAccess('flows');
  const [chosen, setChosen] = useState<number[]>(bot.channels);
  const [active, setActive] = useState(bot.active);
  const [pending, setPending] = useState(false);
  useEffect(() => setChosen(bot.channels), [bot.channels]);
  useEffect(() => setActive(bot.active), [bot.active]);
  const save = async (body: { channels?: number[]; active?: boolean }) => {
    setPending(true);
    try {
      await service.updateBot(bot.id, body);
      alert.success(t('bots.detail.channelsSaved'));
      await refresh();
    } catch (error) {
      alert.error(botErrorText(error));
    } finally {
      setPending(false);
    }
  };
  const list: Channel[] = channels.data ?? [];
  const dirty = JSON.stringify([...chosen].sort()) !== JSON.stringify([...bot.channels].sort());
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2">
          {t('bots.detail.channels')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('bots.detail.channelsHelp')}
        </Typography>
        <FormControlLabel
          control={<Switch checked={active} disabled={!canManage || pending} onChange={(e) => { setActive(e.target.checked); void save({ active: e.target.checked }); }} />}
          label={t('bots.detail.active')}
        />
        <FormGroup>
          {list.map((channel) => (
            <FormControlLabel
              key={channel.id}
              control={
                <Checkbox
                  checked={chosen.includes(channel.id)}
                  disabled={!canManage || pending}
                  onChange={(e) => setChosen((c) => (e.target.checked ? [...c, channel.id] : c.filter((id) => id !== channel.id)))}
                />
              }
              label={`${channel.name} (${t(`channels.platforms.${channel.platform}`, { defaultValue: channel.platform })})`}
            />
          ))}
        </FormGroup>
        {canManage && (
          <Button variant="contained" disableElevation disabled={!dirty || pending} onClick={() => void save({ channels: chosen })} sx={{ mt: 1 }}>
            {t('bots.detail.saveChannels')}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}

/** The steps in order from the start step (breadth first), then any unreachable ones. */
export function outlineOrder(bot: Bot): Bot['steps'] {
  const byId = new Map(bot.steps.map((s) => [s.id, s]));
  const start = startStepId({ id: bot.id, step: bot.step, steps: bot.steps });
  const seen = new Set<string>();
  const out: Bot['steps'] = [];
  const queue = start ? [start] : [];
  while (queue.length) {
    const id = queue.shift() as string;
    const step = byId.get(id);
    if (!step || seen.has(id)) continue;
    seen.add(id);
    out.push(step);
    for (const o of step.options) if (o.next_step) queue.push(o.next_step);
    if (step.next_step_id) queue.push(step.next_step_id);
  }
  for (const step of [...bot.steps].sort((a, b) => a.position - b.position)) if (!seen.has(step.id)) out.push(step);
  return out;
}

function Outline({ bot, compact }: { bot: Bot; compact: boolean }) {
  const { t } = useTranslation();
  const steps = useMemo(() => outlineOrder(bot), [bot]);
  const byId = new Map(bot.steps.map((s) => [s.id, s]));
  const labelOf = (id: string) => {
    const s = byId.get(id);
    return s ? stepLabel(s) : shortId(id);
  };
  const start = startStepId({ id: bot.id, step: bot.step, steps: bot.steps });
  if (!steps.length) return <Typography variant="body2">{t('bots.detail.noSteps')}</Typography>;
  return (
    <Box component="ol" data-testid="bot-outline" sx={{ pl: 3, m: 0 }}>
      {steps.map((step) => (
        <Box component="li" key={step.id} sx={{ mb: compact ? 0.5 : 1.5 }}>
          <Typography variant="body2" fontWeight={600} component="span">
            {stepLabel(step)}
          </Typography>
          {step.id === start && <Chip size="small" color="success" label={t('bots.detail.start')} sx={{ ml: 1, height: 18 }} />}
          {!compact && step.messages.length > 1 && (
            <Typography variant="caption" color="text.secondary" component="div">
              {step.messages.slice(1).map((m) => m.text || m.media_url).join(' · ')}
            </Typography>
          )}
          {!compact && step.actions.length > 0 && (
            <Typography variant="caption" color="text.secondary" component="div">
              {t('bots.panel.actions')}: {step.actions.map((a) => t(`bots.panel.actionTypes.${a.type}`)).join(', ')}
            </Typography>
          )}
          {step.options.length > 0 && (
            <Box component="ul" sx={{ pl: 2, m: 0, listStyle: 'circle' }}>
              {step.options.map((o) => (
                <li key={o.id}>
                  <Typography variant="body2" component="span">
                    [{o.text}] {o.next_step ? t('bots.detail.goesTo', { label: labelOf(o.next_step) }) : ''}
                  </Typography>
                </li>
              ))}
            </Box>
          )}
          {step.next_step_id && (
            <Typography variant="body2" color="text.secondary">
              {t('bots.detail.then', { label: labelOf(step.next_step_id) })}
            </Typography>
          )}
        </Box>
      ))}
    </Box>
  );
}

export default function BotPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id } = useParams();
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'outline' ? 'outline' : 'detail';
  const bot = useBot(Number(id));

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <Stack direction="row" alignItems="center" spacing={1} sx={{ mb: 2, flexWrap: 'wrap', rowGap: 1 }}>
        <ConsoleTooltip title={t('bots.canvas.back')}>
          <IconButton aria-label={t('bots.canvas.back')} onClick={() => navigate('/bots')}>
            <MdiIcon path={mdiArrowLeft} />
          </IconButton>
        </ConsoleTooltip>
        <Typography variant="h5" component="h1" fontWeight={700} sx={{ flex: 1 }}>
          {bot.data?.name ?? t('bots.detail.title')}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={view}
          aria-label={t('bots.detail.views')}
          onChange={(_, v) => v && setParams(v === 'outline' ? { view: 'outline' } : {}, { replace: true })}
        >
          <ToggleButton value="detail" sx={{ color: 'text.primary' }}>
            {t('bots.detail.detailView')}
          </ToggleButton>
          <ToggleButton value="outline" sx={{ color: 'text.primary' }}>
            {t('bots.detail.outlineView')}
          </ToggleButton>
        </ToggleButtonGroup>
        {bot.data && (
          <Button variant="contained" disableElevation startIcon={<MdiIcon path={mdiSitemapOutline} />} onClick={() => navigate(canvasPath(bot.data.id))}>
            {t('bots.detail.openCanvas')}
          </Button>
        )}
      </Stack>
      {bot.isPending && (
        <Stack direction="row" spacing={1} alignItems="center" role="status">
          <CircularProgress size={20} aria-hidden />
          <Typography variant="body2">{t('bots.loading')}</Typography>
        </Stack>
      )}
      {bot.error && <BotLoadError error={bot.error} />}
      {bot.data && view === 'outline' && (
        <Card variant="outlined">
          <CardContent>
            <Outline bot={bot.data} compact />
          </CardContent>
        </Card>
      )}
      {bot.data && view === 'detail' && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
          <Stack spacing={2}>
            <Card variant="outlined">
              <CardContent>
                <Typography variant="caption" color="text.secondary">
                  {t('bots.detail.conversations')}
                </Typography>
                <Typography variant="h4" component="p" data-testid="bot-conversations">
                  {bot.data.conversations_handled}
                </Typography>
              </CardContent>
            </Card>
            <ChannelsCard bot={bot.data} />
            <IntegrationCard />
          </Stack>
          <Card variant="outlined">
            <CardContent>
              <Typography variant="h6" component="h2" gutterBottom>
                {t('bots.detail.steps')}
              </Typography>
              <Outline bot={bot.data} compact={false} />
            </CardContent>
          </Card>
        </Box>
      )}
    </Box>
  );
}
