/**
 * The fakes' browser scripts are plain .js files beside the module that serves them (`base`: its
 * import.meta.url; this folder by default), served as files: the console's CSP (`script-src 'self'`)
 * forbids inline scripts, and real files are easier to read.
 */
import { readFileSync } from 'node:fs';
import type { FastifyReply } from 'fastify';

const cache = new Map<string, string>();

export function assetText(fileName: string, base: string = import.meta.url): string {
  const url = new URL(`./${fileName}`, base);
  let text = cache.get(url.href);
  if (text === undefined) {
    text = readFileSync(url, 'utf8');
    cache.set(url.href, text);
  }
  return text;
}

export function sendScript(reply: FastifyReply, fileName: string, base?: string): FastifyReply {
  return reply.header('cache-control', 'no-cache').type('text/javascript; charset=utf-8').send(assetText(fileName, base));
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
