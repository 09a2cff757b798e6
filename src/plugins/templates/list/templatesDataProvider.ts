import type { DataProvider } from 'react-admin';
import type { TemplateCategory, TemplateStatus } from '../../../../contract/templates';
import type { TemplatesApi } from '../api';

/**
 * The react-admin data provider of the templates list: a channel's templates live under
 * /api/channels/{id}/templates/, so the list's permanent `channel` filter picks the path. Other
 * resources go to the console's own provider. getList's `meta.limits` carries Meta's limits.
 */
export function templatesDataProvider(api: TemplatesApi, base: DataProvider): DataProvider {
  return {
    ...base,
    async getList(resource, params) {
      if (resource !== 'templates') return base.getList(resource, params);
      const { channel, q, status, category, language } = (params.filter ?? {}) as Record<string, string | number | undefined>;
      if (!channel) return { data: [], total: 0 };
      const { page = 1, perPage = 25 } = params.pagination ?? {};
      const answer = await api.list(
        Number(channel),
        {
          page,
          pageSize: perPage,
          search: q ? String(q) : undefined,
          status: (status || undefined) as TemplateStatus | undefined,
          category: (category || undefined) as TemplateCategory | undefined,
          language: language ? String(language) : undefined,
        },
        params.signal,
      );
      return { data: answer.results as never, total: answer.count, meta: { limits: answer.limits } };
    },
    async delete(resource, params) {
      if (resource !== 'templates') return base.delete(resource, params);
      const record = params.previousData as { channel_id?: number } | undefined;
      if (!record?.channel_id) throw new Error('The template has no channel.');
      await api.remove(record.channel_id, Number(params.id));
      return { data: params.previousData as never };
    },
  };
}
