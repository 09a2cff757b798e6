import { useQuery } from '@tanstack/react-query';
import { httpApiRef, useAccount, useApi } from '../../core';
import { browserTimeZone, fetchDashboardStats } from '../stats/model';

/**
 * GET /api/stats/dashboard/ for the selected company, shared by the dashboard's cards (one request:
 * the same query key). `enabled` is false when no stats plugin serves the figures.
 */
export function useDashboardStats(enabled = true) {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  const tz = browserTimeZone();
  return useQuery({
    queryKey: ['dashboard', 'today', companyId, tz],
    queryFn: ({ signal }) => fetchDashboardStats(http, tz, signal),
    retry: false,
    refetchInterval: 60_000,
    enabled: enabled && companyId != null,
  });
}
