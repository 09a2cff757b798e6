import { createContext, useContext, useEffect, useMemo, useState } from 'react';
import { Box, Link, Stack, Typography } from '@mui/material';
import { DataTable, List, useListContext, useRecordContext } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Broadcast } from '../../../../contract/broadcasts';
import type { Channel } from '../../../../contract/channels';
import type { WhatsAppTemplate } from '../../../../contract/templates';
import { ConsolePagination, ConsoleTooltip, EmptyView, formatDate, httpApiRef, useAccount, useApi, useIsPhone } from '../../../core';
import { fetchApprovedTemplates, fetchChannels } from '../api';
import { useCanSend, useLiveBroadcasts, useOnResync, useWatchChannels } from '../hooks';
import { mergeLive } from '../model/status';
import { CounterLine, SendingProgress } from './LiveCounters';
import { DeleteBroadcastButton } from './DeleteBroadcastButton';
import { StatusChip } from './StatusChip';

/** Spec §9: the broadcasts' templates load 2 s after the broadcasts. */
export const TEMPLATES_DELAY_MS = 2000;

interface ListExtras {
  channels: Map<number, Channel>;
  /** channel id → its approved templates (null until loaded). */
  templates: Map<number, WhatsAppTemplate[]> | null;
}
const ExtrasContext = createContext<ListExtras>({ channels: new Map(), templates: null });

/**
 * The approved templates of the channels on screen, asked 2 s after the broadcasts arrived (spec
 * §9), to say which broadcast's template is no longer approved and show each one's category.
 */
function useDeferredTemplates(channelIds: number[], ready: boolean): Map<number, WhatsAppTemplate[]> | null {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  const key = channelIds.join(',');
  const [due, setDue] = useState(false);
  useEffect(() => {
    if (!ready || due) return;
    const timer = setTimeout(() => setDue(true), TEMPLATES_DELAY_MS);
    return () => clearTimeout(timer);
  }, [ready, due]);
  const query = useQuery({
    queryKey: ['broadcasts', 'list-templates', companyId, key],
    enabled: due && channelIds.length > 0,
    queryFn: async ({ signal }) => {
      const lists = await Promise.all(channelIds.map((id) => fetchApprovedTemplates(http, id, signal).catch(() => [] as WhatsAppTemplate[])));
      return new Map(channelIds.map((id, i) => [id, lists[i]]));
    },
    retry: false,
  });
  return query.data ?? null;
}

function NameCell() {
  const record = useRecordContext<Broadcast>();
  if (!record) return null;
  return (
    <Link component={RouterLink} to={`/broadcast/${record.id}`} fontWeight={600} underline="hover">
      {record.name}
    </Link>
  );
}


function TemplateCell() {
  const { t } = useTranslation();
  const record = useRecordContext<Broadcast>();
  const { templates, channels } = useContext(ExtrasContext);
  if (!record) return null;
  const channel = channels.get(record.page_id);
  const list = templates?.get(record.page_id);
  const template = list?.find((x) => x.name === record.template_name && (!record.template_language || x.language === record.template_language));
  return (
    <Stack spacing={0.25}>
      <Typography variant="body2" sx={{ fontFamily: 'monospace', overflowWrap: 'break-word' }}>
        {record.template_name}
      </Typography>
      <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }} data-testid="broadcast-channel">
        {t('broadcasts.list.from', { channel: channel ? channel.display_phone_number || channel.name : `#${record.page_id}` })}
      </Typography>
      {list && (
        <Typography variant="caption" color={template ? 'text.secondary' : 'warning.main'} data-testid="template-state">
          {template ? t(`broadcasts.templateCategory.${template.category}`, { defaultValue: template.category }) : t('broadcasts.list.templateGone')}
        </Typography>
      )}
    </Stack>
  );
}

function StatusCell() {
  const record = useRecordContext<Broadcast>();
  const { progress } = useLiveBroadcasts();
  if (!record) return null;
  const fields = mergeLive(record, progress[record.id]);
  return (
    <Stack spacing={0.75}>
      <StatusChip status={fields.status} reason={fields.status_reason} />
      {fields.status === 'sending' && <SendingProgress value={fields.progress} name={record.name} />}
    </Stack>
  );
}

function CountersCell() {
  const record = useRecordContext<Broadcast>();
  const { progress } = useLiveBroadcasts();
  if (!record) return null;
  const fields = mergeLive(record, progress[record.id]);
  return <CounterLine stats={fields.stats} recipients={fields.n_users} name={record.name} />;
}


