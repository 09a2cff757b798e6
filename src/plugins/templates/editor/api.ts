/**
 * The editor's and the carousel builder's client (issue #10; spec §7): create
 * (POST /api/channels/{id}/create_template/), edit (PATCH /api/channels/{id}/templates/{templateId}/),
 * carousel submit (POST /api/whatsapp-template/submit_carousel_template/ with name, language,
 * components, category, phone_number), the template being edited or duplicated, the channel, and a
 * media header's sample: the file goes up through the existing presigned upload
 * (GET /api/chats/presigned_url/ then a PUT, with progress), then the server hands it to Meta's
 * resumable upload (POST /api/channels/{id}/templates/media_handle/) for the handle.
 */
import { ALL_PAGE_SIZE, type HttpProvider } from '../../../core';
import type { Channel } from '../../../../contract/channels';
import type {
  CarouselSubmission,
  TemplateDefinition,
  TemplateEdit,
  TemplateMediaHandle,
  WhatsAppTemplate,
} from '../../../../contract/templates';
import type { MediaFormat } from './model';

export interface SavedTemplate {
  detail: string;
  template: WhatsAppTemplate;
}

interface PresignedUpload {
  upload_url: string;
  method?: string;
  headers?: Record<string, string>;
  file_url: string;
}

/** PUT with upload progress (fetch has none): resolves when the storage accepted the bytes. */
export type Uploader = (target: { url: string; method: string; headers: Record<string, string> }, file: Blob, onProgress: (fraction: number) => void) => Promise<void>;

export const xhrUploader: Uploader = (target, file, onProgress) =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(target.method, target.url);
    for (const [name, value] of Object.entries(target.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new Error(`upload ${xhr.status}`)));
    xhr.onerror = () => reject(new Error('upload failed'));
    xhr.send(file);
  });

export interface EditorApi {
  channel(channelId: number, signal?: AbortSignal): Promise<Channel | null>;
  template(channelId: number, templateId: number, signal?: AbortSignal): Promise<WhatsAppTemplate | null>;
  create(channelId: number, definition: TemplateDefinition): Promise<SavedTemplate>;
  edit(channelId: number, templateId: number, edit: TemplateEdit): Promise<SavedTemplate>;
  submitCarousel(submission: CarouselSubmission): Promise<SavedTemplate>;
  /** Uploads a header sample; progress 0…1 while the bytes go up; resolves Meta's handle. */
  uploadMedia(channelId: number, file: File, format: MediaFormat, onProgress: (fraction: number) => void): Promise<TemplateMediaHandle>;
}

export function createEditorApi(http: HttpProvider, upload: Uploader = xhrUploader): EditorApi {
  return {
    async channel(channelId, signal) {
      const body = await http.get<{ results?: Channel[] } | null>('/api/channels/', { query: { page: 1, page_size: ALL_PAGE_SIZE }, signal });
      return body?.results?.find((c) => c.id === channelId) ?? null;
    },
    async template(channelId, templateId, signal) {
      const body = await http.get<{ results?: WhatsAppTemplate[] } | null>(`/api/channels/${channelId}/templates/`, { query: { page: 1, page_size: ALL_PAGE_SIZE }, signal });
      return body?.results?.find((t) => t.id === templateId) ?? null;
    },
    create: (channelId, definition) => http.post<SavedTemplate>(`/api/channels/${channelId}/create_template/`, definition),
    edit: (channelId, templateId, edit) => http.patch<SavedTemplate>(`/api/channels/${channelId}/templates/${templateId}/`, edit),
    submitCarousel: (submission) => http.post<SavedTemplate>('/api/whatsapp-template/submit_carousel_template/', submission),
    async uploadMedia(channelId, file, format, onProgress) {
      const fileType = file.type || 'application/octet-stream';
      const target = await http.get<PresignedUpload>('/api/chats/presigned_url/', { query: { file_name: file.name, file_type: fileType } });
      const headers = { ...target.headers, 'Content-Type': target.headers?.['Content-Type'] ?? fileType };
      await upload({ url: target.upload_url, method: target.method ?? 'PUT', headers }, file, onProgress);
      onProgress(1);
      return http.post<TemplateMediaHandle>(`/api/channels/${channelId}/templates/media_handle/`, { media_url: target.file_url, format });
    },
  };
}

/** The number the carousel route names its channel by (spec §7 phone_number). */
export function phoneOf(channel: Pick<Channel, 'display_phone_number' | 'external_id'>): string {
  return channel.display_phone_number || channel.external_id;
}
