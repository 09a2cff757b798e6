import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ALL_PAGE_SIZE, httpApiRef, useAccount, useApi } from '../../../core';
import type { Channel, ChannelsListResponse } from '../../../../contract/channels';
import { botServiceApiRef } from './botService';

export const BOTS_QUERY_KEY = ['bots'] as const;

/** GET /api/bots/ on the bot service, per company. */
export function useBots() {
  const service = useApi(botServiceApiRef);
  const { companyId } = useAccount();
  return useQuery({ queryKey: [...BOTS_QUERY_KEY, 'list', companyId], queryFn: () => service.listBots(), retry: false });
}

/** GET /api/bots/{id}/ with its steps. */
export function useBot(id: number) {
  const service = useApi(botServiceApiRef);
  const { companyId } = useAccount();
  return useQuery({ queryKey: [...BOTS_QUERY_KEY, 'one', companyId, id], queryFn: () => service.getBot(id), retry: false, enabled: Number.isFinite(id), refetchOnMount: 'always' });
}

/** GET /api/bots/{id}/draft/ (main API): what the canvas builds, read fresh each time the canvas opens. */
export function useBotDraft(id: number) {
  const service = useApi(botServiceApiRef);
  const { companyId } = useAccount();
  return useQuery({ queryKey: [...BOTS_QUERY_KEY, 'draft', companyId, id], queryFn: () => service.getDraft(id), retry: false, enabled: Number.isFinite(id), refetchOnMount: 'always' });
}

/** The company's integration {endpoint, access_key}. */
export function useIntegration() {
  const service = useApi(botServiceApiRef);
  const { companyId } = useAccount();
  return useQuery({ queryKey: [...BOTS_QUERY_KEY, 'integration', companyId], queryFn: () => service.integration(), retry: false });
}

/** Every channel of the company (names for the list, the assignment on the detail page). */
export function useCompanyChannels() {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  return useQuery({
    queryKey: [...BOTS_QUERY_KEY, 'channels', companyId],
    queryFn: async ({ signal }) => {
      const body = await http.get<Partial<ChannelsListResponse> | null>('/api/channels/', { query: { page: 1, page_size: ALL_PAGE_SIZE }, signal });
      return (body?.results ?? []) as Channel[];
    },
    retry: false,
  });
}

export function useRefreshBots(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: BOTS_QUERY_KEY }), [queryClient]);
}
