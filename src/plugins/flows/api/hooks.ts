import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useAccount, useApi } from '../../../core';
import type { Flow } from '../../../../contract/flows';
import { flowServiceApiRef } from './flowService';

export const FLOWS_QUERY_KEY = ['flows'] as const;

/** GET /api/flows/ on the bot service, per company: a company switch makes a new query (reset + loading, spec §2/§4). */
export function useFlows() {
  const service = useApi(flowServiceApiRef);
  const { companyId } = useAccount();
  return useQuery({ queryKey: [...FLOWS_QUERY_KEY, 'list', companyId], queryFn: () => service.listFlows(), retry: false, refetchOnMount: 'always' });
}

/** The flow named in the editor's path: by flow_name (the list), else a numeric id. */
export function findFlow(list: readonly Flow[], ref: string): Flow | undefined {
  return list.find((f) => f.flow_name === ref) ?? (/^\d+$/.test(ref) ? list.find((f) => f.id === Number(ref)) : undefined);
}

/** The flow of /flows/edit/{flowName} with its steps (GET /api/flows/{id}/ once found in the list). */
export function useFlowByName(flowName: string) {
  const service = useApi(flowServiceApiRef);
  const { companyId } = useAccount();
  return useQuery({
    queryKey: [...FLOWS_QUERY_KEY, 'byName', companyId, flowName],
    queryFn: async () => {
      const found = findFlow(await service.listFlows(), flowName);
      return found ? service.getFlow(found.id) : null;
    },
    retry: false,
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
  });
}

/** GET /api/flows/{id}/stats/: per step, customers who reached it and left there. */
export function useFlowStats(id: number | undefined) {
  const service = useApi(flowServiceApiRef);
  const { companyId } = useAccount();
  return useQuery({ queryKey: [...FLOWS_QUERY_KEY, 'stats', companyId, id], queryFn: () => service.stats(id!), enabled: id !== undefined, retry: false });
}

/** GET /api/flows/{id}/versions/ (newest first). */
export function useFlowVersions(id: number | undefined, enabled: boolean) {
  const service = useApi(flowServiceApiRef);
  const { companyId } = useAccount();
  return useQuery({ queryKey: [...FLOWS_QUERY_KEY, 'versions', companyId, id], queryFn: () => service.versions(id!), enabled: enabled && id !== undefined, retry: false, refetchOnMount: 'always' });
}

export function useRefreshFlows(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: FLOWS_QUERY_KEY }), [queryClient]);
}
