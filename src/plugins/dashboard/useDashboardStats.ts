import { useQuery } from '@tanstack/react-query';
import type { DashboardStats } from '../../../contract/stats';
import { httpApiRef, useAccount, useApi, type HttpProvider } from '../../core';
import { useBrowserTimeZone } from '../../core/stats/format';

/**
 * GET /api/stats/dashboard/ for the selected company, shared by the dashboard's cards (one request:
 * the same query key). `enabled` is false when no stats plugin serves the figures.
 */
export function useDashboardStats(enabled = true) {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  const tz = useBrowserTimeZone();
  return useQuery({
    queryKey: ['dashboard', 'today', companyId, tz],
    queryFn: ({ signal }) => fetchDashboardStats(http, tz, signal),
    retry: false,
    refetchInterval: 60_000,
    enabled: enabled && companyId != null,
  });
}

function fetchDashboardStats(http: HttpProvider, tz: string, signal?: AbortSignal) {
  return http.get<DashboardStats>('/api/stats/dashboard/', { query: { tz }, signal });
}
