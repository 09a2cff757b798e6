import type { PresignedUpload } from '../../../contract/chats';
import type { HttpProvider } from '../../core';

/**
 * Uploads a file the way the inbox does (GET /api/chats/presigned_url/, then a PUT of the bytes to
 * its upload_url with every signed header) and resolves its file_url: the media header's file.
 */
export async function uploadFile(http: HttpProvider, file: File, doFetch: typeof fetch = fetch): Promise<string> {
  const fileType = file.type || 'application/octet-stream';
  const target = await http.get<PresignedUpload>('/api/chats/presigned_url/', { query: { file_name: file.name, file_type: fileType } });
  const headers = { ...target.headers, 'Content-Type': target.headers?.['Content-Type'] ?? fileType };
  const response = await doFetch(target.upload_url, { method: target.method ?? 'PUT', body: file, headers });
  if (!response.ok) throw new Error(`upload ${response.status}`);
  return target.file_url;
}
