/**
 * Media header samples through Meta's resumable upload: the real adapter against the fake Meta.
 * A file this company uploaded (our storage, key chats/<company>/…) becomes a Meta handle that a
 * template's header then carries; anything else is refused naming media_url, another company's
 * channel is 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_MESSAGES, type TemplateMediaHandle } from '../../../contract/templates';
import type { StartedFakeMeta } from '../../providers/meta/fake/fakeMeta';
import { fakeUploadsOf } from '../../providers/meta/fake/fakeMetaUploads';
import { connectedNumber, graphFor, metaConfigFor, startTestFakeMeta } from '../../providers/meta/fake/testSupport';
import { appSecretProof } from '../../providers/meta/graphClient';
import { GraphApiError } from '../../providers/meta/types';
import { channelsTestApp, companyFixture, insertChannel, type ChannelsTestApp, type CompanyFixture } from '../channels/testing';
import { templateService } from './index';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe('template media headers through Meta’s resumable upload', () => {
  let fake: StartedFakeMeta;
  let t: ChannelsTestApp;
  let acme: CompanyFixture;
  let globex: CompanyFixture;
  let channelId = 0;
  let globexChannelId = 0;
  let wabaId = '';

  beforeAll(async () => {
    fake = await startTestFakeMeta({ templateReviewDelayMs: 60_000 });
    const graph = graphFor(fake);
    t = await channelsTestApp('pglite', { config: { meta: metaConfigFor(fake) }, overrides: { MetaGraph: graph } });
    acme = await companyFixture(t, 'Acme', 'acme.test');
    globex = await companyFixture(t, 'Globex', 'globex.test');
    const number = await connectedNumber(fake, graph, '+1 555 0177');
    wabaId = number.wabaId;
    channelId = (await insertChannel(t, acme.company, { platform: 'whatsapp', externalId: number.phoneNumberId, wabaId: number.wabaId, token: number.token })).id;
    const other = await connectedNumber(fake, graph, '+1 555 0178');
    globexChannelId = (await insertChannel(t, globex.company, { platform: 'whatsapp', externalId: other.phoneNumberId, wabaId: other.wabaId, token: other.token })).id;
  });
  afterAll(async () => {
    await templateService(t.app).settled();
    await t?.close();
    await fake?.close();
  });

  const storage = () => t.app.services.get('MediaStorage');
  const upload = async (company: number, name: string, bytes: Buffer, type: string) => (await storage().put(`chats/${company}/0123abcd/${name}`, bytes, type)).url;
  const handleFor = (mediaUrl: string, format = 'IMAGE', who = acme.admin, channel = channelId) =>
    acme.call(who, 'POST', `/api/channels/${channel}/templates/media_handle/`, { media_url: mediaUrl, format });

  it('turns our uploaded image into a Meta handle holding the same bytes, and a template with it is created', async () => {
    const url = await upload(acme.company, 'sample.png', PNG, 'image/png');
    const res = await handleFor(url);
    expect(res.statusCode).toBe(200);
    const answer = res.json() as TemplateMediaHandle;
    expect(answer.file_type).toBe('image/png');
    expect(answer.handle).toMatch(/^4::/);
    const uploaded = fakeUploadsOf(fake.state).handles.get(answer.handle);
    expect(uploaded).toMatchObject({ fileName: 'sample.png', fileType: 'image/png' });
    expect(uploaded!.bytes.equals(PNG)).toBe(true);

    const created = await acme.call(acme.admin, 'POST', `/api/channels/${channelId}/create_template/`, {
      name: 'with_uploaded_image',
      language: 'en_US',
      category: 'MARKETING',
      components: [{ type: 'HEADER', format: 'IMAGE', example: { header_handle: [answer.handle] } }, { type: 'BODY', text: 'Our new collection is here.' }],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().detail).toBe(TEMPLATE_MESSAGES.created);
    const stored = fake.state.waba(wabaId)!.templates.find((x) => x.name === 'with_uploaded_image');
    expect(JSON.stringify(stored?.components)).toContain(answer.handle);
  });

  it('refuses a file of another type than the header takes, naming media_url', async () => {
    const url = await upload(acme.company, 'notes.txt', Buffer.from('hello'), 'text/plain');
    const res = await handleFor(url);
    expect(res.statusCode).toBe(400);
    expect(res.json().media_url[0]).toContain('image/jpeg, image/png');
    const png = await upload(acme.company, 'photo.png', PNG, 'image/png');
    const asVideo = await handleFor(png, 'VIDEO');
    expect(asVideo.statusCode).toBe(400);
    expect(asVideo.json().media_url[0]).toContain('video/mp4');
  });

  it('refuses a URL that is not a file this company uploaded (another company’s, or anywhere else)', async () => {
    const theirs = await upload(globex.company, 'theirs.png', PNG, 'image/png');
    for (const url of [theirs, 'https://example.com/cat.png', 'http://169.254.169.254/latest/meta-data']) {
      const res = await handleFor(url);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json())).toEqual(['media_url']);
    }
    const gone = await handleFor(`${storage().url(`chats/${acme.company}/0123abcd/never-uploaded.png`)}`);
    expect(gone.statusCode).toBe(400);
    expect(gone.json().media_url[0]).toBe('The uploaded file is gone. Upload it again.');
  });

  it('another company’s channel is 404, an agent without manage access 403, a bad body 400 naming the field', async () => {
    const url = await upload(acme.company, 'mine.png', PNG, 'image/png');
    expect((await handleFor(url, 'IMAGE', acme.admin, globexChannelId)).statusCode).toBe(404);
    expect((await handleFor(url, 'IMAGE', acme.agent)).statusCode).toBe(403);
    const bad = await acme.call(acme.admin, 'POST', `/api/channels/${channelId}/templates/media_handle/`, { media_url: url, format: 'TEXT' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('format');
  });

  describe('the adapter and the fake', () => {
    it('follows the published two steps: a signed upload session, then the bytes from file_offset 0', async () => {
      const graph = graphFor(fake);
      const number = await connectedNumber(fake, graph);
      const { handle } = await graph.uploadTemplateMedia(number.token, { fileName: 'clip.mp4', fileType: 'video/mp4', bytes: Buffer.from('not really a video') });
      expect(fakeUploadsOf(fake.state).handles.get(handle)?.fileType).toBe('video/mp4');
    });

    it('Meta refuses file types it does not take and foreign sessions, in its error envelope', async () => {
      const graph = graphFor(fake);
      const number = await connectedNumber(fake, graph);
      await expect(graph.uploadTemplateMedia(number.token, { fileName: 'a.gif', fileType: 'image/gif', bytes: PNG })).rejects.toBeInstanceOf(GraphApiError);
      // A session opened with one token cannot receive bytes with another, nor a wrong offset.
      const other = await connectedNumber(fake, graph);
      const proof = (token: string) => appSecretProof(token, metaConfigFor(fake).appSecret);
      const auth = (token: string) => ({ authorization: `OAuth ${token}` });
      const start = await fetch(`${fake.graphUrl}/v23.0/${metaConfigFor(fake).appId}/uploads?file_name=a.png&file_length=${PNG.length}&file_type=image/png&appsecret_proof=${proof(number.token)}`, { method: 'POST', headers: auth(number.token) });
      expect(start.status).toBe(200);
      const { id } = (await start.json()) as { id: string };
      expect(id).toMatch(/^upload:[\w-]+\?sig=[\w-]+$/);
      const send = (token: string, offset: string) =>
        fetch(`${fake.graphUrl}/v23.0/${id}&appsecret_proof=${proof(token)}`, { method: 'POST', headers: { ...auth(token), 'content-type': 'application/octet-stream', file_offset: offset }, body: new Uint8Array(PNG) });
      const foreign = await send(other.token, '0');
      expect(foreign.status).toBe(400);
      expect(((await foreign.json()) as any).error.code).toBe(100);
      const skipped = await send(number.token, '10');
      expect(skipped.status).toBe(400);
      expect(((await skipped.json()) as any).error.error_data.details).toContain('file_offset must be 0');
      const done = await send(number.token, '0');
      expect(done.status).toBe(200);
      expect(((await done.json()) as any).h).toMatch(/^4::/);
    });
  });
});
