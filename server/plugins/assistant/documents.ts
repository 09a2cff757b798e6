/**
 * Reads the text of an uploaded document: PDF (unpdf, pdf.js underneath), Markdown or plain text.
 * The format is the file name's extension, checked against the content (a PDF starts with `%PDF-`,
 * text must be UTF-8). PDF parsing is CPU work proportional to the file, so it runs in a worker
 * thread (the event loop keeps serving other requests) with a time limit.
 */
import { Worker } from 'node:worker_threads';
import { KNOWLEDGE_MESSAGES, type KnowledgeFormat } from '../../../contract/assistant';
import { badRequest } from '../../core/errors';

export const PDF_TIME_LIMIT_MS = 30_000;

/** The format of an upload by its name, or null when it is none we read. */
export function formatOfFileName(name: string): KnowledgeFormat | null {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (ext === 'pdf') return 'pdf';
  if (ext === 'md' || ext === 'markdown') return 'markdown';
  if (ext === 'txt' || ext === 'text') return 'text';
  return null;
}

/** NUL characters cannot be stored by PostgreSQL; other control characters (but tab and line ends) are noise for search. */
export function cleanExtractedText(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (code === 0) continue;
    out += (code < 32 && ch !== '\t' && ch !== '\n' && ch !== '\r') || code === 127 ? ' ' : ch;
  }
  return out;
}

// Runs in the worker: plain JavaScript (an eval'd worker is not transpiled); unpdf at the URL this module resolved.
const PDF_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.moduleUrl)
  .then(async ({ extractText, getDocumentProxy }) => {
    const pdf = await getDocumentProxy(workerData.bytes);
    const { text } = await extractText(pdf, { mergePages: false });
    parentPort.postMessage({ ok: true, pages: text });
  })
  .catch((err) => parentPort.postMessage({ ok: false, error: String(err && err.message || err) }));
`;

/** The text of a PDF, pages separated by blank lines. Throws a 400 when the file is not a readable PDF. */
export function extractPdfText(bytes: Uint8Array, timeLimitMs = PDF_TIME_LIMIT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(PDF_WORKER_SOURCE, { eval: true, workerData: { moduleUrl: import.meta.resolve('unpdf'), bytes } });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const unreadable = () => reject(badRequest(KNOWLEDGE_MESSAGES.uploadUnreadable, 'unreadable_file'));
    const timer = setTimeout(() => finish(unreadable), timeLimitMs);
    worker.on('message', (message: { ok: true; pages: string[] } | { ok: false; error: string }) =>
      finish(() => (message.ok ? resolve(message.pages.join('\n\n')) : unreadable())),
    );
    worker.on('error', () => finish(unreadable));
    worker.on('exit', () => finish(unreadable));
  });
}

/** The text of an upload in the given format (400 in plain words when it cannot be read or holds none). */
export async function extractDocumentText(bytes: Uint8Array, format: KnowledgeFormat): Promise<string> {
  let text: string;
  if (format === 'pdf') {
    if (Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-') throw badRequest(KNOWLEDGE_MESSAGES.uploadUnreadable, 'unreadable_file');
    text = await extractPdfText(bytes);
  } else {
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      throw badRequest(KNOWLEDGE_MESSAGES.uploadUnreadable, 'unreadable_file');
    }
  }
  text = cleanExtractedText(text).trim();
  if (!text) throw badRequest(KNOWLEDGE_MESSAGES.uploadEmpty, 'empty_file');
  return text;
}
