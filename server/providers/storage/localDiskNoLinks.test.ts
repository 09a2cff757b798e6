import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';

// A file system without hard links (some network and FUSE mounts): link(2) fails with EPERM.
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return { ...actual, link: vi.fn(async () => Promise.reject(Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' }))) };
});

// The server project shares modules between files (isolate: false, vite.config.ts): the storage module may
// already be loaded with the real link(2), so it is loaded afresh here, under the mock.
vi.resetModules();
const { LocalDiskMediaStorage } = await import('./localDisk');
const { MediaExistsError } = await import('./types');

const dir = await mkdtemp(path.join(tmpdir(), 'media-nolinks-'));
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  // The next file this worker runs gets the real file system and modules loaded without the mock.
  vi.doUnmock('node:fs/promises');
  vi.resetModules();
});

it('without hard links a create-only put still creates once (exclusive copy) and leaves no temporary file', async () => {
  const storage = new LocalDiskMediaStorage(dir, '/media');
  await storage.put('chats/1/aa/x.png', Buffer.from('first'), 'image/png', { createOnly: true });
  await expect(storage.put('chats/1/aa/x.png', Buffer.from('second'), 'image/png', { createOnly: true })).rejects.toBeInstanceOf(MediaExistsError);
  expect((await storage.get('chats/1/aa/x.png'))!.bytes.toString()).toBe('first');
  const { link, readdir } = await import('node:fs/promises');
  expect(link).toHaveBeenCalledTimes(2);
  expect(await readdir(path.join(dir, 'chats', '1', 'aa'))).toEqual(['x.png']);
});
