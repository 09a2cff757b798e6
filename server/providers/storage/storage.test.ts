import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readdir, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../core/clock';
import { LocalDiskMediaStorage } from './localDisk';
import { MemoryMediaStorage } from './memory';
import { MediaSigner, READ_URL_TTL_SECONDS, READ_URL_WINDOW_SECONDS, readUrlExpiry } from './presign';
import { companyOfPrivateKey, mediaUrlForCompany, storedMediaUrl } from './privateMedia';
import { MediaExistsError, isValidMediaKey } from './types';

describe('media keys', () => {
  it('accept relative lower-case paths with an image extension only', () => {
    for (const key of ['avatars/1/abc.png', 'a.jpg', 'x/y/z-1_2.webp', 'g.gif']) expect(isValidMediaKey(key), key).toBe(true);
    for (const key of ['', '/abs.png', '../up.png', 'a/../b.png', 'a//b.png', 'a/./b.png', 'A.png', 'a.svg', 'a.html', 'a.png/', 'a\\b.png', 'a..png'])
      expect(isValidMediaKey(key), key).toBe(false);
  });
});

const clock = new ManualClock(new Date('2026-05-01T10:07:30Z'));
const signer = new MediaSigner({ secret: 'a-test-secret-of-some-length', publicUrl: 'https://console.example.com/', clock });

describe('private media', () => {
  it('chat keys (chats/<company>/…, chat/<company>/… from before) are private; avatars and the rest are not', () => {
    expect(companyOfPrivateKey('chats/12/0f0e/photo.png')).toBe(12);
    expect(companyOfPrivateKey('chats/12/inbound/0f0e.jpg')).toBe(12);
    expect(companyOfPrivateKey('chat/3/0f0e.jpg')).toBe(3);
    for (const key of ['avatars/12/a.png', 'logos/1/a.png', 'chats/x/a.png', 'chatsy/1/a.png', 'demo/cart.png']) expect(companyOfPrivateKey(key), key).toBeNull();
  });

  it('read URLs expire 1 h to 1 h 15 from now, on a 15-minute grid (stable within it)', () => {
    const now = clock.now();
    const exp = readUrlExpiry(now);
    expect(exp % READ_URL_WINDOW_SECONDS).toBe(0);
    expect(exp - now.getTime() / 1000).toBeGreaterThanOrEqual(READ_URL_TTL_SECONDS);
    expect(exp - now.getTime() / 1000).toBeLessThan(READ_URL_TTL_SECONDS + READ_URL_WINDOW_SECONDS);
    expect(signer.readQuery('chats/1/a/b.png')).toBe(signer.readQuery('chats/1/a/b.png'));
  });

  it('a read signature is checked for its key and expiry, and is no upload signature', () => {
    const query = Object.fromEntries(new URLSearchParams(signer.readQuery('chats/1/a/b.png')));
    expect(signer.verifyRead('chats/1/a/b.png', query)).toMatchObject({ ok: true });
    expect(signer.verifyRead('chats/1/a/c.png', query)).toEqual({ ok: false, reason: 'invalid_signature' });
    expect(signer.verifyRead('chats/1/a/b.png', { ...query, exp: String(Number(query.exp) + 900) })).toEqual({ ok: false, reason: 'invalid_signature' });
    expect(signer.verifyRead('chats/1/a/b.png', { exp: query.exp })).toEqual({ ok: false, reason: 'invalid_signature' });
    expect(signer.verifyRead('chats/1/a/b.png', { exp: [query.exp], sig: [query.sig] })).toEqual({ ok: false, reason: 'invalid_signature' });
    expect(new MediaSigner({ secret: 'another-secret-entirely', publicUrl: 'https://x', clock }).verifyRead('chats/1/a/b.png', query).ok).toBe(false);
    const upload = new URL(signer.sign({ key: 'chats/1/a/b.png', contentType: 'image/png', maxBytes: 10, expiresInSeconds: 900 }).upload_url);
    expect(signer.verifyRead('chats/1/a/b.png', { exp: upload.searchParams.get('expires'), sig: upload.searchParams.get('signature') }).ok).toBe(false);
    const later = new ManualClock(new Date(Number(query.exp) * 1000 + 1000));
    expect(new MediaSigner({ secret: 'a-test-secret-of-some-length', publicUrl: 'https://x', clock: later }).verifyRead('chats/1/a/b.png', query)).toEqual({ ok: false, reason: 'expired' });
  });

  it("mediaUrlForCompany signs our own private key for its company only; storedMediaUrl drops a signature", () => {
    const storage = new MemoryMediaStorage('/media', signer);
    const plain = 'https://console.example.com/media/chats/4/ab/x.png';
    expect(mediaUrlForCompany(storage, plain, 4)).toMatch(/^\/media\/chats\/4\/ab\/x\.png\?exp=\d+&sig=[0-9a-f]{64}$/);
    expect(mediaUrlForCompany(storage, '/media/chats/4/ab/x.png', 4)).toMatch(/^\/media\/chats\/4\/ab\/x\.png\?exp=/);
    expect(mediaUrlForCompany(storage, plain, 5)).toBe(plain);
    expect(mediaUrlForCompany(storage, 'https://elsewhere.example.com/media/chats/4/ab/x.png', 4)).toBe('https://elsewhere.example.com/media/chats/4/ab/x.png');
    expect(mediaUrlForCompany(storage, '/media/avatars/4/x.png', 4)).toBe('/media/avatars/4/x.png');
    expect(mediaUrlForCompany(storage, null, 4)).toBeNull();
    const signed = mediaUrlForCompany(storage, plain, 4)!;
    expect(storedMediaUrl(storage, signed)).toBe('/media/chats/4/ab/x.png');
    expect(storedMediaUrl(storage, 'https://elsewhere.example.com/a.png?x=1')).toBe('https://elsewhere.example.com/a.png?x=1');
    expect(storedMediaUrl(storage, undefined)).toBeNull();
  });
});

