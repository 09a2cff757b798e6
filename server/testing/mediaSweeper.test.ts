/** The media sweeper over the whole app: every plugin's media references (chats, flows, bots, broadcasts) keep their uploads; lives in server/testing because it reads several plugins' tables. */
import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './testApp';
import { channels, messages, rooms, users } from '../core/db/schema';
import { flows, flowVersions } from '../plugins/flows/schema';
import { bots, botSteps } from '../plugins/bots/schema';
import { broadcasts } from '../plugins/broadcasts/schema';
import type { FlowFields } from '../../contract/flows';
import { startFakeS3, type FakeS3 } from '../providers/storage/fakeS3';
import { LocalDiskMediaStorage } from '../providers/storage/localDisk';
import { MemoryMediaStorage } from '../providers/storage/memory';
import { S3MediaStorage } from '../providers/storage/s3';
import { MediaReferences, SWEEP_GRACE_MS, mediaReferencesRef, sweepUnreferencedMedia, type SweepOptions } from '../providers/storage/sweeper';
import type { MediaStorage } from '../providers/storage/types';

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
let channelId: number;
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
  channelId = channel.id;
  fake = await startFakeS3({ buckets: ['media'], now: () => t.clock.now() });
  dir = await mkdtemp(path.join(tmpdir(), 'media-sweep-'));
});
afterAll(async () => {
  await t.close();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

/** A sweep with the test app's references (the ones its plugins registered). */
const sweep = (options: Omit<SweepOptions, 'db' | 'clock' | 'references'> & Partial<SweepOptions>) =>
  sweepUnreferencedMedia({ db: t.db, clock: t.clock, references: t.app.services.get(mediaReferencesRef), ...options });

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
  it('deletes old chat uploads no row references and replaced avatars, keeps the rest', async () => {
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
      // Uploads of the flow editor, the bot canvas and the broadcast form (the same presigned URL as chat attachments).
      flowIntro: `${c}/00000000000000000000000000000010/intro.png`,
      flowFindOutMore: `${c}/00000000000000000000000000000011/more.png`,
      flowVersionIntro: `${c}/00000000000000000000000000000012/old-intro.png`,
      flowVersionFindOutMore: `${c}/00000000000000000000000000000013/old-more.pdf`,
      botStep: `${c}/00000000000000000000000000000014/step.png`,
      botStepSigned: `${c}/00000000000000000000000000000015/step2.png`,
      broadcastHeader: `${c}/00000000000000000000000000000016/header.png`,
      // Replaced in the flow and in no version: nothing names it any more.
      flowReplaced: `${c}/00000000000000000000000000000017/replaced.png`,
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

    // Rows store the plain URL; older ones may hold a signed one (local `?exp=&sig=`, a SigV4 GET): the query is ignored.
    await t.db.delete(flows);
    const [flow] = await t.db
      .insert(flows)
      .values({
        companyId: company,
        flowName: 'Welcome',
        description: 'd',
        companyName: 'Acme',
        companyDomain: 'acme.test',
        introMediaUrl: `/media/${keys.flowIntro}?exp=1700000000&sig=abcdef`,
        findOutMoreMediaUrl: `https://cdn.example.com/${keys.flowFindOutMore}`,
      })
      .returning();
    const snapshot = (intro: string | null, more: string | null) => ({ intro_media_url: intro, find_out_more_media_url: more, steps: [] }) as unknown as FlowFields;
    await t.db.insert(flowVersions).values([
      { flowId: flow.id, companyId: company, version: 1, kind: 'create', createdBy: 'test', snapshot: snapshot(`http://console.test/media/${keys.flowVersionIntro}`, null) },
      {
        flowId: flow.id,
        companyId: company,
        version: 2,
        kind: 'save',
        createdBy: 'test',
        snapshot: snapshot(null, `https://media.s3.example.com/${keys.flowVersionFindOutMore}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=00`),
      },
    ]);
    await t.db.delete(bots);
    const [bot] = await t.db.insert(bots).values({ companyId: company, name: 'Helper' }).returning();
    await t.db.insert(botSteps).values([
      { botId: bot.id, id: 'start', messages: [{ text: 'Hello', media_url: null, type: 'text' }, { text: '', media_url: `/media/${keys.botStep}`, type: 'image' }] },
      { botId: bot.id, id: 'next', messages: [{ text: '', media_url: `http://console.test/media/${keys.botStepSigned}?exp=1&sig=00#x`, type: 'image' }] },
      { botId: bot.id, id: 'empty', messages: [] },
    ]);
    await t.db.delete(broadcasts);
    await t.db.insert(broadcasts).values([
      { companyId: company, channelId, name: 'Promo', templateName: 'promo', templateLanguage: 'en', variables: { body: {} }, audienceType: 'csv', headerMediaUrl: `/media/${keys.broadcastHeader}` },
      { companyId: company, channelId, name: 'Plain', templateName: 'plain', templateLanguage: 'en', variables: { body: {} }, audienceType: 'csv' },
    ]);

    const result = await sweep({ storage });
    expect(result.deleted.sort()).toEqual([keys.neverSent, keys.neverSentOtherCompany, keys.lookalike, keys.inboundOrphan, keys.flowReplaced, keys.oldAvatar].sort());
    expect(result.checked).toBe(17);
    for (const key of [
      keys.sent,
      keys.sentWithQuery,
      keys.fresh,
      keys.inbound,
      keys.flowIntro,
      keys.flowFindOutMore,
      keys.flowVersionIntro,
      keys.flowVersionFindOutMore,
      keys.botStep,
      keys.botStepSigned,
      keys.broadcastHeader,
      keys.avatar,
      keys.other,
    ]) {
      expect(await exists(key), key).toBe(true);
    }
    for (const key of result.deleted) expect(await exists(key), key).toBe(false);

    // A second sweep finds nothing more to do; later, the fresh one has aged and goes too.
    expect((await sweep({ storage })).deleted).toEqual([]);
    t.clock.advance(2 * HOUR);
    expect((await sweep({ storage })).deleted).toEqual([keys.fresh]);

    // Once the rows are gone (flow, its versions, the bot, the broadcast deleted), their uploads go too.
    await t.db.delete(flows);
    await t.db.delete(bots);
    await t.db.delete(broadcasts);
    expect((await sweep({ storage })).deleted.sort()).toEqual(
      [keys.flowIntro, keys.flowFindOutMore, keys.flowVersionIntro, keys.flowVersionFindOutMore, keys.botStep, keys.botStepSigned, keys.broadcastHeader].sort(),
    );
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
    const result = await sweep({ storage, newerThan: new Date(now - SWEEP_GRACE_MS - 2 * HOUR) });
    expect(result.deleted).toEqual([recent]);
    expect(await exists(older)).toBe(true);
  });
});

describe('media references', () => {
  it('are registered by the plugins whose rows keep chat uploads', () => {
    expect(t.app.services.get(mediaReferencesRef).names.sort()).toEqual(
      ['broadcasts.header_media_url', 'bot_drafts.content', 'bot_steps.messages', 'bot_versions.snapshot', 'flow_versions.snapshot', 'flows.find_out_more_media_url', 'flows.intro_media_url', 'messages'].sort(),
    );
  });

  it('none registered: chat uploads are left alone (they would all look unused), avatars still swept', async () => {
    const storage = new MemoryMediaStorage('/media');
    const upload = `chats/${company}/0000000000000000000000000000001f/x.png`;
    const avatar = `avatars/${userId}/0000000000000000000000000000001f.png`;
    for (const key of [upload, avatar]) {
      await storage.put(key, PNG, 'image/png');
      storage.modified.set(key, new Date(0));
    }
    const result = await sweepUnreferencedMedia({ storage, db: t.db, clock: t.clock, references: new MediaReferences() });
    expect(result.deleted).toEqual([avatar]);
    expect(storage.objects.has(upload)).toBe(true);
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
