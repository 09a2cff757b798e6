import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Box, CircularProgress, LinearProgress, Stack, Typography } from '@mui/material';
import { ListPaginationContext, type ListPaginationContextValue } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { ConsolePagination, EmptyView, errorText } from '../../../core';
import { useChannels } from '../api';
import { ChannelCard } from './ChannelCard';

export const DEFAULT_PER_PAGE = 25;

/**
 * The selected company's channels, one page at a time (GET /api/channels/, spec §9 page sizes
 * through the core's ConsolePagination), with the empty-data view when there are none.
 * `banner` receives the company's "connected" flag from the same answer. Keyed by company by
 * the page, so a switch starts again from the first page.
 */
export function ChannelsList({ canManage, banner }: { canManage: boolean; banner?: (companyConnected: boolean) => ReactNode }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(DEFAULT_PER_PAGE);
  const { data, isPending, isFetching, error } = useChannels(page, perPage);
  const channels = data?.results ?? [];
  const total = data?.count ?? 0;

  // After a disconnect the last page may be empty: step back to the previous one.
  useEffect(() => {
    if (!isFetching && data && channels.length === 0 && page > 1) setPage((p) => Math.max(1, Math.min(p - 1, Math.ceil(total / perPage))));
  }, [isFetching, data, channels.length, page, total, perPage]);

  const pagination = useMemo(
    () =>
      ({
        isLoading: isPending,
        isPending,
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
        resource: 'channels',
      }) as ListPaginationContextValue,
    [isPending, page, perPage, total],
  );

  if (isPending) {
    return (
      <Stack alignItems="center" spacing={1.5} sx={{ py: 6 }}>
        <CircularProgress aria-label={t('channels.loading')} />
        <Typography color="text.secondary">{t('channels.loading')}</Typography>
      </Stack>
    );
  }
  if (error && !data) return <EmptyView title={errorText(error)} message="" />;

  return (
    <Box>
      {data && banner?.(data.company_connected)}
      <Box sx={{ height: 4, mb: 1 }}>{isFetching && <LinearProgress aria-label={t('channels.loading')} />}</Box>
      {channels.length === 0 ? (
        <EmptyView />
      ) : (
        <Stack component="ul" spacing={1.5} sx={{ p: 0, m: 0 }} aria-label={t('channels.title')}>
          {channels.map((channel) => (
            <ChannelCard key={channel.id} channel={channel} canManage={canManage} />
          ))}
        </Stack>
      )}
      <ListPaginationContext.Provider value={pagination}>
        <ConsolePagination />
      </ListPaginationContext.Provider>
    </Box>
  );
}
