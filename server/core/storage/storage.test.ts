import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskMediaStorage } from './localDisk';
import { MemoryMediaStorage } from './memory';
import { isValidMediaKey } from './types';

describe('media keys', () => {
  it('accept relative lower-case paths with an image extension only', () => {
    for (const key of ['avatars/1/abc.png', 'a.jpg', 'x/y/z-1_2.webp', 'g.gif']) expect(isValidMediaKey(key), key).toBe(true);
    for (const key of ['', '/abs.png', '../up.png', 'a/../b.png', 'a//b.png', 'a/./b.png', 'A.png', 'a.svg', 'a.html', 'a.png/', 'a\\b.png', 'a..png'])
      expect(isValidMediaKey(key), key).toBe(false);
  });
});

describe.each([
  ['local disk', () => new LocalDiskMediaStorage(dir, '/media')],
  ['memory', () => new MemoryMediaStorage('/media')],
])('%s media storage', (_name, make) => {
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

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'media-unit-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));
