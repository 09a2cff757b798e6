import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ALL_PAGE_SIZE, httpApiRef, useAccount, useApi, type HttpProvider } from '../../core';
import type {
  Channel,
  ChannelsListResponse,
  ConnectChannelBody,
  FacebookPage,
  SignupStatusResponse,
} from '../../../contract/channels';

/** Every channels query starts with this key; invalidating it refreshes the page. */
export const CHANNELS_QUERY_KEY = ['channels', 'list'] as const;

/** GET /api/channels/?page=&page_size= (spec §9: paged lists read from results). */
export async function fetchChannels(http: HttpProvider, page: number, perPage: number, signal?: AbortSignal): Promise<ChannelsListResponse> {
  const body = await http.get<Partial<ChannelsListResponse> | null>('/api/channels/', {
    query: { page, page_size: perPage > 0 ? perPage : ALL_PAGE_SIZE },
    signal,
  });
  const results = body?.results ?? [];
  return { results, count: body?.count ?? results.length, company_connected: body?.company_connected ?? true };
}

/** POST /api/channels/facebook_pages/: the pages (and their Instagram accounts) the user's token manages. */
export async function fetchFacebookPages(http: HttpProvider, accessToken: string): Promise<FacebookPage[]> {
  const body = await http.post<{ results?: FacebookPage[] } | null>('/api/channels/facebook_pages/', { access_token: accessToken });
  return body?.results ?? [];
}

/** POST /api/channels/ → 201 Channel (409 {detail} when connected elsewhere, 400 field errors). */
export function connectChannel(http: HttpProvider, body: ConnectChannelBody): Promise<Channel> {
  return http.post<Channel>('/api/channels/', body);
}

/** DELETE /api/channels/{id}/ → 204 (the sandbox is refused with 400 {detail}). */
export function disconnectChannel(http: HttpProvider, id: number): Promise<unknown> {
  return http.delete(`/api/channels/${id}/`);
}

/** POST /api/wa-onboard/retry/ {external_id}: runs a partial_failure signup's failed steps again. */
export function retrySignup(http: HttpProvider, externalId: string): Promise<Partial<SignupStatusResponse> | null | undefined> {
  return http.post<Partial<SignupStatusResponse> | null | undefined>('/api/wa-onboard/retry/', { external_id: externalId });
}

/** One page of the selected company's channels; refetched when the company, page or page size changes. */
export function useChannels(page: number, perPage: number) {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  return useQuery({
    queryKey: [...CHANNELS_QUERY_KEY, companyId, page, perPage],
    queryFn: ({ signal }) => fetchChannels(http, page, perPage, signal),
    // keep the previous page on screen while the next one loads, never another company's
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === companyId ? keepPreviousData(previous) : undefined),
    retry: false,
  });
}

/** Refreshes every page of the channels list (after connect, disconnect, retry). */
export function useRefreshChannels(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: CHANNELS_QUERY_KEY }), [queryClient]);
}
