/**
 * The fakes' browser scripts are plain .js files beside this module, served as files: the
 * console's CSP (`script-src 'self'`) forbids inline scripts, and real files are easier to read.
 */
import { readFileSync } from 'node:fs';
import type { FastifyReply } from 'fastify';

const cache = new Map<string, string>();

export function assetText(fileName: string): string {
  let text = cache.get(fileName);
  if (text === undefined) {
    text = readFileSync(new URL(`./${fileName}`, import.meta.url), 'utf8');
    cache.set(fileName, text);
  }
  return text;
}

export function sendScript(reply: FastifyReply, fileName: string): FastifyReply {
  return reply.header('cache-control', 'no-cache').type('text/javascript; charset=utf-8').send(assetText(fileName));
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
