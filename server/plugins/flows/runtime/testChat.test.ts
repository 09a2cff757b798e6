import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TestChatResponse } from '../../../../contract/botRuntime';
import type { FlowFields } from '../../../../contract/flows';
import { messages } from '../../../core/db/schema';
import { createTestApp, type TestApp } from '../../../testing/testApp';
import { flowsService } from '..';
import { flowRuns, flowStepVisits } from '../schema';
import { HAND_OVER_TEXT, optionButtonId } from './engine';
import { runFlowTestChat } from './testChat';

const CREATE = { flow_name: 'Shop tour', description: 'About the shop', company_name: 'Acme', company_domain: 'acme.test', extra_context: ['Returns are free within 30 days.'] };
const CONTENT: Omit<FlowFields, keyof typeof CREATE> = {
  intro_msg: 'Welcome to the Acme tour!',
  intro_media_url: 'https://cdn.acme.test/intro.png',
  find_out_more_msg: 'More on acme.test.',
  find_out_more_media_url: null,
  call_to_action: 'Shop now',
  keywords: ['shoptour'],
  steps: [
    { step_id: 'pick', next_step_id: null, step_msg: 'What interests you?', type: 'options', options: [{ text: 'Products', next_step_id: 'products' }, { text: 'Delivery', next_step_id: 'delivery' }] },
    { step_id: 'products', next_step_id: null, step_msg: 'Lamps and linen.', type: 'text', options: [] },
    { step_id: 'delivery', next_step_id: null, step_msg: 'Fast delivery.', type: 'text', options: [] },
  ],
};

describe('runFlowTestChat (pure)', () => {
  const flow = { ...CREATE, ...CONTENT, id: 1 };
  const none = { state: null, reset: false, text: null, button_id: null };
  it('starts with the intro, its media and the first question; a button goes on to the end with the call to action', () => {
    const first = runFlowTestChat(flow, none, (u) => u);
    expect(first.messages.map((m) => [m.type, m.text, m.step_id])).toEqual([
      ['text', 'Welcome to the Acme tour!', null],
      ['image', null, null],
      ['interactive', 'What interests you?', 'pick'],
    ]);
    expect(first.state).toEqual({ step_id: 'pick', fallback_count: 0, handed_over: false, variables: {} });
    const end = runFlowTestChat(flow, { ...none, state: first.state, button_id: optionButtonId('pick', 0) }, (u) => u);
    expect(end.messages.map((m) => m.text)).toEqual(['Lamps and linen.', 'Fast delivery.', 'More on acme.test.', 'Shop now: https://acme.test']);
    expect(end.messages[0].step_id).toBe('products');
    expect(end).toMatchObject({ step_id: null, visited: ['products', 'delivery'], handed_over: false });
    // ended: silent, until a keyword starts it again
    expect(runFlowTestChat(flow, { ...none, state: end.state, text: 'hello' }, (u) => u).messages).toEqual([]);
    expect(runFlowTestChat(flow, { ...none, state: end.state, text: ' ShopTour ' }, (u) => u).step_id).toBe('pick');
    // another flow's keyword (looked up by the route): that flow would take over
    expect(runFlowTestChat(flow, { ...none, state: first.state, text: 'returns' }, (u) => u, { flow_name: 'Returns' })).toMatchObject({ messages: [], step_id: null, actions: [{ type: 'start_flow' }] });
  });
  it('answers free text from extra_context and asks again; "agent" hands over, then silence until reset', () => {
    const first = runFlowTestChat(flow, none, (u) => u);
    const free = runFlowTestChat(flow, { ...none, state: first.state, text: 'can I return it?' }, (u) => u);
    expect(free.messages.map((m) => m.text)).toEqual(['Returns are free within 30 days.', 'What interests you?']);
    const over = runFlowTestChat(flow, { ...none, state: free.state, text: 'agent' }, (u) => u);
    expect(over).toMatchObject({ messages: [{ text: HAND_OVER_TEXT }], handed_over: true, step_id: null });
    expect(runFlowTestChat(flow, { ...none, state: over.state, text: 'hi' }, (u) => u).messages).toEqual([]);
    expect(runFlowTestChat(flow, { ...none, state: over.state, reset: true }, (u) => u).step_id).toBe('pick');
  });
});

