import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Message, PresignedUpload } from '../../../contract/chats';
import { messages } from '../../core/db/schema';
import { buildApp } from '../../core/app';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { serverPlugins } from '../../plugins.config';
import { outboundContent } from '../channels';
import { ensureSandboxChannel } from '../sandbox';
import { ATTACHMENT_TYPE_ERROR, PRESIGN_EXPIRES_SECONDS, attachmentFileName } from './routes';
import { chatService, useHubForTests } from './index';
import type { ChatActor } from './service';

/** The path (and query) of an absolute URL, for app.inject. */
function local(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

describe('chat attachments (GET /api/chats/presigned_url/, PUT /media/upload/*)', () => {
  let t: TestApp;
  let acme: number;
  let globex: number;
  let agentToken: string;
  let outsiderToken: string;
  const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('some image bytes')]);

  beforeAll(async () => {
    t = await createTestApp({ config: { mediaUploadMaxBytes: 1024 } });
    acme = await t.seed.company('Acme');
    globex = await t.seed.company('Globex');
    const agentId = await t.seed.user({ email: 'agent@acme.test' });
    const outsiderId = await t.seed.user({ email: 'someone@globex.test' });
    await t.seed.member(acme, agentId, 'agent');
    await t.seed.member(globex, outsiderId, 'admin');
    agentToken = (await t.login('agent@acme.test')).access;
    outsiderToken = (await t.login('someone@globex.test')).access;
  });
  afterAll(() => t.close());

  async function presign(fileName: string, fileType: string, headers = t.headers(agentToken, acme)) {
    return t.app.inject({ method: 'GET', url: '/api/chats/presigned_url/', query: { file_name: fileName, file_type: fileType }, headers });
  }

  const keyOf = (fileUrl: string) => new URL(fileUrl, 'http://console.test').pathname.replace(/^\/media\//, '');

  async function stored(fileUrl: string) {
    return t.app.services.get('MediaStorage').get(keyOf(fileUrl));
  }

  /** GET of a URL the API handed out (relative or absolute), as a browser's <img> would: no headers. */
  function load(url: string) {
    return t.app.inject({ method: 'GET', url: local(new URL(url, 'http://console.test').toString()) });
  }

  it('presigns for an agent; the bytes PUT to upload_url are stored once with their type; file_url alone serves nothing', async () => {
    const res = await presign('Holiday Photo (1).PNG', 'image/png');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<PresignedUpload>();
    expect(body.method).toBe('PUT');
    expect(body.headers).toEqual({ 'Content-Type': 'image/png' });
    expect(body.file_url).toMatch(new RegExp(`^http://console\\.test/media/chats/${acme}/[0-9a-f]{32}/holiday-photo-1\\.png$`));
    // app.inject asks as `Host: localhost:80`: a browser on this machine, whose own origin the upload goes to.
    expect(body.upload_url).toMatch(/^http:\/\/localhost:80\/media\/upload\/chats\/.*\?expires=\d+&max_bytes=1024&signature=[0-9a-f]{64}$/);
    expect(Date.parse(body.expires_at) - t.clock.now().getTime()).toBeGreaterThan((PRESIGN_EXPIRES_SECONDS - 2) * 1000);

    // No Authorization header: the signature is the authorisation.
    const put = await t.app.inject({ method: 'PUT', url: local(body.upload_url), headers: body.headers, payload: PNG });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ file_url: body.file_url });
    expect(await stored(body.file_url)).toEqual({ bytes: PNG, contentType: 'image/png' });

    // A chat attachment is private: its plain URL is refused, whoever asks.
    const plain = await t.app.inject({ method: 'GET', url: local(body.file_url) });
    expect(plain.statusCode).toBe(403);
    expect(plain.json().code).toBe('invalid_signature');
    expect((await t.app.inject({ method: 'GET', url: local(body.file_url), headers: t.headers(agentToken, acme) })).statusCode).toBe(403);

    // The upload URL uploads once: used again (within its validity) it is 409 and the file stays.
    const again = await t.app.inject({ method: 'PUT', url: local(body.upload_url), headers: body.headers, payload: Buffer.from('replaced') });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: 'This upload URL has been used already.', code: 'already_uploaded' });
    expect(await stored(body.file_url)).toEqual({ bytes: PNG, contentType: 'image/png' });
  });

  it('hands the upload URL out on the origin the console is on when that is this server, else on PUBLIC_URL (issue #25)', async () => {
    const as = (headers: Record<string, string>) => presign('a.png', 'image/png', { ...t.headers(agentToken, acme), ...headers });
    // Opened at 127.0.0.1 while PUBLIC_URL names another host: the console's CSP (connect-src 'self') allows only 127.0.0.1.
    const loopback = (await as({ host: '127.0.0.1:3000' })).json<PresignedUpload>();
    expect(loopback.upload_url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/media\/upload\/chats\//);
    // file_url stays on PUBLIC_URL: it is stored and handed to Meta.
    expect(loopback.file_url).toMatch(/^http:\/\/console\.test\/media\/chats\//);
    const put = await t.app.inject({ method: 'PUT', url: local(loopback.upload_url), headers: loopback.headers, payload: PNG });
    expect(put.statusCode, put.body).toBe(200);
    expect((await as({ host: 'console.test' })).json<PresignedUpload>().upload_url).toMatch(/^http:\/\/console\.test\/media\/upload\//);
    expect((await as({ host: '[::1]:5173' })).json<PresignedUpload>().upload_url).toMatch(/^http:\/\/\[::1\]:5173\/media\/upload\//);
    // A name that is not this server's is not believed.
    expect((await as({ host: 'evil.test' })).json<PresignedUpload>().upload_url).toMatch(/^http:\/\/console\.test\/media\/upload\//);

    // Behind a proxy (TRUST_PROXY): X-Forwarded-Host is believed on the same terms only.
    const proxied = await buildApp({ plugins: serverPlugins, config: { ...t.config, trustProxy: true }, db: t.db, overrides: { Clock: t.clock } });
    try {
      const via = async (headers: Record<string, string>) =>
        (await proxied.inject({ method: 'GET', url: '/api/chats/presigned_url/', query: { file_name: 'a.png', file_type: 'image/png' }, headers: { ...t.headers(agentToken, acme), ...headers } })).json<PresignedUpload>();
      expect((await via({ 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https' })).upload_url).toMatch(/^http:\/\/console\.test\/media\/upload\//);
      expect((await via({ 'x-forwarded-host': 'localhost:5173', 'x-forwarded-proto': 'https' })).upload_url).toMatch(/^https:\/\/localhost:5173\/media\/upload\//);
    } finally {
      await proxied.close();
    }
  });

  it('accepts documents, video and audio', async () => {
    for (const [name, type, ext] of [
      ['report.pdf', 'application/pdf', 'pdf'],
      ['sheet.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx'],
      ['clip', 'video/mp4', 'mp4'],
      ['voice.ogg', 'audio/ogg', 'ogg'],
    ]) {
      const res = await presign(name, type);
      expect(res.statusCode, `${type}: ${res.body}`).toBe(200);
      const body = res.json<PresignedUpload>();
      expect(body.file_url.endsWith(`.${ext}`)).toBe(true);
      const put = await t.app.inject({ method: 'PUT', url: local(body.upload_url), headers: body.headers, payload: Buffer.from('x') });
      expect(put.statusCode, put.body).toBe(200);
      const got = await load(t.app.services.get('MediaStorage').readUrl(keyOf(body.file_url)));
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe(type);
    }
  });

  it('refuses an expired URL and stores nothing', async () => {
    const body = (await presign('a.png', 'image/png')).json<PresignedUpload>();
    t.clock.advance((PRESIGN_EXPIRES_SECONDS + 1) * 1000);
    const put = await t.app.inject({ method: 'PUT', url: local(body.upload_url), headers: body.headers, payload: PNG });
    expect(put.statusCode).toBe(403);
    expect(put.json().code).toBe('expired');
    expect(await stored(body.file_url)).toBeNull();
    expect((await load(t.app.services.get('MediaStorage').readUrl(keyOf(body.file_url)))).statusCode).toBe(404);
    // The access tokens expired with the clock too: sign in again for the next tests.
    agentToken = (await t.login('agent@acme.test')).access;
    outsiderToken = (await t.login('someone@globex.test')).access;
  });

  it('refuses a tampered signature, key, expiry or size limit and stores nothing', async () => {
    const body = (await presign('b.png', 'image/png')).json<PresignedUpload>();
    const url = new URL(body.upload_url);
    const sig = url.searchParams.get('signature')!;
    const tampered = [
      body.upload_url.replace(sig, (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1)),
      body.upload_url.replace(/expires=(\d+)/, (_m, e) => `expires=${Number(e) + 3600}`),
      body.upload_url.replace('max_bytes=1024', 'max_bytes=999999'),
      body.upload_url.replace('/b.png', '/c.png'),
      body.upload_url.replace(/&signature=[0-9a-f]+/, ''),
    ];
    for (const u of tampered) {
      const put = await t.app.inject({ method: 'PUT', url: local(u), headers: body.headers, payload: PNG });
      expect(put.statusCode, u).toBe(403);
      expect(put.json().code).toBe('invalid_signature');
    }
    expect(await stored(body.file_url)).toBeNull();
    expect(await stored(body.file_url.replace('/b.png', '/c.png'))).toBeNull();
  });

  it('refuses another Content-Type than the signed one and stores nothing', async () => {
    const body = (await presign('c.png', 'image/png')).json<PresignedUpload>();
    for (const headers of [{ 'Content-Type': 'image/jpeg' }, { 'Content-Type': 'text/html' }, {}]) {
      const put = await t.app.inject({ method: 'PUT', url: local(body.upload_url), headers, payload: PNG });
      expect([403, 415], JSON.stringify(headers)).toContain(put.statusCode);
    }
    expect(await stored(body.file_url)).toBeNull();
  });

  it('refuses a file over the size limit with 413 and stores nothing', async () => {
    const body = (await presign('big.png', 'image/png')).json<PresignedUpload>();
    const put = await t.app.inject({ method: 'PUT', url: local(body.upload_url), headers: body.headers, payload: Buffer.alloc(1025, 1) });
    expect(put.statusCode).toBe(413);
    expect(await stored(body.file_url)).toBeNull();
    // Exactly at the limit is fine.
    const ok = await t.app.inject({ method: 'PUT', url: local(body.upload_url), headers: body.headers, payload: Buffer.alloc(1024, 1) });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('refuses an unauthenticated or foreign-company presign', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/chats/presigned_url/', query: { file_name: 'a.png', file_type: 'image/png' }, headers: { company: String(acme) } });
    expect(anonymous.statusCode).toBe(401);
    expect((await presign('a.png', 'image/png', t.headers(outsiderToken, acme))).statusCode).toBe(403);
    expect((await presign('a.png', 'image/png', t.headers(outsiderToken, globex))).statusCode).toBe(200);
  });

  it('answers 400 for a bad file type or file name', async () => {
    for (const type of ['text/html', 'image/svg+xml', 'application/x-msdownload', 'application/javascript', 'image/x-unknown']) {
      const res = await presign('x.bin', type);
      expect(res.statusCode, type).toBe(400);
      expect(res.json(), type).toEqual({ file_type: [ATTACHMENT_TYPE_ERROR] });
    }
    const missing = await t.app.inject({ method: 'GET', url: '/api/chats/presigned_url/', query: { file_name: 'a.png' }, headers: t.headers(agentToken, acme) });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toHaveProperty('file_type');
    expect((await presign('', 'image/png')).json()).toHaveProperty('file_name');
    expect((await presign('a'.repeat(201), 'image/png')).json()).toHaveProperty('file_name');
  });

  /** Uploads a PNG as an Acme agent; its file_url. */
  async function upload(name = 'photo.png'): Promise<string> {
    const body = (await presign(name, 'image/png')).json<PresignedUpload>();
    const put = await t.app.inject({ method: 'PUT', url: local(body.upload_url), headers: body.headers, payload: PNG });
    expect(put.statusCode, put.body).toBe(200);
    return body.file_url;
  }

  async function acmeRoom(customer: string) {
    const chats = chatService(t.app);
    const channel = await ensureSandboxChannel(t.db, acme);
    const { room } = await chats.receiveInbound(channel, { externalUserId: customer, name: customer, type: 'text', text: 'hi', clientId: `in-${customer}` });
    const agentId = (await t.login('agent@acme.test')).user.id;
    const actor: ChatActor = { userId: agentId, email: 'agent@acme.test', name: 'Agent', companyId: acme, role: 'agent' };
    return { chats, channel, room: await chats.accessibleRoom(actor, room.id), actor };
  }

  it('a message with an attachment is handed out with a signed URL (REST, realtime, simulator); the row keeps the plain URL', async () => {
    agentToken = (await t.login('agent@acme.test')).access;
    const fileUrl = await upload();
    const pushed: { topic: string; event: string; payload: any }[] = [];
    useHubForTests(t.app, { broadcast: async (topic, event, payload) => void pushed.push({ topic, event, payload: JSON.parse(JSON.stringify(payload)) }) });
    try {
      const { chats, channel, room, actor } = await acmeRoom('cust-signed');
      const { message } = await chats.sendMessage(actor, room, { type: 'image', media_url: fileUrl, media_type: 'image/png', client_id: 'c-signed' });
      const signed = /^\/media\/chats\/\d+\/[0-9a-f]{32}\/photo\.png\?exp=\d+&sig=[0-9a-f]{64}$/;
      expect(message.media_url).toMatch(signed);
      const [row] = await t.db.select().from(messages).where(eq(messages.id, message.id));
      expect(row.mediaUrl).toBe(fileUrl);

      // Realtime pushes carry it signed.
      const news = pushed.filter((b) => b.event === 'new_message' && b.payload.message?.id === message.id);
      expect(news.length).toBeGreaterThan(0);
      for (const b of news) expect(b.payload.message.media_url).toMatch(signed);

      // The REST history (what fetch_messages answers too) mints it at read time.
      const rest = await t.app.inject({ method: 'GET', url: `/api/chats/rooms/${room.id}/messages/`, headers: t.headers(agentToken, acme) });
      expect(rest.statusCode, rest.body).toBe(200);
      const listed = rest.json<{ messages: Message[] }>().messages.find((m) => m.id === message.id)!;
      expect(listed.media_url).toMatch(signed);

      // The customer's simulator page shows it too, signed.
      const sim = await t.app.inject({ method: 'GET', url: `/api/sandbox/${channel.simulatorKey}/conversations/cust-signed/messages/` });
      expect(sim.statusCode, sim.body).toBe(200);
      const simMessage = sim.json<{ messages: Message[] }>().messages.find((m) => m.id === message.id)!;
      expect(simMessage.media_url).toMatch(signed);

      // The signed URL loads without any header (an <img>), privately cached no longer than it lives.
      const got = await load(listed.media_url!);
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe('image/png');
      expect(got.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
      expect(Number(String(got.headers['cache-control']).split('=')[1])).toBeLessThanOrEqual(75 * 60);
      expect(got.rawPayload.equals(PNG)).toBe(true);

      // What a WhatsApp send hands Meta (the delivered message): the same signed URL, absolute, which Meta's fetch loads.
      const content = outboundContent(message, t.config.publicUrl) as { kind: string; link: string };
      expect(content.link).toMatch(/^http:\/\/console\.test\/media\/chats\/\d+\/[0-9a-f]{32}\/photo\.png\?exp=\d+&sig=[0-9a-f]{64}$/);
      expect((await load(content.link)).statusCode).toBe(200);

      // A signed URL handed back as a media_url is stored plain (signatures are minted when read).
      const echo = await chats.sendMessage(actor, room, { type: 'image', media_url: listed.media_url, media_type: 'image/png', client_id: 'c-echo' });
      const [echoRow] = await t.db.select().from(messages).where(eq(messages.id, echo.message.id));
      expect(echoRow.mediaUrl).toBe(`/media/${keyOf(fileUrl)}`);
    } finally {
      useHubForTests(t.app, null);
    }
  });

  it('a signed URL is refused tampered, for another key, or once expired', async () => {
    const fileUrl = await upload('other.png');
    const storage = t.app.services.get('MediaStorage');
    const signed = storage.readUrl(keyOf(fileUrl));
    expect((await load(signed)).statusCode).toBe(200);
    const other = await upload('third.png');
    const sig = /sig=([0-9a-f]+)/.exec(signed)![1];
    const refused = [
      signed.replace(sig, (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1)),
      signed.replace(/exp=(\d+)/, (_m, e) => `exp=${Number(e) + 3600}`),
      signed.replace(/&sig=.*/, ''),
      signed.replace(/\?.*/, ''),
      // Another file's path with this file's signature.
      signed.replace(keyOf(fileUrl), keyOf(other)),
    ];
    for (const url of refused) {
      const res = await load(url);
      expect(res.statusCode, url).toBe(403);
      expect(res.body).not.toContain('PNG');
    }
    // Valid for at least an hour, at most an hour and a quarter.
    t.clock.advance(60 * 60_000);
    expect((await load(signed)).statusCode).toBe(200);
    t.clock.advance(16 * 60_000);
    const expired = await load(signed);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().code).toBe('expired');
    // A fresh read mints a fresh URL.
    expect((await load(storage.readUrl(keyOf(fileUrl)))).statusCode).toBe(200);
    agentToken = (await t.login('agent@acme.test')).access;
    outsiderToken = (await t.login('someone@globex.test')).access;
  });

  it("another company's attachment is never signed: a message naming it carries the plain (refused) URL", async () => {
    const fileUrl = await upload('acme-only.png');
    const chats = chatService(t.app);
    const globexChannel = await ensureSandboxChannel(t.db, globex);
    // A Globex conversation names Acme's file (e.g. a path seen elsewhere).
    const { message } = await chats.receiveInbound(globexChannel, { externalUserId: 'thief', name: 'Thief', type: 'image', mediaUrl: fileUrl, mediaType: 'image/png', clientId: 'c-thief' });
    expect(message.media_url).toBe(fileUrl);
    expect((await t.app.inject({ method: 'GET', url: local(message.media_url!) })).statusCode).toBe(403);
    // Another site's URL is handed out as it is.
    const external = await chats.receiveInbound(globexChannel, { externalUserId: 'thief', name: 'Thief', type: 'image', mediaUrl: 'https://images.example.com/a.png', mediaType: 'image/png', clientId: 'c-ext' });
    expect(external.message.media_url).toBe('https://images.example.com/a.png');
  });

  it('avatars stay public: served without a signature', async () => {
    const storage = t.app.services.get('MediaStorage');
    await storage.put('avatars/1/0123456789abcdef.png', PNG, 'image/png');
    expect(storage.readUrl('avatars/1/0123456789abcdef.png')).toBe('/media/avatars/1/0123456789abcdef.png');
    const got = await t.app.inject({ method: 'GET', url: '/media/avatars/1/0123456789abcdef.png' });
    expect(got.statusCode).toBe(200);
    expect(got.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sanitises file names into safe key segments', () => {
    expect(attachmentFileName('Quarterly Report (v2).PDF', 'pdf')).toBe('quarterly-report-v2.pdf');
    expect(attachmentFileName('../../etc/passwd', 'txt')).toBe('etc-passwd.txt');
    expect(attachmentFileName('Café déjà vu.jpeg', 'jpg')).toBe('cafe-deja-vu.jpg');
    expect(attachmentFileName('日本語.png', 'png')).toBe('file.png');
    expect(attachmentFileName('x'.repeat(300) + '.png', 'png')).toHaveLength(84);
  });
});
