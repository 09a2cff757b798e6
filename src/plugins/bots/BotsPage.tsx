import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Chip, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Stack, TextField, Typography } from '@mui/material';
import { mdiDeleteOutline, mdiInformationOutline, mdiPlus, mdiSitemapOutline } from '@mdi/js';
import { DataTable, ListContextProvider, ResourceContextProvider, useList, useRecordContext } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ConfirmDialog, ConsolePagination, ConsoleTooltip, EmptyView, formatDate, InlineFacts, MdiIcon, useAccess, useAlert, useApi, useIsPhone } from '../../core';
import { BOT_LIMITS, type BotSummary } from '../../../contract/bots';
import type { Channel } from '../../../contract/channels';
import { botServiceApiRef, NoBotAccessError } from './api/botService';
import { botCreationError, botErrorText } from './api/errors';
import { useBots, useCompanyChannels, useRefreshBots } from './api/hooks';

export const canvasPath = (id: number | string) => `/flows/generic-flow/${id}`;

function ChannelsCell({ channels }: { channels: Map<number, Channel> }) {
  const { t } = useTranslation();
  const bot = useRecordContext<BotSummary>();
  if (!bot) return null;
  if (!bot.channels.length) return <Typography variant="body2" color="text.secondary">{t('bots.noChannel')}</Typography>;
  return (
    <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
      {bot.channels.map((id) => (
        <Chip key={id} size="small" label={channels.get(id)?.name ?? `#${id}`} />
      ))}
    </Stack>
  );
}

function DateCell() {
  const { i18n } = useTranslation();
  const bot = useRecordContext<BotSummary>();
  if (!bot) return null;
  return <>{formatDate(bot.updated_at, i18n.language, { dateStyle: 'medium', timeStyle: 'short' })}</>;
}

/** A bot on a phone: its name, channels, then steps, conversations and last change in one line. */
function PhoneBotCell({ channels }: { channels: Map<number, Channel> }) {
  const { t, i18n } = useTranslation();
  const bot = useRecordContext<BotSummary>();
  if (!bot) return null;
  return (
    <Stack spacing={0.75} sx={{ minWidth: 0 }}>
      <NameCell />
      <ChannelsCell channels={channels} />
      <InlineFacts
        facts={[
          { label: t('bots.fields.steps'), value: bot.steps_count },
          { label: t('bots.fields.conversations'), value: bot.conversations_handled },
          { label: t('bots.fields.updated_at'), value: formatDate(bot.updated_at, i18n.language, { dateStyle: 'medium' }) },
        ]}
      />
    </Stack>
  );
}

