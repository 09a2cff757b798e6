/**
 * What the inbox reads and writes over HTTP rather than the socket: the company's tags, a channel's
 * templates, and attachments (the presign probe that shows the attach button, and the upload).
 */
import type { PresignedUpload, Tag } from '../../../../contract/chats';
import type { MessageTemplate } from '../../../../contract/channels';
import type { HttpProvider } from '../../../core/apis';
import type { ChatConnection } from './connection';
import type { ChatStore } from './chatStore';
import type { ChatService, Translate } from './types';

export interface HttpResources extends Pick<ChatService, 'loadTemplates' | 'upload'> {
  /** GET /api/tags/ into the state (also the authenticated call that refreshes an expired token). */
  loadTags(): Promise<void>;
  /** Shows attachments when GET /api/chats/presigned_url/ answers. */
  probeAttachments(): void;
}

export function createHttpResources(deps: { store: ChatStore; connection: ChatConnection; http?: HttpProvider; fetch?: typeof fetch; t: Translate }): HttpResources {
  const { store, connection, http } = deps;
  return {
    loadTags() {
      if (!http) return Promise.resolve();
      const current = connection.currentRun();
      return http
        .get<{ results?: Tag[] } | Tag[]>('/api/tags/')
        .then((resp) => {
          if (current()) store.set({ tags: Array.isArray(resp) ? resp : (resp?.results ?? []) });
        })
        .catch(() => undefined);
    },
    probeAttachments() {
      if (!http) return;
      const current = connection.currentRun();
      http
        .get('/api/chats/presigned_url/', { query: { file_name: 'probe.png', file_type: 'image/png' } })
        .then(() => current() && store.set({ attachments: true }))
        .catch(() => undefined);
    },
    async loadTemplates(pageId) {
      if (!http) throw new Error(deps.t('chats.errors.offline'));
      const resp = await http.get<{ results?: MessageTemplate[] } | MessageTemplate[]>(`/api/channels/${pageId}/templates/`);
      return Array.isArray(resp) ? resp : (resp?.results ?? []);
    },
    async upload(file) {
      if (!http) throw new Error('no http');
      const fileType = file.type || 'application/octet-stream';
      const target = await http.get<PresignedUpload>('/api/chats/presigned_url/', { query: { file_name: file.name, file_type: fileType } });
      const doFetch = deps.fetch ?? fetch;
      // Every header the URL was signed with (Content-Type; If-None-Match on S3: the URL uploads once).
      const headers = { ...target.headers, 'Content-Type': target.headers?.['Content-Type'] ?? fileType };
      const r = await doFetch(target.upload_url, { method: target.method ?? 'PUT', body: file, headers });
      if (!r.ok) throw new Error(`upload ${r.status}`);
      return target.file_url;
    },
  };
}
