/**
 * What /resources reads: the bot-service integration (GET /api/bots/integration/: the endpoint, and
 * the access key for those who may have it), the two served OpenAPI documents, and the bot service's
 * opt-out list (GET {endpoint}/api/opt-out-csv/?access_key=…) turned into a CSV file.
 */
import { useQuery } from '@tanstack/react-query';
import type { BotIntegration, OptOutCsv } from '../../../contract/bots';
import { toCsv } from '../../../contract/csv';
import { configApiRef, httpApiRef, useAccount, useApi, type ConsoleConfig, type HttpProvider } from '../../core';

export const API_OPENAPI_PATH = '/api/openapi.json';
export const BOT_SERVICE_OPENAPI_FILE = '/openapi.json';

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** The absolute API base: VITE_API_BASE, else the console's own origin. */
export function apiBaseUrl(config: ConsoleConfig, origin: string): string {
  return trimSlash(config.apiBase ? new URL(config.apiBase, origin).toString() : origin);
}

/** The bot-service endpoint: the integration's, else the console's default (VITE_BOT_SERVICE_URL), made absolute. */
export function botServiceUrl(integration: BotIntegration | undefined, config: ConsoleConfig, origin: string): string {
  const endpoint = integration?.endpoint || config.botServiceUrl;
  return trimSlash(new URL(endpoint, origin).toString());
}

/** Where Meta must send webhooks: `{API base}/api/webhooks/meta/` (the README's `$PUBLIC_URL/api/webhooks/meta/`). */
export function metaWebhookUrl(apiBase: string): string {
  return `${apiBase}/api/webhooks/meta/`;
}

export function useIntegration() {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  return useQuery({
    queryKey: ['resources', 'integration', companyId],
    queryFn: ({ signal }) => http.get<BotIntegration>('/api/bots/integration/', { signal }),
    retry: false,
  });
}

export type OpenApiKind = 'api' | 'botService';

/** The URL a served OpenAPI document opens at. */
export function openApiUrl(kind: OpenApiKind, apiBase: string, botService: string): string {
  return kind === 'api' ? `${apiBase}${API_OPENAPI_PATH}` : `${botService}${BOT_SERVICE_OPENAPI_FILE}`;
}

/** One served OpenAPI document (public: no token, no Company header). */
export function useOpenApiDocument(kind: OpenApiKind, url: string | null) {
  const http = useApi(httpApiRef);
  return useQuery({
    queryKey: ['resources', 'openapi', kind, url],
    queryFn: ({ signal }) => http.get<unknown>(new URL(url!).pathname, { baseUrl: new URL(url!).origin, auth: false, signal }),
    enabled: url !== null,
    retry: false,
    staleTime: 5 * 60_000,
  });
}

/** The opt-out list as CSV text (the server already neutralised its cells; the rule changes nothing twice). */
export function optOutCsvText(list: OptOutCsv): string {
  return toCsv(list.data, list.headers);
}

/** GET {endpoint}/api/opt-out-csv/ with the company's access key. */
export async function fetchOptOuts(http: HttpProvider, endpoint: string, accessKey: string): Promise<OptOutCsv> {
  const body = await http.request<Partial<OptOutCsv> | null>('GET', '/api/opt-out-csv/', { baseUrl: endpoint, auth: false, query: { access_key: accessKey } });
  return { headers: Array.isArray(body?.headers) ? body.headers : [], data: Array.isArray(body?.data) ? body.data : [] };
}

/** Saves text as a file through a temporary link (with a BOM so spreadsheets read UTF-8). */
export function saveFile(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function useConfig(): ConsoleConfig {
  return useApi(configApiRef);
}
