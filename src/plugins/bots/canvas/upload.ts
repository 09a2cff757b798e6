import type { HttpProvider } from '../../../core';
import type { PresignedUpload } from '../../../../contract/chats';
import type { BotMessageType } from '../../../../contract/bots';

/** The bot message type of a file, by its MIME type. */
export function messageTypeOf(mime: string): BotMessageType {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  return 'document';
}

/**
 * Uploads a step's media like a chat attachment (GET /api/chats/presigned_url/, then a PUT of the bytes
 * to upload_url); resolves the media_url to store: this server's own files as a `/media/…` path.
 */
export async function uploadMedia(http: HttpProvider, file: File, doFetch: typeof fetch = fetch): Promise<string> {
  const fileType = file.type || 'application/octet-stream';
  const target = await http.get<PresignedUpload>('/api/chats/presigned_url/', { query: { file_name: file.name, file_type: fileType } });
  const headers = { ...target.headers, 'Content-Type': target.headers?.['Content-Type'] ?? fileType };
  const response = await doFetch(target.upload_url, { method: target.method ?? 'PUT', body: file, headers });
  if (!response.ok) throw new Error(`upload ${response.status}`);
  const url = new URL(target.file_url, window.location.origin);
  return url.origin === window.location.origin && url.pathname.startsWith('/media/') ? url.pathname : target.file_url;
}
