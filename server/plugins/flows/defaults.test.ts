import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import type { Message } from '../../../contract/chats';
import { FlowFieldsSchema, type Flow } from '../../../contract/flows';
import { channels, messages, rooms } from '../../core/db/schema';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { registerChatChannels } from '../chats';
import { chatService, useHubForTests } from '../chats';
import { FakeHub } from '../chats/testing';
import { ensureSandboxChannel } from '../sandbox';
import { flowsService } from '.';
import { DEFAULT_FLOW_MESSAGES } from './defaults';
import { flowChannelDefaults, flowRuns } from './schema';

const base = {
  description: 'About the shop',
  company_name: 'Acme',
  company_domain: 'acme.test',
  extra_context: [],
  intro_media_url: null,
  find_out_more_msg: '',
  find_out_more_media_url: null,
  call_to_action: null,
};

/** The channel's default: no keyword. */
const WELCOME = FlowFieldsSchema.parse({
  ...base,
  flow_name: 'Welcome',
  intro_msg: 'Welcome! This is the default flow.',
  keywords: [],
  steps: [{ step_id: 'ask', next_step_id: null, step_msg: 'What brings you here?', type: 'options', options: [{ text: 'Prices', next_step_id: null }] }],
});

/** Another flow, started by its keyword. */
const TOUR = FlowFieldsSchema.parse({
  ...base,
  flow_name: 'Tour',
  intro_msg: 'The tour starts now.',
  keywords: ['tour'],
  steps: [{ step_id: 'one', next_step_id: null, step_msg: 'First stop.', type: 'text', options: [] }],
});

