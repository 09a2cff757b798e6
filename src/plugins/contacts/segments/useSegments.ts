/** The company's segments (GET /api/segments/), for the Segments tab and the contacts list's segment filter. */
import { useQuery } from '@tanstack/react-query';
import type { Segment } from '../../../../contract/segments';
import { httpApiRef, useAccount, useApi } from '../../../core';

export function useSegments() {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  return useQuery({
    queryKey: ['contacts', 'segments', companyId],
    queryFn: async ({ signal }) => (await http.get<{ results?: Segment[] } | null>('/api/segments/', { signal }))?.results ?? [],
    enabled: companyId != null,
    retry: false,
  });
}
