import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Box, Button, CircularProgress, IconButton, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { mdiContentCopy, mdiDeleteOutline, mdiPlus, mdiSync } from '@mdi/js';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DataProviderContext,
  DataTable,
  List,
  SearchInput,
  SelectInput,
  TextInput,
  useDataProvider,
  useListContext,
  useRecordContext,
  useRefresh,
} from 'react-admin';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, ConsolePagination, ConsoleTooltip, EmptyView, formatDate, InlineFacts, MdiIcon, useAccess, useAccount, useAlert, useApi, useIsPhone } from '../../../core';
import type { Channel } from '../../../../contract/channels';
import { TEMPLATE_CATEGORIES, TEMPLATE_STATUSES, type TemplateLimitsUsage, type WhatsAppTemplate } from '../../../../contract/templates';
import { hasTemplateApi, templatesApiRef } from '../api';
import { applyTemplateEvent, canCreateWithin, detailPath, duplicatePath, limitWarnings } from './model';
import { templatesDataProvider } from './templatesDataProvider';
import { QualityChip, StatusChip } from './TemplateChips';
import { useTemplateEvents } from './useTemplateEvents';

/** The company's channels, for the channel picker (every platform, so Messenger and Instagram can say they have no templates). */
export function useTemplateChannels() {
  const api = useApi(templatesApiRef);
  const { companyId } = useAccount();
  return useQuery({ queryKey: ['templates', 'channels', companyId], queryFn: ({ signal }) => api.channels(signal), retry: false });
}

/** The channel shown: `?channel=` when it is one of the company's, else the first WhatsApp number, else the first channel. */
export function chosenChannel(channels: Channel[], requested: string | null): Channel | null {
  const byId = channels.find((c) => String(c.id) === requested);
  return byId ?? channels.find(hasTemplateApi) ?? channels[0] ?? null;
}

export function channelLabel(channel: Pick<Channel, 'name' | 'display_phone_number'>): string {
  return channel.display_phone_number && channel.display_phone_number !== channel.name ? `${channel.name} (${channel.display_phone_number})` : channel.name;
}

/**
 * /templates: a channel's WhatsApp templates (our synced copy, refreshed from Meta when opened),
 * filtered by status, category and language, searchable, paged; statuses update live; Meta's
 * limits shown before they are hit; delete with confirmation and "duplicate as new".
 */
export default function TemplatesPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const channels = useTemplateChannels();
  const list = channels.data ?? [];
  const channel = chosenChannel(list, search.get('channel'));
  const { canManage } = useAccess('whatsapp_templates');

  const choose = (id: string) => {
    const next = new URLSearchParams(search);
    next.set('channel', id);
    setSearch(next, { replace: true });
  };

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} justifyContent="space-between" alignItems={{ md: 'flex-start' }} sx={{ mb: 2 }}>
        <Box>
          <Typography variant="h4" component="h1" fontWeight={700}>
            {t('templates.title')}
          </Typography>
          <Typography color="text.secondary">{t('templates.subtitle')}</Typography>
          {!canManage && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="templates-read-only">
              {t('templates.readOnly')}
            </Typography>
          )}
        </Box>
        {canManage && channel && hasTemplateApi(channel) && (
          <Button
            component={RouterLink}
            to={`/templates/template-setup?channel=${channel.id}`}
            variant="contained"
            disableElevation
            startIcon={<MdiIcon path={mdiPlus} />}
            sx={{ flexShrink: 0, fontWeight: 600 }}
          >
            {t('templates.create')}
          </Button>
        )}
      </Stack>
      {channels.isPending && (
        <Box sx={{ py: 6, textAlign: 'center' }}>
          <CircularProgress aria-label={t('templates.title')} />
        </Box>
      )}
      {channels.isError && (
        <Alert severity="error" action={<Button color="inherit" onClick={() => channels.refetch()}>{t('templates.retry')}</Button>}>
          {t('templates.loadError')}
        </Alert>
      )}
      {channels.isSuccess && !channel && (
        <Box>
          <EmptyView />
          <Stack alignItems="center" spacing={1}>
            <Typography color="text.secondary">{t('templates.noChannels')}</Typography>
            <Button component={RouterLink} to="/channels" variant="outlined">
              {t('templates.connectChannel')}
            </Button>
          </Stack>
        </Box>
      )}
      {channel && (
        <>
          <TextField
            select
            size="small"
            label={t('templates.channel')}
            value={String(channel.id)}
            onChange={(e) => choose(e.target.value)}
            fullWidth={false}
            sx={{ minWidth: 280, maxWidth: 520, mb: 2 }}
            slotProps={{ select: { inputProps: { 'data-testid': 'template-channel' } } }}
          >
            {list.map((c) => (
              <MenuItem key={c.id} value={String(c.id)}>
                {channelLabel(c)} · {t(`templates.platform.${c.platform}`, { defaultValue: c.platform })}
              </MenuItem>
            ))}
          </TextField>
          {hasTemplateApi(channel) ? (
            <ChannelTemplates key={channel.id} channel={channel} canManage={canManage} />
          ) : (
            <Alert severity="info" data-testid="templates-not-supported">
              {t('templates.notSupportedPlatform', { platform: t(`templates.platform.${channel.platform}`, { defaultValue: channel.platform }) })}
            </Alert>
          )}
        </>
      )}
    </Box>
  );
}

