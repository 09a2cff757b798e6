/**
 * The templates plugin's client (issue #10; spec §7): a channel's WhatsApp templates (our synced
 * copy, filtered and paged), delete, status history, stats and an on-demand sync with Meta. The
 * editor and the carousel builder have their own create/edit client (./editor).
 */
import { createApiFactory, createApiRef, httpApiRef, ALL_PAGE_SIZE, type HttpProvider } from '../../core';
import type { Channel } from '../../../contract/channels';
import type {
  TemplateCategory,
  TemplateLimitsUsage,
  TemplateStats,
  TemplateStatus,
  TemplateStatusChange,
  WhatsAppTemplate,
} from '../../../contract/templates';

export interface TemplateListParams {
  page?: number;
  pageSize?: number;
  status?: TemplateStatus;
  category?: TemplateCategory;
  language?: string;
  search?: string;
  /** Wait for Meta's list before answering. */
  refresh?: boolean;
}

export interface TemplateListAnswer {
  count: number;
  results: WhatsAppTemplate[];
  limits: TemplateLimitsUsage | null;
}

export interface TemplatesApi {
  /** The company's channels (every platform: Messenger and Instagram are listed to say they have no templates). */
  channels(signal?: AbortSignal): Promise<Channel[]>;
  list(channelId: number, params?: TemplateListParams, signal?: AbortSignal): Promise<TemplateListAnswer>;
  /** One template of a channel (looked up by id in the channel's list). */
  get(channelId: number, templateId: number, signal?: AbortSignal): Promise<WhatsAppTemplate | null>;
  remove(channelId: number, templateId: number): Promise<void>;
  history(channelId: number, templateId: number, signal?: AbortSignal): Promise<TemplateStatusChange[]>;
  stats(channelId: number, templateId: number, signal?: AbortSignal): Promise<TemplateStats>;
  /** Asks Meta for the account's templates now (GET …/templates/?refresh=true). */
  refresh(channelId: number): Promise<TemplateListAnswer>;
}

export const templatesApiRef = createApiRef<TemplatesApi>({ id: 'plugin.templates' });

/** Channels that have Meta's template API. */
export function hasTemplateApi(channel: Pick<Channel, 'platform'>): boolean {
  return channel.platform === 'whatsapp';
}

export function createTemplatesApi(http: HttpProvider): TemplatesApi {
  const list = async (channelId: number, params: TemplateListParams = {}, signal?: AbortSignal): Promise<TemplateListAnswer> => {
    const { pageSize, refresh, ...filters } = params;
    const body = await http.get<Partial<TemplateListAnswer> | null>(`/api/channels/${channelId}/templates/`, {
      query: {
        page: filters.page ?? 1,
        page_size: pageSize === undefined ? 25 : pageSize > 0 ? pageSize : ALL_PAGE_SIZE,
        status: filters.status,
        category: filters.category,
        language: filters.language || undefined,
        search: filters.search?.trim() || undefined,
        refresh: refresh ? 'true' : undefined,
      },
      signal,
    });
    const results = body?.results ?? [];
    return { count: body?.count ?? results.length, results, limits: body?.limits ?? null };
  };
  return {
    async channels(signal) {
      const body = await http.get<{ results?: Channel[] } | null>('/api/channels/', { query: { page: 1, page_size: ALL_PAGE_SIZE }, signal });
      return body?.results ?? [];
    },
    list,
    async get(channelId, templateId, signal) {
      const answer = await list(channelId, { pageSize: ALL_PAGE_SIZE }, signal);
      return answer.results.find((t) => t.id === templateId) ?? null;
    },
    async remove(channelId, templateId) {
      await http.delete(`/api/channels/${channelId}/templates/${templateId}/`);
    },
    async history(channelId, templateId, signal) {
      const body = await http.get<{ results?: TemplateStatusChange[] } | null>(`/api/channels/${channelId}/templates/${templateId}/history/`, { signal });
      return body?.results ?? [];
    },
    async stats(channelId, templateId, signal) {
      const body = await http.get<Partial<TemplateStats> | null>(`/api/pages/${channelId}/templates/${templateId}/stats`, { signal });
      return { sent: body?.sent ?? 0, delivered: body?.delivered ?? 0, read: body?.read ?? 0, replied: body?.replied ?? 0, failed: body?.failed ?? 0 };
    },
    refresh(channelId) {
      return list(channelId, { pageSize: 1, refresh: true });
    },
  };
}

export const templatesApiFactory = createApiFactory({
  api: templatesApiRef,
  deps: { http: httpApiRef },
  factory: ({ http }) => createTemplatesApi(http),
});
