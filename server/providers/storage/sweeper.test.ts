import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { channels, messages, rooms, users } from '../../core/db/schema';
import { startFakeS3, type FakeS3 } from './fakeS3';
import { LocalDiskMediaStorage } from './localDisk';
import { MemoryMediaStorage } from './memory';
import { S3MediaStorage } from './s3';
import { SWEEP_GRACE_MS, sweepUnreferencedMedia } from './sweeper';
import type { MediaStorage } from './types';

const PNG = Buffer.from('\x89PNG\r\n\x1a\nbytes');
const HOUR = 3600_000;

interface Adapter {
  storage: MediaStorage;
  /** Sets when the object was written. */
  age(key: string, at: Date): Promise<void>;
  exists(key: string): Promise<boolean>;
}

let t: TestApp;
let company: number;
let roomId: number;
let userId: number;
let fake: FakeS3;
let dir: string;

beforeAll(async () => {
  t = await createTestApp();
  company = await t.seed.company('Acme');
  userId = await t.seed.user({ email: 'agent@acme.test' });
  const [channel] = await t.db.insert(channels).values({ companyId: company, platform: 'sandbox', name: 'Sandbox', externalId: `sandbox-${company}` }).returning();
  const [room] = await t.db.insert(rooms).values({ companyId: company, channelId: channel.id, externalId: 'customer-1', name: 'Customer' }).returning();
  roomId = room.id;
  fake = await startFakeS3({ buckets: ['media'], now: () => t.clock.now() });
  dir = await mkdtemp(path.join(tmpdir(), 'media-sweep-'));
});
afterAll(async () => {
  await t.close();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

const adapters: [string, () => Adapter][] = [
  [
    'local disk',
    () => {
      const root = path.join(dir, String(Math.random()).slice(2));
      const storage = new LocalDiskMediaStorage(root, '/media');
      return {
        storage,
        age: (key, at) => utimes(path.join(root, key), at, at),
        exists: async (key) => (await storage.get(key)) !== null,
      };
    },
  ],
  [
    'S3',
    () => {
      fake.objects.clear();
      const storage = new S3MediaStorage(
        { bucket: 'media', region: fake.region, endpoint: fake.url, accessKeyId: fake.accessKeyId, secretAccessKey: fake.secretAccessKey, forcePathStyle: true, publicUrl: 'https://cdn.example.com' },
        t.clock,
      );
      return {
        storage,
        age: async (key, at) => fake.setLastModified('media', key, at),
        exists: async (key) => fake.object('media', key) !== undefined,
      };
    },
  ],
  [
    'memory',
    () => {
      const storage = new MemoryMediaStorage('/media');
      return {
        storage,
        age: async (key, at) => void storage.modified.set(key, at),
        exists: async (key) => storage.objects.has(key),
      };
    },
  ],
];

describe.each(adapters)('media sweeper on the %s storage', (_name, make) => {
  it('deletes old chat uploads no message references and replaced avatars, keeps the rest', async () => {
    const { storage, age, exists } = make();
    const c = `chats/${company}`;
    const keys = {
      sent: `${c}/00000000000000000000000000000001/photo.png`,
      sentWithQuery: `${c}/00000000000000000000000000000002/doc.v2.pdf`,
      neverSent: `${c}/00000000000000000000000000000003/photo.png`,
      neverSentOtherCompany: `chats/999999/00000000000000000000000000000004/x.png`,
      fresh: `${c}/00000000000000000000000000000005/new.png`,
      // Same file name as a sent one under another random segment: not referenced.
      lookalike: `${c}/00000000000000000000000000000009/photo.png`,
      // Media received from Meta, named by its message with a same-origin path.
      inbound: `${c}/inbound/3f2b8c1e-0000-4000-8000-000000000001.png`,
      inboundOrphan: `${c}/inbound/3f2b8c1e-0000-4000-8000-000000000002.png`,
      avatar: `avatars/${userId}/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.png`,
      oldAvatar: `avatars/${userId}/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.png`,
      other: 'logos/7/keep.png',
    };
    for (const key of Object.values(keys)) await storage.put(key, PNG, key.endsWith('.pdf') ? 'application/pdf' : 'image/png');
    const old = new Date(t.clock.now().getTime() - SWEEP_GRACE_MS - HOUR);
    for (const key of Object.values(keys)) if (key !== keys.fresh) await age(key, old);
    await age(keys.fresh, new Date(t.clock.now().getTime() - SWEEP_GRACE_MS + HOUR));

    await t.db.delete(messages);
    await t.db.insert(messages).values([
      { companyId: company, roomId, origin: 'agent', type: 'image', mediaUrl: `https://cdn.example.com/${keys.sent}` },
      { companyId: company, roomId, origin: 'agent', type: 'file', mediaUrl: `http://console.test/media/${keys.sentWithQuery}?download=1` },
      { companyId: company, roomId, origin: 'user', type: 'image', mediaUrl: 'https://lookaside.example.com/photo.png' },
      { companyId: company, roomId, origin: 'user', type: 'image', mediaUrl: `/media/${keys.inbound}` },
      { companyId: company, roomId, origin: 'agent', type: 'text', text: 'hi' },
    ]);
    await t.db.update(users).set({ profileAvatar: keys.avatar }).where(eq(users.id, userId));

    const result = await sweepUnreferencedMedia({ storage, db: t.db, clock: t.clock });
    expect(result.deleted.sort()).toEqual([keys.neverSent, keys.neverSentOtherCompany, keys.lookalike, keys.inboundOrphan, keys.oldAvatar].sort());
    expect(result.checked).toBe(9);
    for (const key of [keys.sent, keys.sentWithQuery, keys.fresh, keys.inbound, keys.avatar, keys.other]) expect(await exists(key), key).toBe(true);
    for (const key of result.deleted) expect(await exists(key), key).toBe(false);

    // A second sweep finds nothing more to do; later, the fresh one has aged and goes too.
    expect((await sweepUnreferencedMedia({ storage, db: t.db, clock: t.clock })).deleted).toEqual([]);
    t.clock.advance(2 * HOUR);
    expect((await sweepUnreferencedMedia({ storage, db: t.db, clock: t.clock })).deleted).toEqual([keys.fresh]);
  });

  it('only checks objects written since `newerThan` (the hourly windowed sweeps)', async () => {
    const { storage, age, exists } = make();
    const older = `chats/${company}/0000000000000000000000000000000a/a.png`;
    const recent = `chats/${company}/0000000000000000000000000000000b/b.png`;
    await storage.put(older, PNG, 'image/png');
    await storage.put(recent, PNG, 'image/png');
    const now = t.clock.now().getTime();
    await age(older, new Date(now - SWEEP_GRACE_MS - 5 * HOUR));
    await age(recent, new Date(now - SWEEP_GRACE_MS - HOUR));
    const result = await sweepUnreferencedMedia({ storage, db: t.db, clock: t.clock, newerThan: new Date(now - SWEEP_GRACE_MS - 2 * HOUR) });
    expect(result.deleted).toEqual([recent]);
    expect(await exists(older)).toBe(true);
  });
});

describe('media sweeper in the app', () => {
  it('runs when the app is ready (and again on each start), and stops with it', async () => {
    const storage = new MemoryMediaStorage('/media');
    const app = await createTestApp({ config: { mediaSweepIntervalMs: HOUR }, overrides: { MediaStorage: storage } });
    try {
      const acme = await app.seed.company('Acme');
      const stale = `chats/${acme}/0000000000000000000000000000000c/stale.png`;
      const kept = `avatars/1/0000000000000000000000000000000d.png`;
      await storage.put(stale, PNG, 'image/png');
      await storage.put(kept, PNG, 'image/png');
      storage.modified.set(stale, new Date(app.clock.now().getTime() - 2 * SWEEP_GRACE_MS));
      await app.restart();
      for (let i = 0; i < 100 && storage.objects.has(stale); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(storage.objects.has(stale)).toBe(false);
      expect(storage.objects.has(kept)).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('is off with mediaSweepIntervalMs 0 (the test default)', async () => {
    const storage = new MemoryMediaStorage('/media');
    const stale = 'chats/1/0000000000000000000000000000000e/stale.png';
    await storage.put(stale, PNG, 'image/png');
    storage.modified.set(stale, new Date(0));
    const app = await createTestApp({ overrides: { MediaStorage: storage } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await app.close();
    expect(storage.objects.has(stale)).toBe(true);
  });
});