/** One WhatsApp channel's templates: a react-admin List whose data provider reads the channel's path. */
function ChannelTemplates({ channel, canManage }: { channel: Channel; canManage: boolean }) {
  const { t } = useTranslation();
  const api = useApi(templatesApiRef);
  const base = useDataProvider();
  const provider = useMemo(() => templatesDataProvider(api, base), [api, base]);
  const queryClient = useQueryClient();
  const alert = useAlert();
  const [syncing, setSyncing] = useState(false);
  const phone = useIsPhone();

  // A status or quality change patches the rows on screen (no reload); one not on screen refreshes the list.
  const onChange = useCallback(
    (template: WhatsAppTemplate) => {
      let found = false;
      queryClient.setQueriesData<{ data: WhatsAppTemplate[]; total?: number }>({ queryKey: ['templates', 'getList'] }, (old) => {
        if (!old?.data) return old;
        const data = applyTemplateEvent(old.data, template);
        if (data === old.data) return old;
        found = true;
        return { ...old, data, total: old.total !== undefined && data.length < old.data.length ? old.total - 1 : old.total };
      });
      // A read of the list already under way (the one after a join, say) may have been answered before this change:
      // its answer would overwrite the patch with the old status, for good (an end-to-end run saw "Approved" go back
      // to "Pending"). So it is cancelled and the list read again, after the change.
      const reading = queryClient.isFetching({ queryKey: ['templates', 'getList'] }) > 0;
      if ((!found && template.status !== 'DELETED') || reading) void queryClient.invalidateQueries({ queryKey: ['templates', 'getList'] });
    },
    [queryClient],
  );
  const joins = useTemplateEvents(channel.id, onChange);
  // After each join of the live topic the list is read again (see useTemplateEvents): a list not read yet (its access
  // check still under way) reads after the join anyway; one on screen is invalidated and read again.
  useEffect(() => {
    if (joins > 0) void queryClient.invalidateQueries({ queryKey: ['templates', 'getList'] });
  }, [joins, queryClient]);

  const sync = async () => {
    setSyncing(true);
    try {
      await api.refresh(channel.id);
      await queryClient.invalidateQueries({ queryKey: ['templates', 'getList'] });
      alert.success(t('templates.refreshed'));
    } catch {
      alert.error(t('templates.refreshError'));
    } finally {
      setSyncing(false);
    }
  };

  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={t('templates.search')} />,
    <SelectInput
      key="status"
      source="status"
      alwaysOn
      label={t('templates.filters.status')}
      emptyText={t('templates.filters.any')}
      choices={TEMPLATE_STATUSES.map((s) => ({ id: s, name: t(`templates.status.${s}`) }))}
    />,
    <SelectInput
      key="category"
      source="category"
      alwaysOn
      label={t('templates.filters.category')}
      emptyText={t('templates.filters.any')}
      choices={TEMPLATE_CATEGORIES.map((c) => ({ id: c, name: t(`templates.category.${c}`) }))}
    />,
    <TextInput key="language" source="language" alwaysOn label={t('templates.filters.language')} placeholder="en_US" resettable={false} />,
  ];

  return (
    <DataProviderContext.Provider value={provider}>
      <List<WhatsAppTemplate>
        resource="templates"
        title={false}
        filter={{ channel: channel.id }}
        filters={filters}
        disableSyncWithLocation
        storeKey={false}
        perPage={25}
        pagination={<ConsolePagination />}
        empty={<EmptyView />}
        exporter={false}
        actions={
          <Button size="small" onClick={sync} disabled={syncing} startIcon={syncing ? <CircularProgress size={16} aria-hidden /> : <MdiIcon path={mdiSync} />} sx={{ whiteSpace: 'nowrap' }}>
            {t('templates.refresh')}
          </Button>
        }
        sx={{ '& .RaList-main': { boxShadow: 'none' } }}
        aside={undefined}
      >
        <LimitsBanner />
        <DataTable<WhatsAppTemplate> rowClick={false} bulkActionButtons={false} empty={<EmptyView />}>
          {phone ? (
            // A phone: the template in one stacked cell (the channel is the one chosen above), nothing scrolled sideways.
            <DataTable.Col source="name" label={t('templates.fields.name')} disableSort>
              <PhoneTemplateCell />
            </DataTable.Col>
          ) : (
            [
              <DataTable.Col key="name" source="name" label={t('templates.fields.name')} disableSort>
                <NameCell />
              </DataTable.Col>,
              <DataTable.Col key="category" source="category" label={t('templates.fields.category')} disableSort render={(r: WhatsAppTemplate) => t(`templates.category.${r.category}`, { defaultValue: r.category })} />,
              <DataTable.Col key="language" source="language" label={t('templates.fields.language')} disableSort />,
              <DataTable.Col key="status" source="status" label={t('templates.fields.status')} disableSort render={(r: WhatsAppTemplate) => <StatusChip template={r} />} />,
              <DataTable.Col key="quality" source="quality_score" label={t('templates.fields.quality')} disableSort render={(r: WhatsAppTemplate) => <QualityChip score={r.quality_score} />} />,
              <DataTable.Col key="channel" source="channel_id" label={t('templates.fields.channel')} disableSort render={() => channelLabel(channel)} />,
              <DataTable.Col key="updated" source="updated_at" label={t('templates.fields.updated')} disableSort render={(r: WhatsAppTemplate) => <UpdatedAt value={r.updated_at} />} />,
            ]
          )}
          {/* Duplicate and delete only: a member who may not manage templates has no column of empty cells. */}
          {canManage && (
            <DataTable.Col label={t('templates.fields.actions')} disableSort align="right">
              <ActionsCell canManage={canManage} />
            </DataTable.Col>
          )}
        </DataTable>
      </List>
    </DataProviderContext.Provider>
  );
}