function CreatedCell() {
  const { i18n } = useTranslation();
  const record = useRecordContext<Broadcast>();
  if (!record) return null;
  const created = new Date(record.created_at);
  const scheduled = record.scheduled_at ? new Date(record.scheduled_at) : null;
  const format = (d: Date) => formatDate(d, i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  return (
    <Stack spacing={0.25}>
      <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
        {format(created)}
      </Typography>
      {scheduled && record.status === 'scheduled' && (
        <ConsoleTooltip title={record.time_zone ?? ''}>
          <Typography variant="caption" color="text.secondary">
            <ScheduledFor date={format(scheduled)} />
          </Typography>
        </ConsoleTooltip>
      )}
    </Stack>
  );
}

function ScheduledFor({ date }: { date: string }) {
  const { t } = useTranslation();
  return <>{t('broadcasts.list.scheduledFor', { date })}</>;
}

function ActionsCell() {
  const canSend = useCanSend();
  const record = useRecordContext<Broadcast>();
  const { refetch } = useListContext();
  const { progress } = useLiveBroadcasts();
  if (!record || !canSend) return null;
  const status = mergeLive(record, progress[record.id]).status;
  return <DeleteBroadcastButton id={Number(record.id)} name={record.name} status={status} onDeleted={() => void refetch()} />;
}

/** The table inside the list: watches the rows' channels for live events and reloads after a reconnect. */
function BroadcastsTable() {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  const phone = useIsPhone();
  const { data, isPending, refetch } = useListContext<Broadcast>();
  const channelIds = useMemo(() => [...new Set((data ?? []).map((b) => b.page_id))].sort((a, b) => a - b), [data]);
  useWatchChannels(channelIds);
  useOnResync(() => void refetch());
  // A broadcast deleted elsewhere leaves the page.
  const { progress } = useLiveBroadcasts();
  const deletedShown = (data ?? []).some((b) => progress[b.id]?.deleted);
  useEffect(() => {
    if (deletedShown) void refetch();
  }, [deletedShown, refetch]);
  const channels = useQuery({
    queryKey: ['broadcasts', 'channels', companyId],
    queryFn: ({ signal }) => fetchChannels(http, signal),
    retry: false,
  });
  const templates = useDeferredTemplates(channelIds, !isPending);
  const extras = useMemo<ListExtras>(
    () => ({ channels: new Map((channels.data ?? []).map((c) => [c.id, c])), templates }),
    [channels.data, templates],
  );

  return (
    <ExtrasContext.Provider value={extras}>
      <Box sx={{ overflowX: 'auto', maxWidth: '100%' }}>
        <DataTable<Broadcast> rowClick={false} bulkActionButtons={false} empty={<EmptyView />} aria-label={t('broadcasts.title')}>
          {phone
            ? // A phone: each broadcast as one stacked cell and its status beside it, nothing scrolled sideways.
              [
                <DataTable.Col key="name" source="name" label="resources.broadcasts.fields.name">
                  <Stack spacing={1} sx={{ minWidth: 0 }}>
                    <NameCell />
                    <TemplateCell />
                    <CountersCell />
                    <CreatedCell />
                  </Stack>
                </DataTable.Col>,
                <DataTable.Col key="status" source="status" label="resources.broadcasts.fields.status" disableSort align="right" sx={{ pl: 0, verticalAlign: 'top' }}>
                  <Stack spacing={1} alignItems="flex-end">
                    <StatusCell />
                    <ActionsCell />
                  </Stack>
                </DataTable.Col>,
              ]
            : [
                <DataTable.Col key="name" source="name" label="resources.broadcasts.fields.name">
                  <NameCell />
                </DataTable.Col>,
                <DataTable.Col key="template" source="template_name" label="resources.broadcasts.fields.template_name" disableSort>
                  <TemplateCell />
                </DataTable.Col>,
                <DataTable.Col key="status" source="status" label="resources.broadcasts.fields.status" disableSort>
                  <StatusCell />
                </DataTable.Col>,
                <DataTable.Col key="stats" source="stats" label="resources.broadcasts.fields.stats" disableSort>
                  <CountersCell />
                </DataTable.Col>,
                <DataTable.Col key="created" source="created_at" label="resources.broadcasts.fields.created_at" disableSort>
                  <CreatedCell />
                </DataTable.Col>,
                <DataTable.Col key="actions" label="" disableSort align="right">
                  <ActionsCell />
                </DataTable.Col>,
              ]}
        </DataTable>
      </Box>
    </ExtrasContext.Provider>
  );
}

/** GET /api/broadcasts/ (results), paged with the spec's page sizes, newest first, the empty view when there are none. */
export function BroadcastsList() {
  return (
    <List<Broadcast>
      resource="broadcasts"
      title={false}
      perPage={25}
      pagination={<ConsolePagination />}
      empty={<EmptyView />}
      exporter={false}
      actions={false}
      disableSyncWithLocation
      sx={{ minWidth: 0, '& .RaList-main': { boxShadow: 'none', minWidth: 0 }, '& .RaList-content': { minWidth: 0 } }}
    >
      <BroadcastsTable />
    </List>
  );
}
