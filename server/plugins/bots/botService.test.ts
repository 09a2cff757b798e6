import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BOT_MESSAGES,
  botServiceErrorMessage,
  findGraphProblem,
  firstBotServiceFieldError,
  type Bot,
  type BotIntegration,
  type BotStep,
  type BranchGraph,
  type Operation,
} from '../../../contract/bots';
import { channels } from '../../core/db/schema';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { botsServices } from '.';
import { botOperations, botOptOuts } from './schema';
import { BOT_SERVICE_BASE as BASE, botServiceCall, botServiceCompany, type BotServiceCompany } from './testing';

interface Company extends BotServiceCompany {
  channelId: number;
}

describeEachDatabase('bot service', (database) => {
  let t: TestApp;
  let n = 0;
  let A: Company;
  let B: Company;

  const company = async (): Promise<Company> => {
    n++;
    const { f, key } = await botServiceCompany(t, `Bots ${n}`, `bots${n}.test`);
    const [channel] = await t.db.insert(channels).values({ companyId: f.company, platform: 'sandbox', name: `Sandbox ${n}`, externalId: `bots-sandbox-${n}` }).returning();
    return { f, key, channelId: channel.id };
  };

  /** A bot-service call with the key as the access_key query parameter (spec §7). */
  const svc = (key: string | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: unknown) => botServiceCall(t, key, method, path, payload);

  const newBot = async (c: Company, name: string): Promise<Bot> => {
    const res = await svc(c.key, 'POST', '/api/bots/', { name });
    expect(res.statusCode).toBe(201);
    return res.json() as Bot;
  };

  beforeAll(async () => {
    t = await createTestApp({ database });
    A = await company();
    B = await company();
  });
  afterAll(() => t.close());

  describe('the integration key (main API)', () => {
    it('is created on first call, the same afterwards, given to admins and managers, never to agents', async () => {
      const again = await A.f.call(A.f.admin, 'GET', '/api/bots/integration/');
      expect(again.json()).toEqual({ endpoint: `http://localhost:80${BASE}`, access_key: A.key });
      expect(A.key).toMatch(/^bk_[A-Za-z0-9_-]{43}$/);
      expect((await A.f.call(A.f.manager, 'GET', '/api/bots/integration/')).json().access_key).toBe(A.key);
      expect((await A.f.call(A.f.agent, 'GET', '/api/bots/integration/')).json()).toEqual({ endpoint: `http://localhost:80${BASE}`, access_key: null });
      expect(A.key).not.toBe(B.key);
      const list = await A.f.call(A.f.agent, 'GET', '/api/bot-integrations/');
      expect(list.json()).toEqual({ results: [{ id: expect.any(Number), endpoint: `http://localhost:80${BASE}`, key_prefix: A.key.slice(0, 8), created_at: expect.any(String), rotated_at: null }] });
      expect(list.body).not.toContain(A.key);
    });

    it('is rotated by an admin only; the old key stops working at once', async () => {
      const c = await company();
      expect((await c.f.call(c.f.manager, 'POST', '/api/bots/integration/rotate/')).statusCode).toBe(403);
      expect((await c.f.call(c.f.agent, 'POST', '/api/bots/integration/rotate/')).statusCode).toBe(403);
      const rotated = await c.f.call(c.f.admin, 'POST', '/api/bots/integration/rotate/');
      expect(rotated.statusCode).toBe(200);
      const fresh = (rotated.json() as BotIntegration).access_key!;
      expect(fresh).not.toBe(c.key);
      expect((await svc(c.key, 'GET', '/api/bots/')).statusCode).toBe(401);
      expect((await svc(fresh, 'GET', '/api/bots/')).statusCode).toBe(200);
      expect((await c.f.call(c.f.admin, 'GET', '/api/bots/integration/')).json().access_key).toBe(fresh);
      expect((await c.f.call(c.f.admin, 'GET', '/api/bot-integrations/')).json().results[0].rotated_at).toEqual(expect.any(String));
    });
  });

  describe('every bot-service call is authorised by the key alone', () => {
    let aBot: Bot;
    let aOperation: Operation;
    beforeAll(async () => {
      aBot = await newBot(A, 'Guarded');
      expect((await svc(A.key, 'POST', `/api/bots/${aBot.id}/steps/`, { id: 's1', messages: [{ text: 'Hi' }], options: [], next_step_id: null })).statusCode).toBe(201);
      const op = await svc(A.key, 'POST', '/api/operations/', { name: 'Guarded op', url: 'https://example.com/x' });
      expect(op.statusCode).toBe(201);
      aOperation = op.json();
    });

    const calls = (): { name: string; method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: string; body?: unknown; isList?: boolean }[] => [
      { name: 'list bots', method: 'GET', path: '/api/bots/', isList: true },
      { name: 'create bot', method: 'POST', path: '/api/bots/', body: { name: 'Intruder bot' } },
      { name: 'read bot', method: 'GET', path: `/api/bots/${aBot.id}/` },
      { name: 'update bot', method: 'PATCH', path: `/api/bots/${aBot.id}/`, body: { name: 'Renamed' } },
      { name: 'delete bot', method: 'DELETE', path: `/api/bots/${aBot.id}/` },
      { name: 'create step', method: 'POST', path: `/api/bots/${aBot.id}/steps/`, body: { id: 'x1', messages: [{ text: 'x' }], options: [], next_step_id: null } },
      { name: 'update step', method: 'PATCH', path: `/api/bots/${aBot.id}/steps/s1/`, body: { messages: [{ text: 'changed' }] } },
      { name: 'delete step', method: 'DELETE', path: `/api/bots/${aBot.id}/steps/s1/`, body: { steps: [] } },
      { name: 'fetch graph', method: 'GET', path: `/branch/fetch/?bot=${aBot.id}` },
      { name: 'save graph', method: 'POST', path: '/branch/update_or_create/', body: { bot: aBot.id, steps: [] } },
      { name: 'list operations', method: 'GET', path: '/api/operations/', isList: true },
      { name: 'create operation', method: 'POST', path: '/api/operations/', body: { name: 'Intruder op', url: 'https://example.com/' } },
      { name: 'generate operation', method: 'POST', path: '/api/operations/example/', body: { curl: 'curl https://example.com/orders' } },
      { name: 'delete operation', method: 'DELETE', path: `/api/operations/${aOperation.id}/` },
      { name: 'opt-out CSV', method: 'GET', path: '/api/opt-out-csv/', isList: true },
    ];

    it('without a key: 401 in the bot service error shape, nothing changed', async () => {
      for (const call of calls()) {
        const res = await svc(null, call.method, call.path, call.body);
        expect(res.statusCode, call.name).toBe(401);
        expect(res.json().errors[0], call.name).toMatchObject({ status: '401', title: 'Unauthorized' });
      }
      expect((await svc(A.key, 'GET', `/api/bots/${aBot.id}/`)).json()).toMatchObject({ name: 'Guarded', steps: [{ id: 's1', messages: [{ text: 'Hi' }] }] });
    });

    it('with a wrong key (query or header): 401, nothing changed', async () => {
      for (const call of calls()) {
        const res = await svc('bk_not-a-real-key-0000000000000000000000000000000', call.method, call.path, call.body);
        expect(res.statusCode, call.name).toBe(401);
        expect(res.json().errors[0].detail, call.name).toBe('Invalid bot key.');
        const header = await t.app.inject({ method: call.method, url: `${BASE}${call.path}`, headers: { authorization: 'Bot wrong-key-123456' }, ...(call.body ? { payload: call.body as object } : {}) });
        expect(header.statusCode, call.name).toBe(401);
      }
      expect((await svc(A.key, 'GET', `/api/bots/${aBot.id}/`)).json()).toMatchObject({ name: 'Guarded', steps: [{ id: 's1' }] });
    });

    it("with another company's key: A's bot and operation are not found (404), lists show only B's, nothing of A's changes", async () => {
      const before = (await svc(A.key, 'GET', `/api/bots/${aBot.id}/`)).body;
      const opsBefore = (await svc(A.key, 'GET', '/api/operations/')).body;
      for (const call of calls()) {
        const res = await svc(B.key, call.method, call.path, call.body);
        if (call.isList) {
          expect(res.statusCode, call.name).toBe(200);
          expect(res.body, call.name).not.toContain('Guarded');
        } else if (call.method === 'POST' && ['create bot', 'create operation', 'generate operation'].includes(call.name)) {
          expect(res.statusCode, call.name).toBe(201); // created in B's own company
        } else {
          expect(res.statusCode, call.name).toBe(404);
          expect(res.body, call.name).not.toContain('Guarded');
        }
      }
      expect((await svc(A.key, 'GET', `/api/bots/${aBot.id}/`)).body).toBe(before);
      expect((await svc(A.key, 'GET', '/api/operations/')).body).toBe(opsBefore);
      expect((await svc(A.key, 'GET', '/api/bots/')).json().results.map((b: Bot) => b.name)).not.toContain('Intruder bot');
      // The Authorization: Bot header works like the query parameter.
      const viaHeader = await t.app.inject({ method: 'GET', url: `${BASE}/api/bots/${aBot.id}/`, headers: { authorization: `Bot ${A.key}` } });
      expect(viaHeader.statusCode).toBe(200);
    });

    it("the main API's bot calls refuse another company's bot and roles without flows manage", async () => {
      expect((await B.f.call(B.f.admin, 'GET', `/api/bots/${aBot.id}/steps/`)).statusCode).toBe(404);
      expect((await B.f.call(B.f.admin, 'PATCH', `/api/bots/${aBot.id}/`, { name: 'Taken' })).statusCode).toBe(404);
      expect((await B.f.call(B.f.admin, 'DELETE', `/api/bots/${aBot.id}/`, { steps: ['s1'] })).statusCode).toBe(404);
      expect((await B.f.call(B.f.admin, 'POST', `/api/bots/${aBot.id}/steps/`, { data: { steps: [{ id: 'b1' }], options: [] } })).statusCode).toBe(404);
      expect((await A.f.call(A.f.agent, 'GET', `/api/bots/${aBot.id}/steps/`)).statusCode).toBe(200);
      expect((await A.f.call(A.f.agent, 'PATCH', `/api/bots/${aBot.id}/`, { name: 'Agent' })).statusCode).toBe(403);
      expect((await A.f.call(A.f.agent, 'DELETE', `/api/bots/${aBot.id}/`, { steps: ['s1'] })).statusCode).toBe(403);
      expect((await svc(A.key, 'GET', `/api/bots/${aBot.id}/`)).json()).toMatchObject({ name: 'Guarded', steps: [{ id: 's1' }] });
    });
  });

  describe('bots, steps and the branch graph', () => {
    it('creates a bot, adds steps (the first is the start), updates and deletes them, with channels', async () => {
      const created = await svc(A.key, 'POST', '/api/bots/', { name: '  Welcome bot ', channels: [A.channelId] });
      expect(created.statusCode).toBe(201);
      const bot = created.json() as Bot;
      expect(bot).toEqual({
        id: expect.any(Number),
        name: 'Welcome bot',
        step: null,
        steps: [],
        fallback_step_id: null,
        active: true,
        channels: [A.channelId],
        conversations_handled: 0,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect((await svc(A.key, 'POST', '/api/bots/', { name: 'welcome BOT' })).json()).toEqual({
        errors: [{ status: '400', code: 'invalid', title: 'Invalid name', detail: 'A bot with this name already exists.', source: { pointer: '/name' } }],
      });

      const hello = await svc(A.key, 'POST', `/api/bots/${bot.id}/steps/`, { id: 'hello', messages: [{ text: 'Hello!' }, { type: 'image', media_url: 'https://cdn.example.com/a.png' }], options: [], next_step_id: null });
      expect(hello.statusCode).toBe(201);
      expect(hello.json()).toEqual({
        id: 'hello',
        messages: [
          { text: 'Hello!', media_url: null, type: 'text' },
          { text: '', media_url: 'https://cdn.example.com/a.png', type: 'image' },
        ],
        options: [],
        next_step_id: null,
        layout: null,
        actions: [],
        input: null,
        position: 0,
      } satisfies BotStep);
      const menu = await svc(A.key, 'POST', `/api/bots/${bot.id}/steps/`, { id: 'menu', messages: [{ text: 'Pick one' }], options: [{ id: 'o1', text: 'Sales' }, { id: 'o2' }], next_step_id: null });
      expect(menu.json().options).toEqual([
        { id: 'o1', text: 'Sales', next_step: null, step: 'menu' },
        { id: 'o2', text: 'Button', next_step: null, step: 'menu' },
      ]);
      const patched = await svc(A.key, 'PATCH', `/api/bots/${bot.id}/steps/hello/`, {
        next_step_id: 'menu',
        layout: { x: 300, y: 300 },
        actions: [{ type: 'add_tag', tag: 'new' }, { type: 'pause_bot', days: 2 }, { type: 'hand_over' }, { type: 'assign_agent', email: 'Agent@Example.com' }],
      });
      expect(patched.statusCode).toBe(200);
      expect(patched.json()).toMatchObject({ id: 'hello', next_step_id: 'menu', layout: { x: 300, y: 300 }, actions: [{ type: 'add_tag', tag: 'new' }, { type: 'pause_bot', days: 2 }, { type: 'hand_over' }, { type: 'assign_agent', email: 'agent@example.com' }] });

      const read = (await svc(A.key, 'GET', `/api/bots/${bot.id}/`)).json() as Bot;
      expect(read.step).toBe('hello');
      expect(read.steps.map((s) => s.id)).toEqual(['hello', 'menu']);
      const list = (await svc(A.key, 'GET', '/api/bots/')).json();
      expect(list.results.find((b: Bot) => b.id === bot.id)).toMatchObject({ name: 'Welcome bot', steps_count: 2, channels: [A.channelId], conversations_handled: 0 });
      expect(list.results.find((b: Bot) => b.id === bot.id).steps).toBeUndefined();

      // Referenced steps cannot be deleted; the refusal names the step.
      const refused = await svc(A.key, 'DELETE', `/api/bots/${bot.id}/steps/menu/`, { steps: [] });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors[0]).toMatchObject({ status: '400', code: 'step_in_use', title: 'Invalid bot graph', step: 'menu' });
      expect(refused.json().errors[0].detail).toContain('step "hello" still leads to it');
      const start = await svc(A.key, 'DELETE', `/api/bots/${bot.id}/steps/hello/`);
      expect(start.json().errors[0]).toMatchObject({ code: 'step_in_use', step: 'hello', detail: `Step "hello" cannot be deleted: it is the bot's start step.` });
      // Both at once (the body's steps): fine, and the bot has no start any more.
      const both = await svc(A.key, 'DELETE', `/api/bots/${bot.id}/steps/hello/`, { steps: ['menu'] });
      expect(both.statusCode).toBe(200);
      expect(both.json()).toEqual({ detail: BOT_MESSAGES.stepDeleted, steps: ['hello', 'menu'] });
      expect((await svc(A.key, 'GET', `/api/bots/${bot.id}/`)).json()).toMatchObject({ step: null, steps: [] });
      expect((await svc(A.key, 'DELETE', `/api/bots/${bot.id}/steps/ghost/`)).statusCode).toBe(404);

      // Channels: replaced by PATCH; a channel moves from another bot; another company's channel is refused.
      const other = await newBot(A, 'Other bot');
      expect((await svc(A.key, 'PATCH', `/api/bots/${other.id}/`, { channels: [A.channelId] })).json().channels).toEqual([A.channelId]);
      expect((await svc(A.key, 'GET', `/api/bots/${bot.id}/`)).json().channels).toEqual([]);
      const foreign = await svc(A.key, 'PATCH', `/api/bots/${bot.id}/`, { channels: [B.channelId] });
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json().errors[0]).toMatchObject({ title: 'Invalid channels', detail: `Invalid pk "${B.channelId}" - object does not exist.` });

      expect((await svc(A.key, 'DELETE', `/api/bots/${bot.id}/`)).statusCode).toBe(204);
      expect((await svc(A.key, 'GET', `/api/bots/${bot.id}/`)).statusCode).toBe(404);
    });

    it('refuses a target that does not exist, a cycle without customer input, naming the step; nothing half-saved', async () => {
      const bot = await newBot(A, 'Consistency');
      const add = (body: unknown) => svc(A.key, 'POST', `/api/bots/${bot.id}/steps/`, body);
      const missing = await add({ id: 'a', messages: [{ text: 'A' }], options: [], next_step_id: 'nowhere' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errors[0]).toMatchObject({ code: 'missing_next_step', step: 'a', detail: 'Step "a": its next step "nowhere" does not exist.' });
      expect(botServiceErrorMessage(400, missing.json())).toBe('Error 400 : Invalid bot graph Step "a": its next step "nowhere" does not exist.');
      const badOption = await add({ id: 'a', messages: [{ text: 'A' }], options: [{ id: 'x', text: 'Go', next_step: 'ghost' }], next_step_id: null });
      expect(badOption.json().errors[0]).toMatchObject({ code: 'missing_option_target', step: 'a' });
      expect((await svc(A.key, 'GET', `/api/bots/${bot.id}/`)).json().steps).toEqual([]);

      expect((await add({ id: 'a', messages: [{ text: 'A' }], options: [], next_step_id: null })).statusCode).toBe(201);
      expect((await add({ id: 'b', messages: [{ text: 'B' }], options: [], next_step_id: 'a' })).statusCode).toBe(201);
      expect((await add({ id: 'a', messages: [{ text: 'again' }] })).json().errors[0]).toMatchObject({ title: 'Invalid id', source: { pointer: '/id' } });
      // a → b → a with no question in between: refused.
      const loop = await svc(A.key, 'PATCH', `/api/bots/${bot.id}/steps/a/`, { next_step_id: 'b' });
      expect(loop.statusCode).toBe(400);
      expect(loop.json().errors[0]).toMatchObject({ code: 'cycle_without_input', step: 'a' });
      expect(loop.json().errors[0].detail).toContain('"a" → "b"');
      // With a button on b it is a conversation loop: accepted.
      const withOption = await svc(A.key, 'PATCH', `/api/bots/${bot.id}/steps/b/`, { options: [{ id: 'again', text: 'Again', next_step: 'a' }] });
      expect(withOption.statusCode).toBe(200);
      expect((await svc(A.key, 'PATCH', `/api/bots/${bot.id}/steps/a/`, { next_step_id: 'b' })).statusCode).toBe(200);

      // The whole graph: one invalid step refuses everything, the stored graph stays as it was.
      const before = (await svc(A.key, 'GET', `/branch/fetch/?bot=${bot.id}`)).json() as BranchGraph;
      const broken = await svc(A.key, 'POST', '/branch/update_or_create/', {
        bot: bot.id,
        steps: [
          { id: 'a', messages: [{ text: 'new A' }], next_step_id: 'c' },
          { id: 'c', messages: [{ text: 'C' }], next_step_id: 'd' },
          { id: 'd', messages: [{ text: 'D' }], next_step_id: 'c' },
        ],
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.json().errors[0]).toMatchObject({ code: 'cycle_without_input', step: 'c' });
      expect((await svc(A.key, 'GET', `/branch/fetch/?bot=${bot.id}`)).json()).toEqual(before);
      const dup = await svc(A.key, 'POST', '/branch/update_or_create/', { bot: bot.id, steps: [{ id: 'a', messages: [{ text: '1' }] }, { id: 'a', messages: [{ text: '2' }] }] });
      expect(dup.json().errors[0]).toMatchObject({ code: 'duplicate_step', step: 'a' });
      const startMissing = await svc(A.key, 'POST', '/branch/update_or_create/', { bot: bot.id, step: 'zz', steps: [{ id: 'a', messages: [{ text: '1' }] }] });
      expect(startMissing.json().errors[0]).toMatchObject({ code: 'missing_start_step', step: 'zz' });
      expect((await svc(A.key, 'GET', `/branch/fetch/?bot=${bot.id}`)).json()).toEqual(before);
    });

    it('concurrent edits of one bot never leave an inconsistent graph (pointing at a step deleted at the same time)', async () => {
      const bot = await newBot(A, 'Race');
      for (const id of ['a', 'b']) expect((await svc(A.key, 'POST', `/api/bots/${bot.id}/steps/`, { id, messages: [{ text: id }] })).statusCode).toBe(201);
      for (let round = 0; round < 5; round++) {
        const [link, remove] = await Promise.all([
          svc(A.key, 'PATCH', `/api/bots/${bot.id}/steps/a/`, { next_step_id: 'b' }),
          svc(A.key, 'DELETE', `/api/bots/${bot.id}/steps/b/`),
        ]);
        // One of them wins; never both.
        expect([link.statusCode, remove.statusCode].sort()).toEqual([200, 400]);
        const graph = (await svc(A.key, 'GET', `/branch/fetch/?bot=${bot.id}`)).json() as BranchGraph;
        expect(findGraphProblem(graph.steps, graph.step, graph.fallback_step_id)).toBeNull();
        // Back to a, b unlinked for the next round.
        const reset = await svc(A.key, 'POST', '/branch/update_or_create/', { bot: bot.id, step: 'a', steps: [{ id: 'a', messages: [{ text: 'a' }] }, { id: 'b', messages: [{ text: 'b' }] }] });
        expect(reset.statusCode).toBe(200);
      }
    });

    it('loads and saves the whole graph with positions (branch calls)', async () => {
      const bot = await newBot(A, 'Graph');
      const saved = await svc(A.key, 'POST', '/branch/update_or_create/', {
        bot: bot.id,
        fallback_step_id: 'human',
        steps: [
          { id: 'start', messages: [{ text: 'Welcome' }], next_step_id: 'menu', layout: { x: 300, y: 300 } },
          { id: 'menu', messages: [{ text: 'Choose' }], options: [{ id: 'm1', text: 'Orders', next_step: 'order' }, { id: 'm2', text: 'Human', next_step: 'human' }], layout: { x: 300, y: 450 } },
          { id: 'order', messages: [{ text: 'Your order number?' }], input: { variable: 'order_no' }, next_step_id: 'menu', layout: { x: 100, y: 600 } },
          { id: 'human', messages: [{ text: 'A person will answer.' }], actions: [{ type: 'hand_over' }], layout: { x: 500, y: 600 } },
        ],
      });
      expect(saved.statusCode).toBe(200);
      const graph = saved.json() as BranchGraph;
      expect(graph).toMatchObject({ bot: bot.id, name: 'Graph', step: 'start', fallback_step_id: 'human' });
      expect(graph.steps.map((s) => [s.id, s.position, s.layout])).toEqual([
        ['start', 0, { x: 300, y: 300 }],
        ['menu', 1, { x: 300, y: 450 }],
        ['order', 2, { x: 100, y: 600 }],
        ['human', 3, { x: 500, y: 600 }],
      ]);
      expect((await svc(A.key, 'GET', `/branch/fetch/?bot=${bot.id}`)).json()).toEqual(graph);

      // Saving again without "order": it is deleted, options moved, the rest kept.
      const second = await svc(A.key, 'POST', '/branch/update_or_create/', {
        bot: bot.id,
        step: 'menu',
        steps: [
          { id: 'menu', messages: [{ text: 'Choose' }], options: [{ id: 'm2', text: 'Human', next_step: 'human' }] },
          { id: 'human', messages: [{ text: 'A person will answer.' }], options: [{ id: 'm1', text: 'Back', next_step: 'menu' }] },
        ],
      });
      expect(second.statusCode).toBe(200);
      const after = (await svc(A.key, 'GET', `/branch/fetch/?bot=${bot.id}`)).json() as BranchGraph;
      expect(after.step).toBe('menu');
      expect(after.steps.map((s) => [s.id, s.options.map((o) => `${o.id}:${o.step}→${o.next_step}`)])).toEqual([
        ['menu', ['m2:menu→human']],
        ['human', ['m1:human→menu']],
      ]);
      expect((await svc(A.key, 'GET', '/branch/fetch/?bot=abc')).statusCode).toBe(400);
      expect((await svc(A.key, 'GET', '/branch/fetch/?bot=999999')).statusCode).toBe(404);
    });

    it("the main API's bulk calls: create steps and options, patch steps, delete steps and options", async () => {
      const bot = await newBot(A, 'Bulk');
      const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => A.f.call(A.f.admin, method, url, body);
      const created = await call('POST', `/api/bots/${bot.id}/steps/`, {
        data: {
          steps: [
            { id: 'q', messages: [{ text: 'Question' }], next_step_id: null },
            { id: 'yes', messages: [{ text: 'Great' }] },
            { id: 'no', messages: [{ text: 'Too bad' }] },
          ],
          options: [
            { id: 'oy', text: 'Yes', next_step: 'yes', step: 'q' },
            { id: 'on', text: 'No', next_step: 'no', step: 'q' },
          ],
        },
      });
      expect(created.statusCode).toBe(201);
      expect(created.json().detail).toBe('Steps and options successfully created');
      expect(created.json().steps[0].options.map((o: { id: string }) => o.id)).toEqual(['oy', 'on']);
      const failing = await call('POST', `/api/bots/${bot.id}/steps/`, { data: { steps: [{ id: 'z', messages: [{ text: 'Z' }] }], options: [{ id: 'oz', text: 'Z', next_step: 'void', step: 'z' }] } });
      expect(failing.statusCode).toBe(400);
      expect(failing.json()).toEqual({ detail: 'Step "z": option "oz" leads to step "void", which does not exist.', code: 'missing_option_target' });

      const listed = await call('GET', `/api/bots/${bot.id}/steps/`);
      expect(listed.json().results.map((s: BotStep) => s.id)).toEqual(['q', 'yes', 'no']);

      const patched = await call('PATCH', `/api/bots/${bot.id}/`, { name: 'Bulk 2', steps: [{ id: 'yes', layout: { x: 10, y: 20 } }, { id: 'no', messages: [{ text: 'Sorry' }] }] });
      expect(patched.statusCode).toBe(200);
      expect(patched.json()).toMatchObject({ name: 'Bulk 2', steps: [{ id: 'q' }, { id: 'yes', layout: { x: 10, y: 20 } }, { id: 'no', messages: [{ text: 'Sorry' }] }] });
      expect((await call('PATCH', `/api/bots/${bot.id}/`, { steps: [{ id: 'ghost' }] })).statusCode).toBe(404);

      expect((await call('DELETE', `/api/bots/${bot.id}/`, {})).json()).toEqual({ steps: ['Name at least one step or option to delete.'] });
      const inUse = await call('DELETE', `/api/bots/${bot.id}/`, { steps: ['no'] });
      expect(inUse.statusCode).toBe(400);
      expect(inUse.json().detail).toContain('option "No" of step "q" still leads to it');
      const removed = await call('DELETE', `/api/bots/${bot.id}/`, { steps: ['no'], options: ['on'] });
      expect(removed.statusCode).toBe(200);
      expect((await call('GET', `/api/bots/${bot.id}/steps/`)).json().results.map((s: BotStep) => [s.id, s.options.map((o) => o.id)])).toEqual([
        ['q', ['oy']],
        ['yes', []],
      ]);
    });

    it('validates bodies (400 in the bot service shape, never 500)', async () => {
      const bot = await newBot(A, 'Validation');
      const bad = await svc(A.key, 'POST', `/api/bots/${bot.id}/steps/`, { id: 'has space', messages: [{ type: 'text', text: '' }], actions: [{ type: 'pause_bot', days: 0 }] });
      expect(bad.statusCode).toBe(400);
      const pointers = bad.json().errors.map((e: { source: { pointer: string } }) => e.source.pointer);
      expect(pointers).toEqual(expect.arrayContaining(['/id', '/messages/0/text', '/actions/0/days']));
      expect((await svc(A.key, 'POST', '/api/bots/', {})).json()).toEqual({ errors: [{ status: '400', code: 'invalid', title: 'Invalid name', detail: 'This field is required.', source: { pointer: '/name' } }] });
      expect((await svc(A.key, 'POST', `/api/bots/${bot.id}/steps/`, { id: 'm', messages: [{ type: 'image', media_url: 'javascript:alert(1)' }] })).statusCode).toBe(400);
      expect((await svc(A.key, 'GET', '/api/bots/abc/')).statusCode).toBe(404);
      expect((await svc(A.key, 'PATCH', `/api/bots/${bot.id}/steps/${'x'.repeat(65)}/`, {})).statusCode).toBe(404);
    });
  });

  describe('operations', () => {
    it('creates, lists and deletes operations', async () => {
      const created = await svc(A.key, 'POST', '/api/operations/', {
        name: 'Order status',
        method: 'POST',
        url: 'https://shop.example.com/orders/{{order_no}}',
        headers: { Authorization: 'Bearer {{token}}' },
        body: '{"phone": "{{customer.external_id}}"}',
        response_mapping: [{ variable: 'status', path: 'data.status' }],
      });
      expect(created.statusCode).toBe(201);
      const op = created.json() as Operation;
      expect(op).toMatchObject({ name: 'Order status', method: 'POST', headers: { Authorization: 'Bearer {{token}}' }, variables: ['order_no', 'token', 'customer.external_id'] });
      // Header values (API keys) are sealed at rest.
      const [stored] = await t.db.select().from(botOperations).where(eq(botOperations.id, op.id));
      expect(stored.headers.Authorization).toMatch(/^v1:/);
      expect(JSON.stringify(stored)).not.toContain('Bearer');
      expect((await svc(A.key, 'POST', '/api/operations/', { name: 'order STATUS', url: 'https://x.example/' })).json().errors[0]).toMatchObject({ title: 'Invalid name', detail: 'An operation with this name already exists.' });
      expect((await svc(A.key, 'POST', '/api/operations/', { name: 'File', url: 'file:///etc/passwd' })).json().errors[0]).toMatchObject({ source: { pointer: '/url' } });
      expect((await svc(A.key, 'GET', '/api/operations/')).json().results.map((o: Operation) => o.name)).toContain('Order status');
      expect((await svc(A.key, 'DELETE', `/api/operations/${op.id}/`)).statusCode).toBe(204);
      expect((await svc(A.key, 'DELETE', `/api/operations/${op.id}/`)).statusCode).toBe(404);
    });

    it('generates an operation from a curl command or a sample request and response', async () => {
      const fromCurl = await svc(A.key, 'POST', '/api/operations/example/', {
        curl: `curl -X POST 'https://api.example.com/v1/orders?sort=desc' \\\n  -H 'Authorization: Bearer abc' -H "Content-Type: application/json" \\\n  --data-raw '{"phone":"+331234"}'`,
        response: '{"data": {"id": 7, "status": "shipped"}, "items": [{"sku": "A1"}]}',
      });
      expect(fromCurl.statusCode).toBe(201);
      expect(fromCurl.json()).toMatchObject({
        name: 'POST api.example.com/v1/orders',
        method: 'POST',
        url: 'https://api.example.com/v1/orders?sort=desc',
        headers: { Authorization: 'Bearer abc', 'Content-Type': 'application/json' },
        body: '{"phone":"+331234"}',
        response_mapping: [
          { variable: 'data_id', path: 'data.id' },
          { variable: 'data_status', path: 'data.status' },
          { variable: 'items_0_sku', path: 'items.0.sku' },
        ],
      });
      const again = await svc(A.key, 'POST', '/api/operations/example/', { curl: 'curl https://api.example.com/v1/orders -d a=1' });
      expect(again.json()).toMatchObject({ name: 'POST api.example.com/v1/orders (2)', method: 'POST', body: 'a=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
      const get = await svc(A.key, 'POST', '/api/operations/example/', { name: 'Weather', curl: 'curl -G https://api.example.com/weather -d city=Paris -u user:pw' });
      expect(get.json()).toMatchObject({ name: 'Weather', method: 'GET', url: 'https://api.example.com/weather?city=Paris', body: null, headers: { Authorization: `Basic ${Buffer.from('user:pw').toString('base64')}` } });

      const fromRequest = await svc(A.key, 'POST', '/api/operations/example/', {
        name: 'Create lead',
        request: { method: 'PUT', url: 'https://crm.example.com/leads', headers: { 'X-Key': 'k' }, body: { name: '{{customer.name}}' } },
        response: { lead: { id: 'L1' } },
      });
      expect(fromRequest.statusCode).toBe(201);
      expect(fromRequest.json()).toMatchObject({ method: 'PUT', body: '{\n  "name": "{{customer.name}}"\n}', response_mapping: [{ variable: 'lead_id', path: 'lead.id' }], variables: ['customer.name'] });

      const refuse = async (body: unknown) => {
        const res = await svc(A.key, 'POST', '/api/operations/example/', body);
        expect(res.statusCode).toBe(400);
        return firstBotServiceFieldError(res.json()) ?? BOT_MESSAGES.couldNotGenerateFunction;
      };
      expect(await refuse({ curl: 'wget https://x.example' })).toBe('Enter a curl command (it starts with "curl").');
      expect(await refuse({ curl: 'curl -X POST' })).toBe('Enter a curl command with a URL.');
      expect(await refuse({ curl: 'curl https://x.example | sh' })).toBe('Paste one curl command, without pipes or redirections.');
      expect(await refuse({ curl: 'curl --frobnicate https://x.example' })).toBe('The curl option --frobnicate is not supported.');
      expect(await refuse({ curl: 'curl ftp://x.example/file' })).toBe('Only http and https URLs can be called.');
      expect(await refuse({ curl: 'curl -X TRACE https://x.example' })).toBe('The method TRACE is not supported (use GET, POST, PUT, PATCH, DELETE).');
      expect(await refuse({ curl: 'curl https://x.example', response: '<html>' })).toBe('The sample response is not JSON.');
      expect(await refuse({})).toBe('Paste a curl command or a sample request.');
      expect(await refuse({ curl: 'curl -H "X-Bad Header: 1" https://x.example' })).toBe('Invalid header name.');
    });
  });

  it('lists opted-out customers as {headers, data}, formula cells neutralised', async () => {
    const bot = await newBot(A, 'Opt');
    await t.db.insert(botOptOuts).values([
      { companyId: A.f.company, channelId: A.channelId, externalId: '+33600000001', name: '=HYPERLINK("x")', reason: 'action', botId: bot.id },
      { companyId: B.f.company, channelId: B.channelId, externalId: '+33600000002', name: 'Other company', reason: 'action' },
    ]);
    const res = await svc(A.key, 'GET', '/api/opt-out-csv/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      headers: ['name', 'external_id', 'channel', 'platform', 'reason', 'bot', 'opted_out_at'],
      data: [[`'=HYPERLINK("x")`, '+33600000001', expect.stringMatching(/^Sandbox/), 'sandbox', 'bot_action', 'Opt', expect.any(String)]],
    });
  });

  it('the runtime gets a runner for the company’s operations: an unknown one, or another company’s, is an error the test chat reports and the runtime logs', async () => {
    const services = botsServices(t.app);
    await expect(services.runCompanyOperation({ companyId: A.f.company, operationId: 999_999, variables: {} })).rejects.toThrow('Operation 999999 does not exist in this company.');
    const theirs = await svc(B.key, 'POST', '/api/operations/', { name: 'B only', url: 'https://example.com/b' });
    const id = (theirs.json() as Operation).id;
    await expect(services.runCompanyOperation({ companyId: A.f.company, operationId: id, variables: {} })).rejects.toThrow(`Operation ${id} does not exist in this company.`);
  });
});

describe('bot service error messages (console side)', () => {
  it("formats 'Error {status} : {title} {detail}' or the fallback", () => {
    expect(botServiceErrorMessage(400, { errors: [{ status: '400', title: 'Invalid name', detail: 'This field may not be blank.' }] })).toBe('Error 400 : Invalid name This field may not be blank.');
    expect(botServiceErrorMessage(500, '<html>')).toBe('Error while creating bot');
    expect(firstBotServiceFieldError({ errors: [{ status: '400', title: 'Operation', detail: "Couldn't generate function" }] })).toBeUndefined();
  });
});
