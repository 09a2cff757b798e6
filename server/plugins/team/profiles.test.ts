import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskMediaStorage } from '../../providers/storage/localDisk';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { teamFixture, type TeamFixture } from './testFixtures';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)]);
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;
const BAD_IMAGE = { avatar: ['Upload a PNG, JPEG, GIF or WebP image.'] };

describe('profile avatar and media', () => {
  let t: TestApp;
  let dir: string;
  let f: TeamFixture;
  const upload = (access: string | null, avatar: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/profiles/', headers: access ? t.headers(access, f.company) : {}, payload: { avatar } });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'media-'));
    t = await createTestApp({ overrides: { MediaStorage: new LocalDiskMediaStorage(dir, '/media') } });
    f = await teamFixture(t, 'Pictures', 'pics.test');
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('stores the avatar, serves it read-only at /media/… and shows it on the account and in the member list', async () => {
    const res = await upload(f.agent.access, dataUrl('image/png', PNG));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      profile_avatar: expect.stringMatching(new RegExp(`^avatars/${f.agent.id}/[0-9a-f]{32}\\.png$`)),
      profile_avatar_url: `/media/${body.profile_avatar}`,
    });
    expect(await readFile(path.join(dir, body.profile_avatar))).toEqual(PNG);

    const served = await t.app.inject({ method: 'GET', url: body.profile_avatar_url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload).toEqual(PNG);
    expect((await t.app.inject({ method: 'POST', url: body.profile_avatar_url })).statusCode).toBe(404);

    const me = await t.app.inject({ method: 'GET', url: '/account/user/', headers: t.headers(f.agent.access) });
    expect(me.json().profile_avatar_url).toBe(body.profile_avatar_url);
    const members = await f.call(f.admin, 'GET', '/api/members/?search=agent@pics.test');
    expect(members.json().results[0]).toMatchObject({ profile_avatar: body.profile_avatar, profile_avatar_url: body.profile_avatar_url });
  });

  it('a new upload replaces the old one (a new URL; the old file is gone)', async () => {
    const first = (await upload(f.manager.access, dataUrl('image/png', PNG))).json();
    const second = (await upload(f.manager.access, dataUrl('image/jpeg', JPEG))).json();
    expect(second.profile_avatar).toMatch(/\.jpg$/);
    expect(second.profile_avatar_url).not.toBe(first.profile_avatar_url);
    expect((await t.app.inject({ method: 'GET', url: first.profile_avatar_url })).statusCode).toBe(404);
    const served = await t.app.inject({ method: 'GET', url: second.profile_avatar_url });
    expect(served.headers['content-type']).toBe('image/jpeg');
  });

  it('refuses anything but a real PNG, JPEG, GIF or WebP data URL', async () => {
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    expect((await upload(f.agent.access, dataUrl('text/html', html))).json()).toEqual(BAD_IMAGE);
    expect((await upload(f.agent.access, dataUrl('image/svg+xml', html))).json()).toEqual(BAD_IMAGE);
    // The declared type must match the bytes.
    expect((await upload(f.agent.access, dataUrl('image/png', html))).json()).toEqual(BAD_IMAGE);
    expect((await upload(f.agent.access, dataUrl('image/png', JPEG))).json()).toEqual(BAD_IMAGE);
    expect((await upload(f.agent.access, 'https://example.com/me.png')).json()).toEqual(BAD_IMAGE);
    expect((await upload(f.agent.access, 'data:image/png;base64,')).json()).toEqual(BAD_IMAGE);
    expect((await upload(f.agent.access, 'data:image/png;base64,@@@')).json()).toEqual(BAD_IMAGE);
    expect((await upload(f.agent.access, undefined)).json()).toEqual({ avatar: ['This field is required.'] });
    const huge = Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]);
    const tooBig = await upload(f.agent.access, dataUrl('image/png', huge));
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json()).toEqual({ avatar: ['The image must be at most 1 MB.'] });
    expect((await upload(null, dataUrl('image/png', PNG))).statusCode).toBe(401);
  });

  it('serves only valid keys from the media directory', async () => {
    for (const url of ['/media/avatars%2F..%2F..%2Fpackage.json', '/media/%252e%252e/x.png', '/media/avatars/none.png', '/media/x.svg', '/media/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/application\/json/);
    }
  });
});
