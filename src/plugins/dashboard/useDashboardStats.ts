import { useDeferredValue } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { DashboardStats } from '../../../contract/stats';
import { httpApiRef, useAccount, useApi, type HttpProvider } from '../../core';
import { useBrowserTimeZone } from '../../core/stats/format';

export interface DashboardStatsState {
  /** The figures, once they are here. */
  data: DashboardStats | undefined;
  isError: boolean;
  /** No figures and no error yet. */
  isPending: boolean;
}

/**
 * GET /api/stats/dashboard/ for the selected company, shared by the dashboard's cards (one request:
 * the same query key). `enabled` is false when no stats plugin serves the figures.
 *
 * The figures reach the cards through `useDeferredValue`: react-query answers through `useSyncExternalStore`, whose
 * updates React renders synchronously, in one piece, and the cards' first render with the figures was 65-99 ms of one
 * task of a phone's /dashboard load (bench/bundle README). The synchronous render now keeps what was shown, and the
 * figures are rendered in a deferred render, which yields.
 */
export function useDashboardStats(enabled = true): DashboardStatsState {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  const tz = useBrowserTimeZone();
  const query = useQuery({
    queryKey: ['dashboard', 'today', companyId, tz],
    queryFn: ({ signal }) => fetchDashboardStats(http, tz, signal),
    retry: false,
    refetchInterval: 60_000,
    enabled: enabled && companyId != null,
  });
  const data = useDeferredValue(query.data);
  return { data, isError: query.isError, isPending: data === undefined && !query.isError };
}

function fetchDashboardStats(http: HttpProvider, tz: string, signal?: AbortSignal) {
  return http.get<DashboardStats>('/api/stats/dashboard/', { query: { tz }, signal });
}
