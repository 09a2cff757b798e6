import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { TestChatBody, type TestChatResponse } from '../../../../contract/botRuntime';
import { messages } from '../../../core/db/schema';
import { createTestApp, type TestApp } from '../../../testing/testApp';
import { bots, botSteps, stepOptions } from '../schema';
import { HAND_OVER_TEXT, type RuntimeBot, type RuntimeStep } from './engine';
import { runTestChat } from './testChat';
import { botRuntime } from '..';

describe('bot test chat (POST /api/bots/{id}/test-chat/)', () => {
  let t: TestApp;
  let company: number;
  let admin: string;
  let agent: string;
  let botId: number;
  let foreignBotId: number;

  async function seedBot(companyId: number, name: string): Promise<number> {
    const [bot] = await t.db.insert(bots).values({ companyId, name, startStepId: 'hello' }).returning({ id: bots.id });
    await t.db.insert(botSteps).values([
      { botId: bot.id, id: 'hello', messages: [{ text: 'Welcome!', media_url: null, type: 'text' }, { text: 'Pick one', media_url: null, type: 'text' }], position: 0 },
      { botId: bot.id, id: 'a', messages: [{ text: 'You chose A, {{name}}.', media_url: null, type: 'text' }], actions: [{ type: 'add_tag', tag: 'a-fan' }], nextStepId: 'ask', position: 1 },
      { botId: bot.id, id: 'ask', messages: [{ text: 'Your name?', media_url: null, type: 'text' }], inputVariable: 'name', nextStepId: 'a', position: 2 },
      {
        botId: bot.id,
        id: 'op',
        messages: [{ text: 'Looking it up', media_url: null, type: 'text' }],
        actions: [{ type: 'run_operation', operation_id: 1, variables: {} }, { type: 'start_flow', flow_id: 2 }],
        nextStepId: 'done',
        position: 3,
      },
      { botId: bot.id, id: 'done', messages: [{ text: 'Status {{status}}', media_url: null, type: 'text' }], position: 4 },
    ]);
    await t.db.insert(stepOptions).values([
      { botId: bot.id, id: 'opt-a', stepId: 'hello', text: 'A', nextStep: 'ask', position: 0 },
      { botId: bot.id, id: 'opt-op', stepId: 'hello', text: 'Operation', nextStep: 'op', position: 1 },
    ]);
    return bot.id;
  }

  beforeAll(async () => {
    t = await createTestApp();
    company = await t.seed.company('Acme');
    const other = await t.seed.company('Other');
    await t.seed.member(company, await t.seed.user({ email: 'boss@acme.test' }), 'admin');
    await t.seed.member(company, await t.seed.user({ email: 'agent@acme.test' }), 'agent');
    admin = (await t.login('boss@acme.test')).access;
    agent = (await t.login('agent@acme.test')).access;
    botId = await seedBot(company, 'Greeter');
    foreignBotId = await seedBot(other, 'Theirs');
  });
  afterAll(() => t.close());

  const chat = (body: unknown, id = botId, token = admin) =>
    t.app.inject({ method: 'POST', url: `/api/bots/${id}/test-chat/`, headers: t.headers(token, company), payload: body as Record<string, unknown> });

  it('starts with the greeting and its buttons, follows a button, a free-text answer and a number, and stores nothing', async () => {
    const start = await chat({});
    expect(start.statusCode, start.body).toBe(200);
    const first = start.json() as TestChatResponse;
    expect(first).toMatchObject({
      messages: [
        { type: 'text', text: 'Welcome!', buttons: null, step_id: 'hello' },
        { type: 'interactive', text: 'Pick one', buttons: [{ id: 'opt-a', title: 'A' }, { id: 'opt-op', title: 'Operation' }], step_id: 'hello' },
      ],
      step_id: 'hello',
      visited: ['hello'],
      handed_over: false,
      state: { step_id: 'hello', fallback_count: 0, handed_over: false, variables: {} },
    });
    const ask = (await chat({ state: first.state, button_id: 'opt-a' })).json() as TestChatResponse;
    expect(ask.messages.map((m) => m.text)).toEqual(['Your name?']);
    const named = (await chat({ state: ask.state, text: 'Ada' })).json() as TestChatResponse;
    expect(named).toMatchObject({ messages: [{ text: 'You chose A, Ada.' }, { text: 'Your name?' }], visited: ['a', 'ask'], step_id: 'ask' });
    expect(named.actions).toEqual([{ step_id: 'a', type: 'add_tag', description: 'Adds the tag "a-fan"', applied: false, error: null }]);
    expect(named.state.variables).toEqual({ name: 'Ada' });
    // Reset: the greeting again, whatever the text.
    expect(((await chat({ state: named.state, reset: true, text: 'A' })).json() as TestChatResponse).step_id).toBe('hello');
    expect(await t.db.select().from(messages).where(eq(messages.companyId, company))).toEqual([]);
  });

  it('repeats the question once, then hands over (the default fallback); a number picks an option', async () => {
    const first = (await chat({})).json() as TestChatResponse;
    const again = (await chat({ state: first.state, text: 'nope' })).json() as TestChatResponse;
    expect(again.messages.map((m) => m.text)).toEqual(['Pick one']);
    expect(again.state.fallback_count).toBe(1);
    const byNumber = (await chat({ state: again.state, text: '1' })).json() as TestChatResponse;
    expect(byNumber.step_id).toBe('ask');
    const over = (await chat({ state: { ...again.state }, text: 'still no' })).json() as TestChatResponse;
    expect(over).toMatchObject({ messages: [{ text: HAND_OVER_TEXT, step_id: null }], handed_over: true, step_id: null });
    const silent = (await chat({ state: over.state, text: 'hello?' })).json() as TestChatResponse;
    expect(silent.messages).toEqual([]);
  });

  it('runs operations for real (their variables show) and reports a flow as not available', async () => {
    const first = (await chat({})).json() as TestChatResponse;
    const runtime = botRuntime(t.app);
    const real = runtime.operationRunner;
    runtime.useOperationRunner(async () => {
      throw new Error('The operation timed out.');
    });
    try {
      const failing = (await chat({ state: first.state, button_id: 'opt-op' })).json() as TestChatResponse;
      expect(failing.actions.map((a) => [a.type, a.applied, a.error])).toEqual([
        ['run_operation', false, 'The operation timed out.'],
        ['start_flow', false, null],
      ]);
      expect(failing.actions[1].description).toMatch(/flows do not exist/);
      expect(failing.messages.map((m) => m.text)).toEqual(['Looking it up', 'Status {{status}}']);
      runtime.useOperationRunner(async ({ companyId, operationId }) => ({ status: `${companyId}/${operationId}` }));
      const ran = (await chat({ state: first.state, button_id: 'opt-op' })).json() as TestChatResponse;
      expect(ran.messages.map((m) => m.text)).toEqual(['Looking it up', `Status ${company}/1`]);
      expect(ran.actions[0]).toMatchObject({ type: 'run_operation', applied: true, error: null });
    } finally {
      runtime.useOperationRunner(real);
    }
  });

  it('is refused for another company’s bot (404), for an agent (403), and for a malformed body (400)', async () => {
    expect((await chat({}, foreignBotId)).statusCode).toBe(404);
    expect((await chat({}, 999_999)).statusCode).toBe(404);
    expect((await chat({}, botId, agent)).statusCode).toBe(403);
    const bad = await chat({ state: { step_id: 'x y', fallback_count: -1, handed_over: 'no' } });
    expect(bad.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: `/api/bots/${botId}/test-chat/`, payload: {} })).statusCode).toBe(401);
  });
});

