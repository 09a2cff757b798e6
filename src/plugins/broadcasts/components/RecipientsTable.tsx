import { useEffect, useMemo, useState } from 'react';
import {
  Box,
  Chip,
  FormControl,
  InputLabel,
  LinearProgress,
  MenuItem,
  Select,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ListPaginationContext, type ListPaginationContextValue } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { RECIPIENT_STATES, type BroadcastRecipient, type RecipientState } from '../../../../contract/broadcasts';
import { ConsolePagination, EmptyView, errorText, formatDate, httpApiRef, useAccount, useApi, useIsPhone } from '../../../core';
import { fetchRecipients } from '../api';
import { describeFailure } from '../model/failures';

const STATE_COLORS: Partial<Record<RecipientState, 'default' | 'info' | 'success' | 'error' | 'warning' | 'secondary'>> = {
  sent: 'info',
  delivered: 'info',
  read: 'success',
  replied: 'success',
  failed: 'error',
  unknown: 'warning',
  excluded: 'default',
};

/** What a recipient's row says about its failure or exclusion, in plain words (en/fr). */
export function recipientProblem(r: BroadcastRecipient, t: (key: string, options?: Record<string, unknown>) => string): string | null {
  if (r.state === 'excluded') return describeFailure({ reason: r.exclusion_reason }, t);
  if (r.state === 'unknown') return describeFailure({ reason: 'unknown' }, t);
  if (r.state === 'failed' || r.error_code !== null) return describeFailure({ code: r.error_code, title: r.error_detail ?? r.error_title }, t);
  return null;
}

