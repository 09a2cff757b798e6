import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PresignedUpload } from '../../../contract/chats';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { ATTACHMENT_TYPE_ERROR, PRESIGN_EXPIRES_SECONDS, attachmentFileName } from './routes';

/** The path (and query) of an absolute URL, for app.inject. */
function local(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

describeEachDatabase('chat attachments (GET /api/chats/presigned_url/, PUT /media/upload/*)', (database) => {
  let t: TestApp;
  let acme: number;
  let globex: number;
  let agentToken: string;
  let outsiderToken: string;
  const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('some image bytes')]);

  beforeAll(async () => {
    t = await createTestApp({ database, config: { mediaUploadMaxBytes: 1024 } });
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

  async function stored(fileUrl: string) {
    return t.app.services.get('MediaStorage').get(new URL(fileUrl).pathname.replace(/^\/media\//, ''));
  }

  it('presigns for an agent; the bytes PUT to upload_url are served at file_url with their type', async () => {
    const res = await presign('Holiday Photo (1).PNG', 'image/png');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<PresignedUpload>();
    expect(body.method).toBe('PUT');
    expect(body.headers).toEqual({ 'Content-Type': 'image/png' });
    expect(body.file_url).toMatch(new RegExp(`^http://console\\.test/media/chats/${acme}/[0-9a-f]{32}/holiday-photo-1\\.png$`));
    expect(body.upload_url).toMatch(/^http:\/\/console\.test\/media\/upload\/chats\/.*\?expires=\d+&max_bytes=1024&signature=[0-9a-f]{64}$/);
    expect(Date.parse(body.expires_at) - t.clock.now().getTime()).toBeGreaterThan((PRESIGN_EXPIRES_SECONDS - 2) * 1000);

    // No Authorization header: the signature is the authorisation.
    const put = await t.app.inject({ method: 'PUT', url: local(body.upload_url), headers: body.headers, payload: PNG });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ file_url: body.file_url });

    const got = await t.app.inject({ method: 'GET', url: local(body.file_url) });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.rawPayload.equals(PNG)).toBe(true);
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
      const got = await t.app.inject({ method: 'GET', url: local(body.file_url) });
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
    expect((await t.app.inject({ method: 'GET', url: local(body.file_url) })).statusCode).toBe(404);
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

  it('sanitises file names into safe key segments', () => {
    expect(attachmentFileName('Quarterly Report (v2).PDF', 'pdf')).toBe('quarterly-report-v2.pdf');
    expect(attachmentFileName('../../etc/passwd', 'txt')).toBe('etc-passwd.txt');
    expect(attachmentFileName('Café déjà vu.jpeg', 'jpg')).toBe('cafe-deja-vu.jpg');
    expect(attachmentFileName('日本語.png', 'png')).toBe('file.png');
    expect(attachmentFileName('x'.repeat(300) + '.png', 'png')).toHaveLength(84);
  });
});
