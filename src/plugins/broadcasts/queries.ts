import { useQuery } from '@tanstack/react-query';
import { httpApiRef, useAccount, useApi } from '../../core';
import { fetchApprovedTemplates, fetchChannels, fetchContactAttributes, fetchSegments, fetchTags, fetchWhatsAppChannels } from './api';

/** The company's WhatsApp numbers (a broadcast is sent from one). */
export function useWhatsAppChannels() {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  return useQuery({ queryKey: ['broadcasts', 'wa-channels', companyId], queryFn: ({ signal }) => fetchWhatsAppChannels(http, signal), retry: false });
}

/** Every channel (the contacts filter). */
export function useAllChannels() {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  return useQuery({ queryKey: ['broadcasts', 'channels', companyId], queryFn: ({ signal }) => fetchChannels(http, signal), retry: false });
}

/** The approved templates of a channel. */
export function useApprovedTemplates(channelId: number | null) {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  return useQuery({
    queryKey: ['broadcasts', 'templates', companyId, String(channelId)],
    queryFn: ({ signal }) => fetchApprovedTemplates(http, channelId as number, signal),
    enabled: channelId !== null,
    retry: false,
  });
}

/** The company's tags (the contacts filter). */
/** The company's segments (the audience's segment picker). */
export function useSegments() {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  return useQuery({ queryKey: ['broadcasts', 'segments', companyId], queryFn: ({ signal }) => fetchSegments(http, signal), retry: false });
}

/** The company's contact attributes (a variable's source `attribute`). */
export function useContactAttributes() {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  return useQuery({ queryKey: ['broadcasts', 'contact-attributes', companyId], queryFn: ({ signal }) => fetchContactAttributes(http, signal), retry: false });
}

export function useTags() {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  return useQuery({ queryKey: ['broadcasts', 'tags', companyId], queryFn: ({ signal }) => fetchTags(http, signal), retry: false });
}