/** A broadcast's recipients, paged, filtered by status, each with the message it was sent; failures explained. `version` reloads it (live counters moved). */
export function RecipientsTable({ broadcastId, version }: { broadcastId: number; version: number }) {
  const { t, i18n } = useTranslation();
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  const [status, setStatus] = useState<RecipientState | ''>('');
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(25);
  const query = useQuery({
    queryKey: ['broadcasts', 'recipients', companyId, broadcastId, status, page, perPage],
    queryFn: ({ signal }) => fetchRecipients(http, broadcastId, { page, perPage, status }, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const { refetch } = query;
  useEffect(() => {
    if (version > 0) void refetch();
  }, [version, refetch]);

  const total = query.data?.count ?? 0;
  const pagination = useMemo(
    () =>
      ({
        isLoading: query.isPending,
        isPending: query.isPending,
        page,
        perPage,
        total,
        hasPreviousPage: page > 1,
        hasNextPage: page * perPage < total,
        setPage,
        setPerPage: (size: number) => {
          setPerPage(Number(size));
          setPage(1);
        },
        resource: 'broadcast-recipients',
      }) as ListPaginationContextValue,
    [query.isPending, page, perPage, total],
  );
  const time = (iso: string | null) => (iso ? formatDate(iso, i18n.language, { dateStyle: 'short', timeStyle: 'medium' }) : '');
  const phone = useIsPhone();
  const rows = query.data?.results ?? [];

  return (
    <Stack spacing={1.5}>
      <Stack direction="row" spacing={2} alignItems="center" justifyContent="space-between">
        <Typography variant="h6" component="h2">
          {t('broadcasts.detail.recipients')}
        </Typography>
        {/* Shrinks beside the heading on a phone instead of running past the card's edge. */}
        <FormControl size="small" sx={{ width: 220, maxWidth: '55%', flex: '0 1 auto' }}>
          <InputLabel id="recipient-status-filter" shrink>
            {t('broadcasts.detail.filterStatus')}
          </InputLabel>
          <Select
            labelId="recipient-status-filter"
            label={t('broadcasts.detail.filterStatus')}
            notched
            displayEmpty
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as RecipientState | '');
              setPage(1);
            }}
          >
            <MenuItem value="">{t('broadcasts.detail.allStatuses')}</MenuItem>
            {RECIPIENT_STATES.map((s) => (
              <MenuItem key={s} value={s}>
                {t(`broadcasts.recipientState.${s}`)}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Stack>
      <Box sx={{ height: 4 }}>{query.isFetching && <LinearProgress aria-label={t('broadcasts.common.loading')} />}</Box>
      {query.isError && !query.data ? (
        <EmptyView title={errorText(query.error)} message="" />
      ) : !query.isPending && rows.length === 0 ? (
        <EmptyView />
      ) : (
        <TableContainer>
          <Table size="small" aria-label={t('broadcasts.detail.recipients')}>
            <TableHead>
              {phone ? (
                <TableRow>
                  <TableCell>{t('broadcasts.detail.columns.name')}</TableCell>
                </TableRow>
              ) : (
                <TableRow>
                  <TableCell>{t('broadcasts.detail.columns.phone')}</TableCell>
                  <TableCell>{t('broadcasts.detail.columns.name')}</TableCell>
                  <TableCell>{t('broadcasts.detail.columns.message')}</TableCell>
                  <TableCell>{t('broadcasts.detail.columns.status')}</TableCell>
                  <TableCell>{t('broadcasts.detail.columns.detail')}</TableCell>
                  <TableCell>{t('broadcasts.detail.columns.updated')}</TableCell>
                </TableRow>
              )}
            </TableHead>
            <TableBody>
              {rows.map((r) => {
                const problem = recipientProblem(r, t);
                const last = r.replied_at ?? r.read_at ?? r.delivered_at ?? r.sent_at ?? r.failed_at ?? r.queued_at;
                const state = <Chip size="small" label={t(`broadcasts.recipientState.${r.state}`)} color={STATE_COLORS[r.state] ?? 'default'} />;
                const detail = (
                  <>
                    {problem && (
                      <Typography variant="body2" color={r.state === 'failed' ? 'error' : 'text.secondary'}>
                        {problem}
                      </Typography>
                    )}
                    {r.attempts > 1 && (
                      <Typography variant="caption" color="text.secondary">
                        {t('broadcasts.detail.attempts', { count: r.attempts })}
                      </Typography>
                    )}
                  </>
                );
                if (phone) {
                  // A phone: the recipient in one stacked cell, nothing scrolled sideways.
                  return (
                    <TableRow key={r.id} data-testid="recipient-row">
                      <TableCell>
                        <Stack spacing={0.75} sx={{ alignItems: 'flex-start', minWidth: 0 }}>
                          <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" alignItems="center">
                            <Typography variant="body2" fontWeight={600}>
                              {r.name}
                            </Typography>
                            <Typography variant="caption" sx={{ fontFamily: 'monospace' }}>
                              {r.phone}
                            </Typography>
                          </Stack>
                          <Stack direction="row" spacing={1} alignItems="center">
                            {state}
                            <Typography variant="caption" color="text.secondary">
                              {time(last)}
                            </Typography>
                          </Stack>
                          <Typography variant="body2" data-testid="recipient-message" sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                            {r.message}
                          </Typography>
                          {detail}
                        </Stack>
                      </TableCell>
                    </TableRow>
                  );
                }
                return (
                  <TableRow key={r.id} data-testid="recipient-row">
                    <TableCell sx={{ fontFamily: 'monospace' }}>{r.phone}</TableCell>
                    <TableCell>{r.name}</TableCell>
                    {/* Who received what: the text header and the body with this recipient's values, on their lines. */}
                    <TableCell data-testid="recipient-message" sx={{ maxWidth: 360, whiteSpace: 'pre-line' }}>
                      {r.message}
                    </TableCell>
                    <TableCell>{state}</TableCell>
                    <TableCell sx={{ maxWidth: 420 }}>{detail}</TableCell>
                    <TableCell>{time(last)}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <ListPaginationContext.Provider value={pagination}>
        <ConsolePagination />
      </ListPaginationContext.Provider>
    </Stack>
  );
}
