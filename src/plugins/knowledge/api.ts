/** The knowledge page's calls (contract/assistant.ts): knowledge items, the assistant's settings, ask, uploads with progress. */
import type { Paged } from '../../../contract/api';
import type { AskResponse, AssistantSettings, AssistantSettingsPatch, KnowledgeArticleBody, KnowledgeItem, KnowledgeItemSummary } from '../../../contract/assistant';
import type { Channel } from '../../../contract/channels';
import { ALL_PAGE_SIZE, accountApiRef, configApiRef, createApiFactory, createApiRef, httpApiRef, sessionApiRef, type ConsoleConfig, type HttpProvider, type SessionStore } from '../../core';

/** POST with upload progress (fetch has none). Resolves the parsed answer; rejects with {status, body}. */
export type FormUploader = (target: { url: string; headers: Record<string, string> }, form: FormData, onProgress: (fraction: number) => void) => Promise<unknown>;

export class UploadError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`upload ${status}`);
  }
}

export const xhrFormUploader: FormUploader = (target, form, onProgress) =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', target.url);
    for (const [name, value] of Object.entries(target.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(new UploadError(xhr.status, body));
    };
    xhr.onerror = () => reject(new UploadError(0, null));
    xhr.send(form);
  });

export interface KnowledgeApi {
  list(query: { page: number; page_size: number; search?: string }, signal?: AbortSignal): Promise<Paged<KnowledgeItemSummary>>;
  get(id: number, signal?: AbortSignal): Promise<KnowledgeItem>;
  create(body: KnowledgeArticleBody): Promise<KnowledgeItem>;
  update(id: number, body: Partial<KnowledgeArticleBody>): Promise<KnowledgeItem>;
  remove(id: number): Promise<void>;
  upload(file: File, title: string, onProgress: (fraction: number) => void): Promise<KnowledgeItem>;
  settings(signal?: AbortSignal): Promise<AssistantSettings>;
  saveSettings(patch: AssistantSettingsPatch): Promise<AssistantSettings>;
  ask(question: string): Promise<AskResponse>;
  channels(signal?: AbortSignal): Promise<Channel[]>;
}

export function createKnowledgeApi(deps: { http: HttpProvider; session: SessionStore; config: ConsoleConfig; companyId: () => number | null; uploader?: FormUploader }): KnowledgeApi {
  const { http } = deps;
  return {
    list: (query, signal) => http.get<Paged<KnowledgeItemSummary>>('/api/knowledge/', { query, signal }),
    get: (id, signal) => http.get<KnowledgeItem>(`/api/knowledge/${id}/`, { signal }),
    create: (body) => http.post<KnowledgeItem>('/api/knowledge/', body),
    update: (id, body) => http.patch<KnowledgeItem>(`/api/knowledge/${id}/`, body),
    remove: (id) => http.delete<void>(`/api/knowledge/${id}/`),
    async upload(file, title, onProgress) {
      // A call through the provider first: it refreshes an expired access token, which the upload's XHR cannot.
      await http.get('/api/assistant/settings/');
      const headers: Record<string, string> = { Accept: 'application/json' };
      const token = deps.session.getAccessToken();
      if (token) headers.Authorization = `Bearer ${token}`;
      const company = deps.companyId();
      if (company !== null) headers.Company = String(company);
      const form = new FormData();
      if (title.trim()) form.append('title', title.trim());
      form.append('file', file, file.name);
      return (await (deps.uploader ?? xhrFormUploader)({ url: `${deps.config.apiBase}/api/knowledge/upload/`, headers }, form, onProgress)) as KnowledgeItem;
    },
    settings: (signal) => http.get<AssistantSettings>('/api/assistant/settings/', { signal }),
    saveSettings: (patch) => http.patch<AssistantSettings>('/api/assistant/settings/', patch),
    ask: (question) => http.post<AskResponse>('/api/assistant/ask/', { question }),
    async channels(signal) {
      const body = await http.get<{ results?: Channel[] } | null>('/api/channels/', { query: { page: 1, page_size: ALL_PAGE_SIZE }, signal });
      return body?.results ?? [];
    },
  };
}

export const knowledgeApiRef = createApiRef<KnowledgeApi>({ id: 'plugin.knowledge' });

export const knowledgeApiFactory = createApiFactory({
  api: knowledgeApiRef,
  deps: { http: httpApiRef, session: sessionApiRef, config: configApiRef, account: accountApiRef },
  factory: ({ http, session, config, account }) => createKnowledgeApi({ http, session, config, companyId: () => account.getCompanyId() }),
});
