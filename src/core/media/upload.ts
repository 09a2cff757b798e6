import type { HttpProvider } from '../apis';
import type { PresignedUpload } from '../../../contract/chats';
import type { BotMessageType } from '../../../contract/bots';

/** The bot message type of a file, by its MIME type. */
export function messageTypeOf(mime: string): BotMessageType {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  return 'document';
}

/**
 * Files uploaded in this page, shown from the browser's own copy: an upload is private (its plain
 * `/media/chats/…` URL answers 403) and the API hands it back as a signed URL only once the flow or
 * step is saved and read again, so until then a preview <img> of the stored URL would be broken.
 * The newest few are kept; older ones are released (an <img> already showing one keeps its picture).
 */
const LOCAL_PREVIEWS_KEPT = 20;
const localPreviews = new Map<string, string>();

function keepLocalPreview(url: string, file: File): void {
  if (typeof URL.createObjectURL !== 'function') return;
  const previous = localPreviews.get(url);
  if (previous) URL.revokeObjectURL(previous);
  localPreviews.delete(url);
  localPreviews.set(url, URL.createObjectURL(file));
  while (localPreviews.size > LOCAL_PREVIEWS_KEPT) {
    const [oldest, objectUrl] = localPreviews.entries().next().value!;
    URL.revokeObjectURL(objectUrl);
    localPreviews.delete(oldest);
  }
}

/** What a preview loads for a media URL: a file just uploaded here from the browser's copy, any other URL (signed by the API, another site's) as it is. */
export function mediaPreviewUrl(url: string): string {
  return localPreviews.get(url) ?? url;
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
  const stored = url.origin === window.location.origin && url.pathname.startsWith('/media/') ? url.pathname : target.file_url;
  keepLocalPreview(stored, file);
  return stored;
}