describe('flow test chat (POST /api/flows/{id}/test-chat/)', () => {
  let t: TestApp;
  let company: number;
  let admin: string;
  let agent: string;
  let flowId: number;
  let foreignFlowId: number;
  let otherCompany: number;

  beforeAll(async () => {
    t = await createTestApp();
    company = await t.seed.company('Acme');
    const other = (otherCompany = await t.seed.company('Other'));
    await t.seed.member(company, await t.seed.user({ email: 'boss@acme.test' }), 'admin');
    await t.seed.member(company, await t.seed.user({ email: 'agent@acme.test' }), 'agent');
    admin = (await t.login('boss@acme.test')).access;
    agent = (await t.login('agent@acme.test')).access;
    const service = flowsService(t.app);
    const flow = await service.create(company, CREATE, 'test');
    flowId = (await service.save(company, flow.id, { ...CREATE, ...CONTENT }, 'test')).id;
    foreignFlowId = (await service.create(other, { ...CREATE, flow_name: 'Theirs' }, 'test')).id;
  });
  afterAll(() => t.close());

  const chat = (body: unknown, id: number | string = flowId, token = admin) =>
    t.app.inject({ method: 'POST', url: `/api/flows/${id}/test-chat/`, headers: t.headers(token, company), payload: body as Record<string, unknown> });

  it('runs the stored flow: intro, question, a button, the end; stores no message, run or visit', async () => {
    const start = await chat({});
    expect(start.statusCode, start.body).toBe(200);
    const first = start.json() as TestChatResponse;
    expect(first.messages.map((m) => m.text)).toEqual(['Welcome to the Acme tour!', null, 'What interests you?']);
    expect(first.messages[1]).toMatchObject({ type: 'image', media_url: 'https://cdn.acme.test/intro.png' });
    expect(first.messages[2].buttons).toEqual([
      { id: optionButtonId('pick', 0), title: 'Products' },
      { id: optionButtonId('pick', 1), title: 'Delivery' },
    ]);
    const next = (await chat({ state: first.state, button_id: optionButtonId('pick', 1) })).json() as TestChatResponse;
    expect(next.messages.map((m) => m.text)).toEqual(['Fast delivery.', 'More on acme.test.', 'Shop now: https://acme.test']);
    expect(next.step_id).toBeNull();
    expect(await t.db.select().from(messages).where(eq(messages.companyId, company))).toEqual([]);
    expect(await t.db.select().from(flowRuns).where(eq(flowRuns.flowId, flowId))).toEqual([]);
    expect(await t.db.select().from(flowStepVisits).where(eq(flowStepVisits.flowId, flowId))).toEqual([]);
  });

  it("another flow's keyword, during the flow or after its end, says that flow would start (issue #25); the flow's own keyword and a new chat still start this one", async () => {
    const service = flowsService(t.app);
    const returns = await service.create(company, { ...CREATE, flow_name: 'Returns' }, 'test');
    await service.save(company, returns.id, { ...CREATE, ...CONTENT, flow_name: 'Returns', keywords: ['returns', 'refund'] }, 'test');
    const first = (await chat({})).json() as TestChatResponse;
    const mid = (await chat({ state: first.state, text: ' Refund ' })).json() as TestChatResponse;
    expect(mid).toMatchObject({ messages: [], step_id: null, actions: [{ type: 'start_flow', applied: false, error: null, description: expect.stringContaining('"Returns"') }] });
    const ended = (await chat({ state: first.state, button_id: optionButtonId('pick', 1) })).json() as TestChatResponse;
    expect(((await chat({ state: ended.state, text: 'returns' })).json() as TestChatResponse).actions[0]?.description).toContain('"Returns"');
    // Its own keyword restarts it; another company's keywords are not looked at; a word that is no keyword stays silent after the end.
    expect(((await chat({ state: ended.state, text: 'shoptour' })).json() as TestChatResponse).step_id).toBe('pick');
    await service.save(otherCompany, foreignFlowId, { ...CREATE, ...CONTENT, flow_name: 'Theirs', keywords: ['hello'] }, 'test');
    expect(((await chat({ state: ended.state, text: 'hello' })).json() as TestChatResponse)).toMatchObject({ messages: [], actions: [] });
    await service.remove(company, returns.id);
  });

  it("runs the editor's unsaved flow when sent along (and leaves the stored one as it was)", async () => {
    const draft = { ...CREATE, ...CONTENT, intro_msg: 'Draft hello', intro_media_url: null, steps: [{ step_id: 'only', next_step_id: null, step_msg: 'Only step', type: 'text', options: [] }] };
    const res = await chat({ flow: draft });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as TestChatResponse).messages.map((m) => m.text)).toEqual(['Draft hello', 'Only step', 'More on acme.test.', 'Shop now: https://acme.test']);
    expect((await flowsService(t.app).get(company, flowId)).intro_msg).toBe('Welcome to the Acme tour!');
  });

  it('is refused for another company’s flow (404), an agent (403), no token (401), and a bad body or draft (400)', async () => {
    expect((await chat({}, foreignFlowId)).statusCode).toBe(404);
    expect((await chat({}, 999_999)).statusCode).toBe(404);
    expect((await chat({}, 'abc')).statusCode).toBe(404);
    expect((await chat({}, flowId, agent)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `/api/flows/${flowId}/test-chat/`, payload: {} })).statusCode).toBe(401);
    expect((await chat({ state: { step_id: 'x y', fallback_count: -1, handed_over: 'no' } })).statusCode).toBe(400);
    const badDraft = await chat({ flow: { ...CREATE, ...CONTENT, steps: [{ step_id: 'a', next_step_id: 'nowhere', step_msg: 'A', type: 'text', options: [] }] } });
    expect(badDraft.statusCode).toBe(400);
    expect(badDraft.body).toContain('This step does not exist in this flow.');
  });
});
