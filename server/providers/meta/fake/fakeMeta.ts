/**
 * A local stand-in for Meta: the Graph API (WhatsApp Cloud API, Messenger/Instagram Send API,
 * OAuth, Facebook login), signed webhooks, a double of the Facebook JS SDK, a control API and a
 * small demo page. Used by the tests (startFakeMeta on a free port) and mounted at /dev/meta by
 * the main app when no META_APP_ID is set, so `npm start` works offline end to end.
 *
 * Routes (under the prefix): graph/:version/…, media/:id, sdk.js, dialog/…, control/…, / (demo), demo.js.
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { escapeHtml, sendScript } from './assets';
import { FakeGraphError, invalidToken } from './fakeGraphError';
import { FakeMetaContext, type FakeMetaOptions } from './fakeMetaContext';
import { fakeMetaControlRoutes } from './fakeMetaControl';
import { fakeMetaGraphRoutes } from './fakeMetaGraph';
import { FakeMetaStore } from './fakeMetaStore';

export type { FakeMetaOptions } from './fakeMetaContext';

function demoPage(prefix: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Fake Meta (local)</title>
<style>body{font-family:system-ui,sans-serif;max-width:980px;margin:2rem auto;padding:0 1rem;color:#1a2238}
section{border:1px solid #d0d7e2;border-radius:8px;padding:1rem;margin:1rem 0}h2{margin:0 0 .5rem;font-size:1.1rem}
label{display:inline-block;margin:.25rem .5rem .25rem 0}input,select{padding:.3rem;font:inherit}button{font:inherit;padding:.3rem .8rem;cursor:pointer}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #e4e8ef;padding:.35rem;text-align:left;vertical-align:top}
.muted{color:#5b6478}.in{color:#0b6e4f}.out{color:#1d4ed8}.conversation{margin:.75rem 0}</style></head>
<body data-base="${escapeHtml(prefix)}">
<h1>Fake Meta (local)</h1>
<p class="muted">A local stand-in for Meta's WhatsApp Cloud API, Messenger and Instagram. Connect a channel in the console
(the Facebook dialogs are local test doubles), then write to it here as a customer.</p>
<section><h2>WhatsApp numbers and pages</h2><table><thead><tr><th>Channel</th><th>Id</th><th>Details</th></tr></thead><tbody id="channels"></tbody></table></section>
<section><h2>Send a customer message</h2>
<form id="inbound-form">
<label>To <select name="channel" id="inbound-channel" required></select></label>
<label>From <input name="from" id="inbound-from" value="15550001234" required></label>
<label>Name <input name="name" id="inbound-name" value="Test Customer"></label>
<label>Text <input name="text" id="inbound-text" size="40" required></label>
<button type="submit">Send as the customer</button> <span id="inbound-result" class="muted"></span>
</form></section>
<section><h2>Conversations</h2><div id="conversations" class="muted">Loading…</div></section>
<script src="${escapeHtml(prefix)}/demo.js"></script>
</body></html>`;
}

/** The fake as a Fastify plugin: register it with `{ prefix: '/dev/meta', ...options }`, or use startFakeMeta. */
export async function fakeMetaPlugin(app: FastifyInstance, options: FakeMetaOptions): Promise<void> {
  const store = options.store ?? new FakeMetaStore(options.appId, options.statePath);
  const ctx = new FakeMetaContext(store, options, app.prefix);
  app.addHook('onClose', async () => ctx.close());

  // Graph clients may post forms as well as JSON.
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
  }

  // The resumable upload's bytes (POST /upload:<session>).
  if (!app.hasContentTypeParser('application/octet-stream')) {
    app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: 100 * 1024 * 1024 }, (_request, body, done) => done(null, body));
  }

  // Every error in Meta's format (this plugin's own handler: the host app's stays untouched).
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof FakeGraphError) return reply.code(error.httpStatus).send(error.body());
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    const wrapped = new FakeGraphError(status, status >= 500 ? 1 : 100, status >= 500 ? 'An unknown error has occurred.' : (error as Error).message, status >= 500 ? 'OAuthException' : 'GraphMethodException');
    return reply.code(status).send(wrapped.body());
  });

  fakeMetaGraphRoutes(app, ctx);
  fakeMetaControlRoutes(app, ctx);

  // Inbound media bytes (lookaside.fbsbx.com at Meta): a business token of the receiving number is required.
  app.get('/media/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const token = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const grant = token ? store.grant(token) : null;
    const media = Object.hasOwn(store.data.media, id) ? store.data.media[id] : null;
    if (!grant) throw invalidToken();
    const phone = media ? store.phone(media.phoneNumberId) : null;
    if (!media || !phone || grant.kind !== 'business' || grant.wabaId !== phone.wabaId) return reply.code(404).send({ error: 'Media not found.' });
    return reply.type(media.mimeType).header('cache-control', 'private, no-store').send(Buffer.from(media.base64, 'base64'));
  });

  app.get('/sdk.js', async (_request, reply) => sendScript(reply, 'sdkDouble.js'));
  app.get('/demo.js', async (_request, reply) => sendScript(reply, 'fakeMetaDemo.js'));
  app.get('/', async (_request, reply) => reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(demoPage(app.prefix)));
}

export interface StartedFakeMeta {
  /** http://127.0.0.1:port (the fake's routes are at its root). */
  url: string;
  /** Use as MetaConfig.graphUrl. */
  graphUrl: string;
  state: FakeMetaStore;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** The fake on its own server, on a free port of 127.0.0.1 (tests). */
export async function startFakeMeta(options: FakeMetaOptions): Promise<StartedFakeMeta> {
  const state = options.store ?? new FakeMetaStore(options.appId, options.statePath);
  const app = Fastify({ logger: false });
  await app.register(fakeMetaPlugin, { ...options, store: state });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return { url, graphUrl: `${url}/graph`, state, app, close: () => app.close() };
}
