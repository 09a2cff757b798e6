import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import type { Message } from '../../../contract/chats';
import { channels, companies, messages, rooms } from '../../core/db/schema';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { InboundPipelineRunner } from './inboundPipeline';
import { InboundQueue } from './inboundQueue';
import { inboundLeases, inboundWaiting } from './schema';
import type { RoomRecord } from './views';

const message = (text: string) => ({ text, origin: 'user' }) as Message;

describe('inbound pipeline: the handlers', () => {
  it('runs handlers in ascending order until one has handled the message', async () => {
    const pipeline = new InboundPipelineRunner();
    const seen: string[] = [];
    pipeline.add({ id: 'bots', order: 200, handle: async () => (seen.push('bots'), 'handled') });
    pipeline.add({ id: 'flows', order: 100, handle: async (_room, m) => (seen.push('flows'), m.text === 'tour' ? 'handled' : 'passed') });
    expect(pipeline.order).toEqual(['flows', 'bots']);
    await pipeline.handle({ id: 1 } as RoomRecord, message('tour'));
    expect(seen).toEqual(['flows']);
    await pipeline.handle({ id: 1 } as RoomRecord, message('hi'));
    expect(seen).toEqual(['flows', 'flows', 'bots']);
  });

  it('refuses a handler id added twice', () => {
    const pipeline = new InboundPipelineRunner();
    pipeline.add({ id: 'x', order: 1, handle: async () => 'passed' });
    expect(() => pipeline.add({ id: 'x', order: 2, handle: async () => 'passed' })).toThrow(/added twice/);
  });
});

/**
 * The queue on a real database, with handlers of the test's own: the app is built without plugins,
 * so no other queue (no chats plugin) sweeps the rows these tests write. Several queues on one
 * database are several processes (each its own holder).
 */
