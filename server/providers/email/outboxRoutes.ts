/**
 * GET /dev/outbox (HTML, no scripts) and GET /dev/outbox.json: the local outbox, newest first.
 * It shows every e-mail including reset links (a sign-in for whoever reads them), so it is
 * registered only by server/core/demoRoutes.ts: no SMTP_URL, and demo mode or DEV_OUTBOX=true.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { OutboxQuery } from '../../../contract/validation';
import { firstLink, type OutboxEmail, type OutboxEmailSender } from './outboxSender';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Plain text with its links made clickable; everything else escaped. */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}">${url}</a>`);
}

function renderPage(emails: OutboxEmail[]): string {
  const items = emails
    .map((e) => {
      const link = firstLink(e.text);
      return `<article>
  <h2>${escapeHtml(e.subject)}</h2>
  <p class="meta">To <strong>${escapeHtml(e.to)}</strong> · ${escapeHtml(e.created_at)}${link ? ` · <a href="${escapeHtml(link)}">Open link</a>` : ''}</p>
  <pre>${linkify(e.text)}</pre>
</article>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>E-mail outbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:880px;margin:2rem auto;padding:0 1rem;color:#1a2238}
article{border:1px solid #d0d7e2;border-radius:8px;padding:1rem;margin:1rem 0}h2{margin:0 0 .25rem;font-size:1.1rem}
.meta{color:#5b6478;margin:0 0 .5rem}pre{white-space:pre-wrap;font-family:inherit;margin:0}</style></head>
<body><h1>E-mail outbox</h1><p>E-mails the console would have sent (no SMTP server configured), newest first.</p>
${items || '<p>No e-mails yet.</p>'}
</body></html>`;
}

export async function outboxRoutes(app: FastifyInstance, opts: { outbox: OutboxEmailSender }): Promise<void> {
  app.get('/dev/outbox', { schema: { querystring: OutboxQuery } }, async (request, reply) => {
    const { to } = request.query as z.infer<typeof OutboxQuery>;
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    return renderPage(await opts.outbox.list(to));
  });

  app.get('/dev/outbox.json', { schema: { querystring: OutboxQuery } }, async (request, reply) => {
    const { to } = request.query as z.infer<typeof OutboxQuery>;
    reply.header('cache-control', 'no-store');
    return opts.outbox.list(to);
  });
}