function ActionsCell({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const bot = useRecordContext<BotSummary>();
  const navigate = useNavigate();
  const service = useApi(botServiceApiRef);
  const alert = useAlert();
  const refresh = useRefreshBots();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  if (!bot) return null;

  const onConfirm = async () => {
    setPending(true);
    try {
      await service.deleteBot(bot.id);
      alert.success(t('bots.delete.success'));
      await refresh();
    } catch (error) {
      alert.error(t('bots.delete.error', { error: botErrorText(error) }));
    } finally {
      setPending(false);
      setOpen(false);
    }
  };

  return (
    <Stack direction="row" spacing={0.5} justifyContent="flex-end" onClick={(e) => e.stopPropagation()}>
      <ConsoleTooltip title={t('bots.details', { name: bot.name })}>
        <IconButton size="small" aria-label={t('bots.details', { name: bot.name })} onClick={() => navigate(`/bots/${bot.id}`)}>
          <MdiIcon path={mdiInformationOutline} />
        </IconButton>
      </ConsoleTooltip>
      <ConsoleTooltip title={t('bots.open', { name: bot.name })}>
        <IconButton size="small" aria-label={t('bots.open', { name: bot.name })} onClick={() => navigate(canvasPath(bot.id))}>
          <MdiIcon path={mdiSitemapOutline} />
        </IconButton>
      </ConsoleTooltip>
      {canManage && (
        <ConsoleTooltip title={t('bots.delete.action', { name: bot.name })}>
          <IconButton size="small" color="error" aria-label={t('bots.delete.action', { name: bot.name })} onClick={() => setOpen(true)}>
            <MdiIcon path={mdiDeleteOutline} />
          </IconButton>
        </ConsoleTooltip>
      )}
      <ConfirmDialog
        open={open}
        pending={pending}
        title={t('bots.delete.title')}
        message={t('bots.delete.message', { name: bot.name })}
        confirmLabel={t('bots.delete.confirm')}
        cancelLabel={t('bots.delete.cancel')}
        onConfirm={onConfirm}
        onClose={() => setOpen(false)}
      />
    </Stack>
  );
}

/** Creates a bot (POST /api/bots/), then goes to its canvas (spec §2). */
function CreateBotDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const service = useApi(botServiceApiRef);
  const alert = useAlert();
  const navigate = useNavigate();
  const refresh = useRefreshBots();
  const [name, setName] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setError(t('ra.validation.required'));
      return;
    }
    setPending(true);
    try {
      const bot = await service.createBot({ name: name.trim() });
      alert.success(t('bots.create.success'));
      void refresh();
      onClose();
      navigate(canvasPath(bot.id));
    } catch (err) {
      alert.error(botCreationError(err));
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog open={open} onClose={pending ? undefined : onClose} aria-labelledby="create-bot-title" fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="create-bot-title">{t('bots.create.title')}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label={t('bots.create.name')}
            value={name}
            required
            onChange={(e) => {
              setName(e.target.value);
              setError(null);
            }}
            error={!!error}
            helperText={error ?? ' '}
            slotProps={{ htmlInput: { maxLength: BOT_LIMITS.name } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={pending}>
            {t('bots.create.cancel')}
          </Button>
          <Button type="submit" variant="contained" disableElevation disabled={pending}>
            {t('bots.create.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** /bots: the company's bots (spec §2), a react-admin list over the bot service's GET /api/bots/. */
export default function BotsPage() {
  const { t } = useTranslation();
  const { canManage } = useAccess('flows');
  const bots = useBots();
  const channels = useCompanyChannels();
  const [creating, setCreating] = useState(false);
  const phone = useIsPhone();
  const channelMap = new Map((channels.data ?? []).map((c) => [c.id, c]));
  const listContext = useList<BotSummary>({
    data: bots.data?.results ?? [],
    isPending: bots.isPending,
    perPage: 25,
    sort: { field: 'updated_at', order: 'DESC' },
    resource: 'bots',
  });

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} justifyContent="space-between" alignItems={{ sm: 'center' }} spacing={2} sx={{ mb: 2 }}>
        <Box>
          <Typography variant="h4" component="h1" fontWeight={700}>
            {t('bots.title')}
          </Typography>
          <Typography color="text.secondary">
            {t('bots.subtitle')}
          </Typography>
        </Box>
        {canManage && (
          <Button variant="contained" disableElevation startIcon={<MdiIcon path={mdiPlus} />} onClick={() => setCreating(true)}>
            {t('bots.create.action')}
          </Button>
        )}
      </Stack>
      {bots.isPending ? (
        <Stack direction="row" spacing={1} alignItems="center" role="status" sx={{ py: 4, justifyContent: 'center' }}>
          <CircularProgress size={20} aria-hidden />
          <Typography variant="body2">{t('bots.loading')}</Typography>
        </Stack>
      ) : bots.error instanceof NoBotAccessError ? (
        <Alert severity="info">{t('bots.noAccess')}</Alert>
      ) : bots.error ? (
        <Alert severity="error">{t('bots.fetchError', { error: botErrorText(bots.error) })}</Alert>
      ) : (
        <ResourceContextProvider value="bots">
        <ListContextProvider value={listContext}>
          <DataTable<BotSummary>
            resource="bots"
            rowClick={(id) => canvasPath(id)}
            bulkActionButtons={false}
            empty={<EmptyView />}
            sx={{ '& .RaDataTable-rowCell': { verticalAlign: 'middle' } }}
          >
            {phone ? (
              // A phone: the bot in one stacked cell, nothing scrolled sideways.
              <DataTable.Col source="name" label="bots.fields.name">
                <PhoneBotCell channels={channelMap} />
              </DataTable.Col>
            ) : (
              [
                <DataTable.Col key="name" source="name" label="bots.fields.name">
                  <NameCell />
                </DataTable.Col>,
                <DataTable.Col key="channels" source="channels" label="bots.fields.channels" disableSort>
                  <ChannelsCell channels={channelMap} />
                </DataTable.Col>,
                <DataTable.NumberCol key="steps" source="steps_count" label="bots.fields.steps" />,
                <DataTable.NumberCol key="conversations" source="conversations_handled" label="bots.fields.conversations" />,
                <DataTable.Col key="updated" source="updated_at" label="bots.fields.updated_at">
                  <DateCell />
                </DataTable.Col>,
              ]
            )}
            <DataTable.Col label="" disableSort align="right">
              <ActionsCell canManage={canManage} />
            </DataTable.Col>
          </DataTable>
          {(bots.data?.results.length ?? 0) > 0 && <ConsolePagination />}
        </ListContextProvider>
        </ResourceContextProvider>
      )}
      <CreateBotDialog open={creating} onClose={() => setCreating(false)} />
    </Box>
  );
}

function NameCell() {
  const bot = useRecordContext<BotSummary>();
  if (!bot) return null;
  return (
    <Typography variant="body2" fontWeight={600}>
      {bot.name}
    </Typography>
  );
}