describeEachDatabase('inbound pipeline: the queue', (database) => {
  let t: TestApp;
  let companyId: number;
  let channelId: number;
  const errors: unknown[] = [];

  beforeAll(async () => {
    t = await createTestApp({ database, plugins: [] });
    [{ id: companyId }] = await t.db.insert(companies).values({ name: 'Acme' }).returning({ id: companies.id });
    [{ id: channelId }] = await t.db.insert(channels).values({ companyId, platform: 'sandbox', name: 'Sandbox', externalId: 'sb-1' }).returning({ id: channels.id });
  });
  afterAll(() => t.close());

  let rooms_ = 0;
  async function newRoom(): Promise<number> {
    const [row] = await t.db.insert(rooms).values({ companyId, channelId, externalId: `c-${++rooms_}`, name: 'Customer' }).returning({ id: rooms.id });
    return row.id;
  }

  /** A customer's message stored with its waiting row, as ChatService.receiveInbound stores it. */
  async function store(roomId: number, text: string): Promise<Message> {
    const [row] = await t.db.insert(messages).values({ companyId, roomId, origin: 'user', text }).returning();
    await t.db.insert(inboundWaiting).values({ messageId: row.id, roomId });
    return { id: row.id, room_id: roomId, text, origin: 'user' } as Message;
  }

  function queue(handle: (room: RoomRecord, m: Message) => Promise<void>): InboundQueue {
    return new InboundQueue({
      db: t.db,
      clock: t.clock,
      log: { error: (obj) => errors.push(obj) },
      handle,
      load: async (messageId) => {
        const [row] = await t.db.select().from(messages).where(eq(messages.id, messageId));
        return row ? { room: { id: row.roomId } as RoomRecord, message: { id: row.id, room_id: row.roomId, text: row.text, origin: 'user' } as Message } : null;
      },
    });
  }

  const waitingOf = async (roomId: number) =>
    (await t.db.select().from(inboundWaiting).where(eq(inboundWaiting.roomId, roomId)).orderBy(asc(inboundWaiting.messageId))).map((r) => r.messageId);

  it("handles a room's messages one at a time in arrival order, other rooms meanwhile", async () => {
    const log: string[] = [];
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstStarted!: () => void;
    const started = new Promise<void>((resolve) => (firstStarted = resolve));
    const q = queue(async (r, m) => {
      log.push(`start ${m.text}`);
      if (m.text === 'first') {
        firstStarted();
        await firstHeld;
      }
      log.push(`end ${m.text}`);
    });
    const [one, two] = [await newRoom(), await newRoom()];
    const first = await store(one, 'first');
    const run1 = q.run({ id: one } as RoomRecord, first);
    await started;
    const second = await store(one, 'second');
    const run2 = q.run({ id: one } as RoomRecord, second);
    const other = await store(two, 'other');
    await q.run({ id: two } as RoomRecord, other);
    expect(log).toEqual(['start first', 'start other', 'end other']);
    releaseFirst();
    await Promise.all([run1, run2]);
    expect(log.slice(3)).toEqual(['end first', 'start second', 'end second']);
    expect(await waitingOf(one)).toEqual([]);
    // The lease is let go once the room is drained.
    expect(await t.db.select().from(inboundLeases).where(eq(inboundLeases.roomId, one))).toEqual([]);
  });

  it("a failing handler fails that message only: the room's next message still runs", async () => {
    const handled: string[] = [];
    const q = queue(async (_r, m) => {
      if (m.text === 'boom') throw new Error('boom');
      handled.push(m.text!);
    });
    const room = await newRoom();
    const boom = await store(room, 'boom');
    await store(room, 'fine');
    errors.length = 0;
    await q.run({ id: room } as RoomRecord, boom);
    expect(handled).toEqual(['fine']);
    expect(errors).toEqual([expect.objectContaining({ messageId: boom.id })]);
    expect(await waitingOf(room)).toEqual([]);
  });

  it('a message is handled once however often it is run (a replayed webhook, two processes)', async () => {
    const handled: number[] = [];
    const a = queue(async (_r, m) => void handled.push(m.id));
    const b = queue(async (_r, m) => void handled.push(m.id));
    const room = await newRoom();
    const stored = [await store(room, 'one'), await store(room, 'two'), await store(room, 'three')];
    await Promise.all(stored.flatMap((m) => [a.run({ id: room } as RoomRecord, m), b.run({ id: room } as RoomRecord, m), a.run({ id: room } as RoomRecord, m)]));
    expect(handled).toEqual(stored.map((m) => m.id));
    await a.run({ id: room } as RoomRecord, stored[0]);
    expect(handled).toHaveLength(3);
  });

  it('a process that finds the room leased leaves its message to the holder, which takes it before letting go', async () => {
    const log: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const started = new Promise<void>((resolve) => (holding = resolve));
    const a = queue(async (_r, m) => {
      log.push(`a ${m.text}`);
      if (m.text === 'first') {
        holding();
        await held;
      }
    });
    const b = queue(async (_r, m) => void log.push(`b ${m.text}`));
    const room = await newRoom();
    const runA = a.run({ id: room } as RoomRecord, await store(room, 'first'));
    await started;
    // B stores the next message while A holds the room: B cannot take the lease and returns at once.
    await b.run({ id: room } as RoomRecord, await store(room, 'second'));
    expect(log).toEqual(['a first']);
    release();
    await runA;
    expect(log).toEqual(['a first', 'a second']);
    expect(await waitingOf(room)).toEqual([]);
  });

  it("a holder that died: its lease runs out by the clock and another process's sweep answers the message once", async () => {
    const answered: string[] = [];
    let died!: () => void;
    const dead = new Promise<void>((_resolve, reject) => (died = () => reject(new Error('killed'))));
    let inside!: () => void;
    const started = new Promise<void>((resolve) => (inside = resolve));
    // A takes the room and never finishes (killed mid-answer).
    const a = queue(async () => {
      inside();
      await dead;
    });
    const b = queue(async (_r, m) => void answered.push(`b ${m.text}`));
    const room = await newRoom();
    const stored = await store(room, 'hello');
    const runA = a.run({ id: room } as RoomRecord, stored);
    await started;
    // While A's lease lives, B's sweep leaves the room alone.
    await b.sweepNow();
    expect(answered).toEqual([]);
    t.clock.advance(a.leaseMs + 1);
    await b.sweepNow();
    expect(answered).toEqual(['b hello']);
    expect(await waitingOf(room)).toEqual([]);
    // A's handler ends at last: it does not hold the room any more, and nothing is answered twice.
    died();
    await runA;
    await b.sweepNow();
    await a.sweepNow();
    expect(answered).toEqual(['b hello']);
  });
});
