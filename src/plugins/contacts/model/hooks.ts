/** The company's tags, channels and contact attributes, for the contacts page's filters, forms and the contact panel. */
import { useQuery } from '@tanstack/react-query';
import type { Tag } from '../../../../contract/chats';
import type { ContactAttribute } from '../../../../contract/contacts';
import { ALL_PAGE_SIZE, httpApiRef, useAccount, useApi } from '../../../core';

interface Paged<T> {
  results?: T[];
}
export interface ChannelOption {
  id: number;
  name: string;
  platform: string;
}

function useCompanyList<T>(key: string, path: string) {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  return useQuery({
    queryKey: ['contacts', key, companyId],
    queryFn: async ({ signal }) => ((await http.get<Paged<T> | null>(path, { query: { page: 1, page_size: ALL_PAGE_SIZE }, signal }))?.results ?? []) as T[],
    enabled: companyId != null,
    retry: false,
  });
}

export const useTags = () => useCompanyList<Tag>('tags', '/api/tags/');
export const useChannels = () => useCompanyList<ChannelOption>('channels', '/api/channels/');
export const useAttributes = () => useCompanyList<ContactAttribute>('attributes', '/api/contact-attributes/');