describe('test chat: a step that asks the assistant (ai_answer)', () => {
  const bot: RuntimeBot = {
    id: 1,
    companyId: 1,
    name: 'Bot',
    startStepId: 'ask',
    fallback: { kind: 'hand_over' },
    steps: new Map<string, RuntimeStep>([
      ['ask', { id: 'ask', messages: [{ text: 'Your question?', media_url: null, type: 'text' }], options: [], next_step_id: 'answer', actions: [], input: { variable: 'q' } }],
      ['answer', { id: 'answer', messages: [{ text: 'Anything else?', media_url: null, type: 'text' }], options: [], next_step_id: null, actions: [{ type: 'ai_answer' }], input: null }],
    ]),
  };
  const deps = { runOperation: null, signMedia: (url: string | null) => url };

  it('describes the action, not run (no assistant answer spent), and the bot goes on with the step', async () => {
    const start = await runTestChat(bot, TestChatBody.parse({}), deps);
    const answer = await runTestChat(bot, TestChatBody.parse({ state: start.state, text: 'How do I return an item?' }), deps);
    expect(answer.messages.map((m) => m.text)).toEqual(['Anything else?']);
    expect(answer.actions).toEqual([
      {
        step_id: 'answer',
        type: 'ai_answer',
        description: "Asks the assistant to answer the customer's message from the company's knowledge, before the step's messages (a person takes over when it cannot; not run in the test chat)",
        applied: false,
        error: null,
      },
    ]);
    expect(answer.handed_over).toBe(false);
  });
});
