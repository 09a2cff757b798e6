/**
 * Reads an uploaded document from a multipart/form-data body: the `file` part (its name says the
 * format: .pdf, .md/.markdown, .txt), an optional `title` (default: the file name without its
 * extension), the text extracted (./documents.ts). Anything else is a 400 in plain words.
 */
import { KNOWLEDGE_LIMITS, KNOWLEDGE_MESSAGES, type KnowledgeFormat } from '../../../contract/assistant';
import { badRequest, fieldError } from '../../core/errors';
import { cleanExtractedText, extractDocumentText, formatOfFileName } from './documents';

export interface Upload {
  title: string;
  fileName: string;
  format: KnowledgeFormat;
  text: string;
}

const missing = () => fieldError('file', KNOWLEDGE_MESSAGES.uploadMissing);

export async function readUpload(contentType: string | undefined, body: unknown): Promise<Upload> {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data') || !Buffer.isBuffer(body)) throw missing();
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw badRequest('The upload is not a valid multipart/form-data body.', 'malformed_upload');
  }
  const file = form.get('file');
  if (!file || typeof file === 'string') throw missing();
  const fileName = cleanExtractedText(file.name).replace(/\s+/g, ' ').trim().slice(-200) || 'document';
  const format = formatOfFileName(fileName);
  if (!format) throw fieldError('file', KNOWLEDGE_MESSAGES.uploadType);
  if (file.size > KNOWLEDGE_LIMITS.uploadBytes) throw fieldError('file', KNOWLEDGE_MESSAGES.uploadTooLarge);
  const titleField = form.get('title');
  const given = typeof titleField === 'string' ? cleanExtractedText(titleField).trim() : '';
  if (given.length > KNOWLEDGE_LIMITS.title) throw fieldError('title', `Ensure this field has no more than ${KNOWLEDGE_LIMITS.title} characters.`);
  const title = given || fileName.replace(/\.[^.]+$/, '').slice(0, KNOWLEDGE_LIMITS.title) || fileName;
  const text = await extractDocumentText(new Uint8Array(await file.arrayBuffer()), format);
  if (text.length > KNOWLEDGE_LIMITS.documentText) throw fieldError('file', KNOWLEDGE_MESSAGES.uploadTooLarge);
  return { title, fileName, format, text };
}