describe("a channel's default flow", () => {
  let t: TestApp;
  let company: number;
  let other: number;
  let otherChannel: number;
  let key: string;
  let channelId: number;
  let welcome: Flow;
  let tour: Flow;
  let otherFlow: Flow;
  let admin: string;
  let agent: string;
  let customer = 0;
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp();
    const hub = new FakeHub();
    useHubForTests(t.app, hub);
    registerChatChannels(hub, chatService(t.app));
    company = await t.seed.company('Acme');
    other = await t.seed.company('Other');
    const channel = await ensureSandboxChannel(t.db, company);
    channelId = channel.id;
    key = channel.simulatorKey!;
    otherChannel = (await ensureSandboxChannel(t.db, other)).id;
    const adminId = await t.seed.user({ email: 'admin@acme.test' });
    const agentId = await t.seed.user({ email: 'agent@acme.test' });
    await t.seed.member(company, adminId, 'admin');
    await t.seed.member(company, agentId, 'agent');
    await t.app.ready();
    const service = flowsService(t.app);
    const save = async (companyId: number, fields: typeof WELCOME) => service.save(companyId, (await service.create(companyId, fields, 'test')).id, fields, 'test');
    welcome = await save(company, WELCOME);
    tour = await save(company, TOUR);
    otherFlow = await save(other, { ...WELCOME, flow_name: 'Theirs' });
    admin = (await t.login('admin@acme.test')).access;
    agent = (await t.login('agent@acme.test')).access;
  });
  afterAll(() => t.close());
  beforeEach(() => {
    customer++;
  });

  const put = (token: string, channel: number, body: unknown) =>
    t.app.inject({ method: 'PUT', url: `/api/flows/channel-defaults/${channel}/`, headers: t.headers(token, company), payload: body as Record<string, unknown> });
  const list = (token: string) => t.app.inject({ method: 'GET', url: '/api/flows/channel-defaults/', headers: t.headers(token, company) });

  const who = () => `default-cust-${customer}`;
  async function say(text: string) {
    const res = await t.app.inject({ method: 'POST', url: `/api/sandbox/${key}/conversations/${who()}/messages/`, payload: { name: `Customer ${customer}`, client_id: `dc-${++seq}`, text } });
    expect(res.statusCode, res.body).toBeLessThan(300);
    await chatService(t.app).settled();
    return res.json().message as Message;
  }
  async function room() {
    const [row] = await t.db.select().from(rooms).where(and(eq(rooms.channelId, channelId), eq(rooms.externalId, who())));
    return row;
  }
  async function answerTo(m: Message) {
    const rows = await t.db.select().from(messages).where(eq(messages.roomId, (await room()).id)).orderBy(asc(messages.id));
    return rows.filter((r) => r.id > m.id && r.origin === 'bot').map((r) => r.text);
  }

  it('an admin sets a default flow; the list shows it with the flows to choose from', async () => {
    const res = await put(admin, channelId, { flow_id: welcome.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ channel_id: channelId, flow_id: welcome.id });
    const listed = await list(admin);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({
      results: [{ channel_id: channelId, flow_id: welcome.id, flow_name: 'Welcome' }],
      flows: [
        { id: welcome.id, flow_name: 'Welcome' },
        { id: tour.id, flow_name: 'Tour' },
      ],
    });
    // an agent may read it (flows view) but not change it (flows manage)
    expect((await list(agent)).statusCode).toBe(200);
    expect((await put(agent, channelId, { flow_id: null })).statusCode).toBe(403);
  });

  it('a new conversation gets the default flow on its first customer message', async () => {
    const first = await say('Hello there');
    expect(await answerTo(first)).toEqual(['Welcome! This is the default flow.', 'What brings you here?']);
    expect((await t.db.select().from(flowRuns).where(eq(flowRuns.roomId, (await room()).id)))[0]).toMatchObject({ flowId: welcome.id, status: 'active', stepId: 'ask' });
  });

  it('a keyword flow still wins over the default', async () => {
    const first = await say('Tour');
    expect(await answerTo(first)).toEqual(['The tour starts now.', 'First stop.']);
    expect((await t.db.select().from(flowRuns).where(eq(flowRuns.roomId, (await room()).id)))[0]).toMatchObject({ flowId: tour.id });
  });

  it('only a NEW conversation: a later message of a conversation that had none does not start it', async () => {
    await put(admin, channelId, { flow_id: null });
    const first = await say('Hello');
    expect(await answerTo(first)).toEqual([]);
    await put(admin, channelId, { flow_id: welcome.id });
    const second = await say('Hello again');
    expect(await answerTo(second)).toEqual([]);
    expect(await t.db.select().from(flowRuns).where(eq(flowRuns.roomId, (await room()).id))).toEqual([]);
  });

  it('a paused room stays silent', async () => {
    const [channel] = await t.db.select().from(channels).where(eq(channels.id, channelId));
    await t.db.insert(rooms).values({ companyId: company, channelId: channel.id, externalId: who(), name: `Customer ${customer}`, pausedUntil: new Date(t.clock.now().getTime() + 86_400_000) });
    const first = await say('Hello, anyone?');
    expect(await answerTo(first)).toEqual([]);
    expect(await t.db.select().from(flowRuns).where(eq(flowRuns.roomId, (await room()).id))).toEqual([]);
  });

  it('clearing the default (flow_id null) leaves new conversations to the bot runtime', async () => {
    expect((await put(admin, channelId, { flow_id: null })).json()).toEqual({ channel_id: channelId, flow_id: null });
    expect((await list(admin)).json().results).toEqual([]);
    const first = await say('Hello');
    expect(await answerTo(first)).toEqual([]);
    await put(admin, channelId, { flow_id: welcome.id });
  });

  it("refuses another company's channel (404) and flow (400), and bad bodies (400)", async () => {
    expect((await put(admin, otherChannel, { flow_id: welcome.id })).statusCode).toBe(404);
    const theirs = await put(admin, channelId, { flow_id: otherFlow.id });
    expect(theirs.statusCode).toBe(400);
    expect(theirs.json()).toMatchObject({ flow_id: [DEFAULT_FLOW_MESSAGES.unknownFlow] });
    for (const body of [{}, { flow_id: 'x' }, { flow_id: -1 }, { flow_id: 1.5 }, { flow_id: welcome.id, extra: 1 }]) {
      expect((await put(admin, channelId, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await put(admin, 0, { flow_id: welcome.id })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: `/api/flows/channel-defaults/abc/`, headers: t.headers(admin, company), payload: { flow_id: null } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/flows/channel-defaults/' })).statusCode).toBe(401);
    // the other company's default is untouched
    expect(await t.db.select().from(flowChannelDefaults).where(eq(flowChannelDefaults.companyId, other))).toEqual([]);
  });

  it('deleting the flow clears the default', async () => {
    const service = flowsService(t.app);
    const temp = await service.create(company, { ...WELCOME, flow_name: 'Temporary' }, 'test');
    await put(admin, channelId, { flow_id: temp.id });
    await service.remove(company, temp.id);
    expect(await t.db.select().from(flowChannelDefaults).where(eq(flowChannelDefaults.channelId, channelId))).toEqual([]);
  });
});

