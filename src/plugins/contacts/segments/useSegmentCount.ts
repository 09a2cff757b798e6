/** The live count of the conditions being edited: asked once they rest for COUNT_DEBOUNCE_MS (POST /api/segments/count/). */
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { SegmentConditions, SegmentCount } from '../../../../contract/segments';
import { errorBody, httpApiRef, useAccount, useApi } from '../../../core';

export const COUNT_DEBOUNCE_MS = 400;

export function useSegmentCount(conditions: SegmentConditions): { count: number | null; loading: boolean; errors: Record<string, string[]> } {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  const json = JSON.stringify(conditions);
  const [settled, setSettled] = useState(json);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(json), COUNT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [json]);
  const query = useQuery({
    queryKey: ['contacts', 'segmentCount', companyId, settled],
    queryFn: async ({ signal }) => (await http.post<SegmentCount>('/api/segments/count/', { conditions: JSON.parse(settled) as SegmentConditions }, { signal }))?.count ?? 0,
    enabled: companyId != null,
    retry: false,
  });
  const body = query.error ? errorBody(query.error) : null;
  const errors = body && typeof body === 'object' && !('detail' in body) ? (body as Record<string, string[]>) : {};
  return { count: query.isSuccess ? query.data : null, loading: query.isFetching || settled !== json, errors };
}