function UpdatedAt({ value }: { value: string }) {
  const { i18n } = useTranslation();
  const date = new Date(value);
  return <time dateTime={value}>{formatDate(date, i18n.language, { dateStyle: 'medium', timeStyle: 'short' })}</time>;
}

function NameCell() {
  const { t } = useTranslation();
  const record = useRecordContext<WhatsAppTemplate>();
  if (!record) return null;
  return (
    <Typography
      component={RouterLink}
      to={detailPath(record)}
      variant="body2"
      fontWeight={600}
      aria-label={t('templates.actions.view', { name: record.name })}
      sx={{ fontFamily: 'monospace', color: 'text.primary', textDecorationColor: 'inherit' }}
      data-testid="template-name"
    >
      {record.name}
    </Typography>
  );
}

/** A template on a phone: its name, status and quality, then category, language and last change in one line. */
function PhoneTemplateCell() {
  const { t } = useTranslation();
  const record = useRecordContext<WhatsAppTemplate>();
  if (!record) return null;
  return (
    <Stack spacing={0.75} sx={{ minWidth: 0, alignItems: 'flex-start' }}>
      <NameCell />
      <Stack direction="row" spacing={0.75} useFlexGap flexWrap="wrap">
        <StatusChip template={record} />
        <QualityChip score={record.quality_score} />
      </Stack>
      <InlineFacts
        facts={[
          { label: t('templates.fields.category'), value: t(`templates.category.${record.category}`, { defaultValue: record.category }) },
          { label: t('templates.fields.language'), value: record.language },
          { label: t('templates.fields.updated'), value: <UpdatedAt value={record.updated_at} /> },
        ]}
      />
    </Stack>
  );
}

