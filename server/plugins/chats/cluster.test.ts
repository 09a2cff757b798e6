/**
 * Two server apps on ONE PostgreSQL database, each with its own connection pool and clock: two
 * processes behind a balancer (issue #21). Customers writing fast through both get every bot and flow
 * answer once and in order; a process killed mid-answer leaves the message to the other, which answers
 * it once when the lease runs out; an outgoing message in retry on one process is not sent again by
 * another's start, and is sent exactly once after the first dies. Runs only when TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { FlowFieldsSchema } from '../../../contract/flows';
import type { Message } from '../../../contract/chats';
import { messages, rooms } from '../../core/db/schema';
import { defineServerPlugin } from '../../core/plugins';
import { serverPlugins } from '../../plugins.config';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { botChannels, bots, botSteps, stepOptions } from '../bots/testing';
import { flowsService } from '../flows';
import { ensureSandboxChannel } from '../sandbox';
import { inboundWaiting } from './schema';
import { chatInboundQueueRef, chatService, inboundPipelineExtensionPoint, type ChannelProvider, type RoomRecord } from '.';

const enabled = !!process.env.TEST_DATABASE_URL;

/** The sandbox's outbound side on both apps: counts every send, and refuses (retryably) when told to. */
class CountingProvider implements ChannelProvider {
  readonly sends: { app: string; messageId: number }[] = [];
  refuseNext = 0;
  constructor(private readonly app: string) {}
  async send(_room: RoomRecord, message: Message) {
    this.sends.push({ app: this.app, messageId: message.id });
    if (this.refuseNext > 0) {
      this.refuseNext--;
      throw Object.assign(new Error('Rate limited'), { retryable: true });
    }
    return { external_id: `fake-${message.id}-${this.sends.length}` };
  }
}

/**
 * App A's first pipeline step, which the tests use to make A slow (a loaded process: its answers come
 * after B has stored the customers' next messages) or to stall it for good (a process killed mid-answer).
 */
let stallA: ((room: RoomRecord) => Promise<void>) | null = null;
const stallPlugin = defineServerPlugin({
  id: 'stall',
  deps: { pipeline: inboundPipelineExtensionPoint },
  init({ pipeline }) {
    pipeline.add({
      id: 'stall',
      order: 1,
      handle: async (room) => {
        await stallA?.(room);
        return 'passed';
      },
    });
  },
});

const FLOW = FlowFieldsSchema.parse({
  flow_name: 'Shop tour',
  description: 'About the shop',
  company_name: 'Acme',
  company_domain: 'acme.test',
  extra_context: [],
  intro_msg: 'Welcome to the tour!',
  intro_media_url: null,
  find_out_more_msg: 'More on acme.test.',
  find_out_more_media_url: null,
  call_to_action: null,
  keywords: ['tour'],
  steps: [{ step_id: 'only', next_step_id: null, step_msg: 'That was the tour.', type: 'text', options: [] }],
});