describe.each([
  ['local disk', () => new LocalDiskMediaStorage(dir, '/media', signer)],
  ['memory', () => new MemoryMediaStorage('/media', signer)],
])('%s media storage', (_name, make) => {
  it('createOnly never replaces a stored object, even when two writes race', async () => {
    const storage = make();
    await storage.put('chats/1/aa/once.png', Buffer.from('first'), 'image/png', { createOnly: true });
    await expect(storage.put('chats/1/aa/once.png', Buffer.from('second'), 'image/png', { createOnly: true })).rejects.toBeInstanceOf(MediaExistsError);
    expect((await storage.get('chats/1/aa/once.png'))!.bytes.toString()).toBe('first');
    const results = await Promise.allSettled(['x', 'y', 'z'].map((b) => storage.put('chats/1/aa/race.png', Buffer.from(b), 'image/png', { createOnly: true })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof MediaExistsError)).toHaveLength(2);
    // A plain put (server-side writes under fixed keys) still replaces.
    await storage.put('chats/1/aa/once.png', Buffer.from('third'), 'image/png');
    expect((await storage.get('chats/1/aa/once.png'))!.bytes.toString()).toBe('third');
  });

  it('readUrl signs private keys only; keyOfUrl knows its own URLs only', () => {
    const storage = make();
    expect(storage.readUrl('avatars/1/a.png')).toBe('/media/avatars/1/a.png');
    expect(storage.readUrl('chats/1/aa/b.png')).toBe(`/media/chats/1/aa/b.png?${signer.readQuery('chats/1/aa/b.png')}`);
    expect(storage.keyOfUrl('/media/chats/1/aa/b.png?exp=1&sig=2')).toBe('chats/1/aa/b.png');
    expect(storage.keyOfUrl('https://console.example.com/media/chats/1/aa/b.png')).toBe('chats/1/aa/b.png');
    for (const url of ['https://evil.example.com/media/chats/1/aa/b.png', '//evil.example.com/media/chats/1/aa/b.png', '/other/chats/1/aa/b.png', '/media/../x.png', 'media/chats/1/aa/b.png']) {
      expect(storage.keyOfUrl(url), url).toBeNull();
    }
  });

  it('puts, gets and deletes', async () => {
    const storage = make();
    const bytes = Buffer.from([1, 2, 3]);
    expect(await storage.put('avatars/7/k.png', bytes, 'image/png')).toEqual({ key: 'avatars/7/k.png', url: '/media/avatars/7/k.png' });
    expect(await storage.get('avatars/7/k.png')).toEqual({ bytes, contentType: 'image/png' });
    await storage.delete('avatars/7/k.png');
    await storage.delete('avatars/7/k.png');
    expect(await storage.get('avatars/7/k.png')).toBeNull();
    await expect(storage.put('../escape.png', bytes, 'image/png')).rejects.toThrow(/invalid media key/);
  });
});

it('the local disk leaves no temporary file behind a refused create', async () => {
  const storage = new LocalDiskMediaStorage(dir, '/media', signer);
  await storage.put('chats/9/tmp/x.png', Buffer.from('a'), 'image/png', { createOnly: true });
  await expect(storage.put('chats/9/tmp/x.png', Buffer.from('b'), 'image/png', { createOnly: true })).rejects.toBeInstanceOf(MediaExistsError);
  expect(await readdir(path.join(dir, 'chats', '9', 'tmp'))).toEqual(['x.png']);
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'media-unit-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it('the local disk check (GET /api/ready/) makes its folder and fails when the folder is not a folder', async () => {
  const root = path.join(dir, 'ready', 'media');
  await new LocalDiskMediaStorage(root).check();
  expect(await readdir(path.join(dir, 'ready'))).toEqual(['media']);
  // A file where the folder should be (a mount gone wrong): mkdir fails.
  await writeFile(path.join(dir, 'ready', 'blocked'), 'not a folder');
  await expect(new LocalDiskMediaStorage(path.join(dir, 'ready', 'blocked', 'media')).check()).rejects.toThrow();
});