/** Meta's limits for the account, and a warning before one is hit. */
function LimitsBanner() {
  const { t } = useTranslation();
  const { meta } = useListContext();
  const limits = (meta as { limits?: TemplateLimitsUsage | null } | undefined)?.limits;
  if (!limits) return null;
  const warnings = limitWarnings(limits);
  return (
    <Box sx={{ px: 2, pb: 1 }} data-testid="template-limits">
      <Typography variant="caption" color="text.secondary" component="p">
        {t('templates.limits.creations', { used: limits.creations_last_hour, max: limits.creations_per_hour })}
        {' · '}
        {limits.templates_max === null ? t('templates.limits.unlimited', { used: limits.templates }) : t('templates.limits.templates', { used: limits.templates, max: limits.templates_max })}
      </Typography>
      {warnings.map((w) => (
        <Alert key={w.kind} severity={w.kind.endsWith('Reached') ? 'error' : 'warning'} sx={{ mt: 1 }}>
          {t(`templates.limits.${w.kind}`, w)}
        </Alert>
      ))}
    </Box>
  );
}

function ActionsCell({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const record = useRecordContext<WhatsAppTemplate>();
  const navigate = useNavigate();
  const { meta } = useListContext();
  const limits = (meta as { limits?: TemplateLimitsUsage | null } | undefined)?.limits;
  if (!record || !canManage) return null;
  return (
    <Stack direction="row" spacing={0.5} justifyContent="flex-end">
      <ConsoleTooltip title={t('templates.actions.duplicate', { name: record.name })}>
        <span>
          <IconButton
            size="small"
            aria-label={t('templates.actions.duplicate', { name: record.name })}
            disabled={!canCreateWithin(limits)}
            onClick={() => navigate(duplicatePath(record))}
          >
            <MdiIcon path={mdiContentCopy} fontSize="small" />
          </IconButton>
        </span>
      </ConsoleTooltip>
      <DeleteTemplateButton template={record} />
    </Stack>
  );
}

/** Delete with confirmation (spec §8 strings); the list refreshes after. */
export function DeleteTemplateButton({ template, onDeleted, variant = 'icon' }: { template: WhatsAppTemplate; onDeleted?: () => void; variant?: 'icon' | 'button' }) {
  const { t } = useTranslation();
  const api = useApi(templatesApiRef);
  const alert = useAlert();
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);

  const confirm = async () => {
    setPending(true);
    try {
      await api.remove(template.channel_id, template.id);
      alert.success(t('templates.delete.success'));
      setOpen(false);
      await queryClient.invalidateQueries({ queryKey: ['templates'] });
      refresh();
      onDeleted?.();
    } catch {
      alert.error(t('templates.delete.error'));
    } finally {
      setPending(false);
    }
  };

  const label = t('templates.actions.delete', { name: template.name });
  return (
    <>
      {variant === 'icon' ? (
        <ConsoleTooltip title={label}>
          <IconButton size="small" color="error" aria-label={label} onClick={() => setOpen(true)}>
            <MdiIcon path={mdiDeleteOutline} fontSize="small" />
          </IconButton>
        </ConsoleTooltip>
      ) : (
        <Button color="error" variant="contained" disableElevation startIcon={<MdiIcon path={mdiDeleteOutline} />} onClick={() => setOpen(true)}>
          {t('templates.detail.delete')}
        </Button>
      )}
      <ConfirmDialog
        open={open}
        title={t('templates.delete.title')}
        message={t('templates.delete.message', { name: template.name, language: template.language })}
        confirmLabel={t('templates.delete.confirm')}
        cancelLabel={t('templates.delete.cancel')}
        pending={pending}
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