describe.skipIf(!enabled)('two apps on one PostgreSQL database', () => {
  let a: TestApp;
  let b: TestApp;
  const providers: Record<string, CountingProvider> = { a: new CountingProvider('a'), b: new CountingProvider('b'), c: new CountingProvider('c') };
  let company: number;
  let channelId: number;
  let key: string;
  let agent: number;

  beforeAll(async () => {
    a = await createTestApp({ database: 'postgres', plugins: [...serverPlugins, stallPlugin], onBuild: (app) => chatService(app).registerProvider('sandbox', providers.a) });
    b = await createTestApp({ sameDatabaseAs: a, onBuild: (app) => chatService(app).registerProvider('sandbox', providers.b) });
    company = await a.seed.company('Acme');
    agent = await a.seed.user({ email: 'agent@acme.test', firstName: 'Alex' });
    await a.seed.member(company, agent, 'agent');
    const channel = await ensureSandboxChannel(a.db, company);
    channelId = channel.id;
    key = channel.simulatorKey!;
    // The bot: a greeting offering the opening hours.
    const [bot] = await a.db.insert(bots).values({ companyId: company, name: 'Shop', startStepId: 'start', fallbackStepId: null }).returning({ id: bots.id });
    await a.db.insert(botSteps).values([
      { botId: bot.id, id: 'start', messages: [{ text: 'Welcome!', media_url: null, type: 'text' }], nextStepId: null, actions: [], inputVariable: null, position: 0 },
      { botId: bot.id, id: 'hours', messages: [{ text: 'We are open 9:00 to 19:00.', media_url: null, type: 'text' }], nextStepId: null, actions: [], inputVariable: null, position: 1 },
    ]);
    await a.db.insert(stepOptions).values({ botId: bot.id, id: 'o-hours', stepId: 'start', text: 'Opening hours', nextStep: 'hours', position: 0 });
    await a.db.insert(botChannels).values({ botId: bot.id, channelId, companyId: company });
    // The flow: "tour" starts it (it answers before the bot).
    const flows = flowsService(a.app);
    const created = await flows.create(company, FLOW, 'test');
    await flows.save(company, created.id, FLOW, 'test');
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  async function write(t: TestApp, who: string, text: string): Promise<Message> {
    const res = await t.app.inject({ method: 'POST', url: `/api/sandbox/${key}/conversations/${who}/messages/`, payload: { name: who, client_id: `${who}-${text}`, text } });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json().message as Message;
  }

  async function settled(): Promise<void> {
    // Each app's chats settle its own drains and deliveries; a drain of one may have left work to the other's.
    for (let i = 0; i < 3; i++) await Promise.all([chatService(a.app).settled(), chatService(b.app).settled()]);
  }

  /** The room's answers (bot and flow messages) as [the customer message they answer, text], in the order stored. */
  async function answers(who: string): Promise<[number, string | null][]> {
    const [room] = await a.db.select().from(rooms).where(and(eq(rooms.channelId, channelId), eq(rooms.externalId, who)));
    const rows = await a.db.select().from(messages).where(eq(messages.roomId, room.id)).orderBy(asc(messages.id));
    return rows.filter((r) => r.origin === 'bot').map((r) => [Number(r.clientId!.split(':')[1]), r.text]);
  }

  it('a dozen customers writing fast through both apps each get exactly one answer per message, in order', async () => {
    const customers = Array.from({ length: 12 }, (_, i) => `fast-${i}`);
    // A is loaded: what it handles waits until every message is stored. Handled where it arrived (the
    // old per-process serialisation), B would answer the later messages first and A's earlier ones
    // would then be taken for answered replays and dropped.
    let ready!: () => void;
    const allStored = new Promise<void>((resolve) => (ready = resolve));
    stallA = () => allStored;
    // Each customer writes three messages in a row, alternately through A and B, without waiting for
    // the answers; all customers at once. "hi" and "Opening hours" are the bot's, "tour" the flow's.
    const sent = await Promise.all(
      customers.map(async (who, i) => {
        const [first, second] = i % 2 === 0 ? [a, b] : [b, a];
        return [await write(first, who, 'hi'), await write(second, who, 'Opening hours'), await write(first, who, 'tour')];
      }),
    );
    ready();
    stallA = null;
    await settled();
    for (const [i, who] of customers.entries()) {
      const [hi, hours, tour] = sent[i];
      expect(await answers(who), who).toEqual([
        [hi.id, 'Welcome!'],
        [hours.id, 'We are open 9:00 to 19:00.'],
        [tour.id, 'Welcome to the tour!'],
        [tour.id, 'That was the tour.'],
        [tour.id, 'More on acme.test.'],
      ]);
    }
    // Nothing is left waiting, and a replayed webhook (the same message again, through the other app) answers nothing more.
    expect(await a.db.select().from(inboundWaiting)).toEqual([]);
    await write(b, customers[0], 'hi');
    await write(a, customers[1], 'hi');
    await settled();
    expect(await answers(customers[0])).toHaveLength(5);
    expect(await answers(customers[1])).toHaveLength(5);
  });

  it('the process answering a customer dies: when its lease runs out the other app answers the message, once', async () => {
    let reached!: () => void;
    const inside = new Promise<void>((resolve) => (reached = resolve));
    let kill!: (err: Error) => void;
    const killed = new Promise<never>((_resolve, reject) => (kill = reject));
    killed.catch(() => {});
    stallA = async (room) => {
      if (room.externalId !== 'frozen') return;
      reached();
      await killed;
    };
    // A stores the message, takes the room and stalls inside its pipeline.
    const hi = await write(a, 'frozen', 'hi');
    await inside;
    const queueB = b.app.services.get(chatInboundQueueRef);
    // B's sweep leaves the room alone while A's lease lives…
    await queueB.sweepNow();
    expect(await answers('frozen')).toEqual([]);
    // …and takes it over once the lease has run out by B's clock.
    b.clock.advance(a.app.services.get(chatInboundQueueRef).leaseMs + 1_000);
    await queueB.sweepNow();
    // (A's own run is still stalled: only B is waited for.)
    await chatService(b.app).settled();
    expect(await answers('frozen')).toEqual([[hi.id, 'Welcome!']]);
    // A's stalled run ends (the "dead" process would never come back; this one fails): nothing more is answered.
    kill(new Error('killed'));
    stallA = null;
    await settled();
    await a.app.services.get(chatInboundQueueRef).sweepNow();
    expect(await answers('frozen')).toEqual([[hi.id, 'Welcome!']]);
  });

  it("an agent's message in retry on A is not sent by another app's start; after A dies it is sent exactly once", async () => {
    const [{ id: roomId }] = await a.db.insert(rooms).values({ companyId: company, channelId, externalId: 'outbound', name: 'Customer' }).returning({ id: rooms.id });
    const chatsA = chatService(a.app);
    const room = (await chatsA.roomRecord(roomId))!;
    // Meta refuses once (rate limit); A's retry waits ten minutes.
    chatsA.deliveryBackoff = { firstMs: 600_000, maxMs: 600_000 };
    providers.a.refuseNext = 1;
    const { message } = await chatsA.sendMessage({ userId: agent, email: 'agent@acme.test', name: 'Alex', companyId: company, role: 'agent' }, room, { text: 'Your order shipped', client_id: 'agent-1' });
    await chatsA.settled();
    const sendsOf = () => Object.values(providers).flatMap((p) => p.sends.filter((s) => s.messageId === message.id).map((s) => s.app));
    expect(sendsOf()).toEqual(['a']);
    expect(chatsA.retriesScheduled()).toBe(1);
    // It has been in retry for 30 s when another process starts (the old rule re-sent pending messages older than 10 s).
    await a.db.update(messages).set({ createdAt: sql`${messages.createdAt} - interval '30 seconds'` }).where(eq(messages.id, message.id));
    const c = await createTestApp({ sameDatabaseAs: a, onBuild: (app) => chatService(app).registerProvider('sandbox', providers.c) });
    try {
      const chatsC = chatService(c.app);
      await chatsC.settled();
      expect(sendsOf()).toEqual(['a']);
      expect(await chatsC.resumePending()).toBe(0);
      // A dies with its retry waiting: its lease (the wait and one attempt) runs out by C's and B's clocks.
      const leaseOver = 600_000 + chatsA.deliveryLeaseMs + 1_000;
      c.clock.advance(leaseOver);
      b.clock.advance(leaseOver);
      // Both surviving processes resume at the same moment: one claims it, one send.
      await Promise.all([chatsC.resumePending(), chatService(b.app).resumePending()]);
      await Promise.all([chatsC.settled(), chatService(b.app).settled()]);
      expect(sendsOf()).toHaveLength(2);
      expect(sendsOf()[0]).toBe('a');
      const [row] = await a.db.select().from(messages).where(eq(messages.id, message.id));
      expect(row.status).toBe('sent');
      // Later passes anywhere send nothing more.
      await Promise.all([chatsC.resumePending(), chatService(b.app).resumePending(), chatsA.resumePending()]);
      await Promise.all([chatsC.settled(), chatService(b.app).settled(), chatsA.settled()]);
      expect(sendsOf()).toHaveLength(2);
    } finally {
      await c.close();
    }
  });
});
