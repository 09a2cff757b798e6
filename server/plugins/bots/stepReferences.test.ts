/**
 * Issue #25 (from the attacker): a bot step naming another company's operation, flow or private media is
 * refused with a 400 when it is saved (nothing would cross at run time, but the builder must not keep a
 * reference that can never work), on every path that saves steps; the company's own ids are accepted.
 * And the test chat reports an operation that does not exist or fails, instead of `applied: true`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bot } from '../../../contract/bots';
import type { TestChatResponse } from '../../../contract/botRuntime';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { botServiceCall, botServiceCompany, uploadChatImage, type BotServiceCompany as Company } from './testing';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('reference bytes')]);

describe('bot step references', () => {
  let t: TestApp;
  let A: Company;
  let B: Company;
  const ids = { aOperation: 0, bOperation: 0, aFlow: 0, bFlow: 0 };
  let aMedia: string;
  let bMedia: string;

  const svc = (c: Company, method: 'GET' | 'POST' | 'PATCH', path: string, payload?: unknown) => botServiceCall(t, c.key, method, path, payload);
  const newBot = async (c: Company, name: string): Promise<Bot> => (await svc(c, 'POST', '/api/bots/', { name })).json<Bot>();
  const step = (id: string, extra: Record<string, unknown>) => ({ id, messages: [{ text: 'Hello' }], options: [], next_step_id: null, ...extra });

  beforeAll(async () => {
    t = await createTestApp();
    A = await botServiceCompany(t, 'Refs A', 'refs-a.test');
    B = await botServiceCompany(t, 'Refs B', 'refs-b.test');
    for (const [c, key] of [[A, 'aOperation'], [B, 'bOperation']] as const) {
      const op = await svc(c, 'POST', '/api/operations/', { name: `Lookup ${key}`, url: 'https://example.com/orders' });
      expect(op.statusCode, op.body).toBe(201);
      ids[key] = op.json<{ id: number }>().id;
    }
    for (const [c, key, name] of [[A, 'aFlow', 'Tour A'], [B, 'bFlow', 'Tour B']] as const) {
      const flow = await svc(c, 'POST', '/api/flows/', { flow_name: name, description: 'A tour', company_name: 'Shop', company_domain: 'shop.test' });
      expect(flow.statusCode, flow.body).toBe(201);
      ids[key] = flow.json<{ id: number }>().id;
    }
    aMedia = await uploadChatImage(t, A.f, 'mine.png', PNG);
    bMedia = await uploadChatImage(t, B.f, 'theirs.png', PNG);
  });
  afterAll(() => t.close());

  it("refuses another company's operation, flow (by id or name) and private media, on create, update and the graph save; its own are accepted", async () => {
    const bot = await newBot(A, 'References');
    const refused = [
      { actions: [{ type: 'run_operation', operation_id: ids.bOperation, variables: {} }], code: 'unknown_operation', detail: /runs operation \d+, which does not exist in your company/ },
      { actions: [{ type: 'run_operation', operation_id: 999_999, variables: {} }], code: 'unknown_operation', detail: /does not exist in your company/ },
      { actions: [{ type: 'start_flow', flow_id: ids.bFlow }], code: 'unknown_flow', detail: /starts the flow "\d+", which does not exist in your company/ },
      { actions: [{ type: 'start_flow', flow_id: 'tour b' }], code: 'unknown_flow', detail: /starts the flow "tour b"/ },
      { messages: [{ type: 'image', text: '', media_url: bMedia }], code: 'foreign_media', detail: /does not belong to your company/ },
    ];
    for (const [i, { code, detail, ...extra }] of refused.entries()) {
      const created = await svc(A, 'POST', `/api/bots/${bot.id}/steps/`, step(`bad${i}`, extra));
      expect(created.statusCode, created.body).toBe(400);
      const [error] = created.json<{ errors: { code: string; detail: string }[] }>().errors;
      expect(error.detail).toMatch(detail);
      expect(error.code).toBe(code);
      const graph = await svc(A, 'POST', '/branch/update_or_create/', { bot: bot.id, steps: [step(`g${i}`, extra)] });
      expect(graph.statusCode, graph.body).toBe(400);
    }
    // Nothing was saved by the refused calls.
    expect((await svc(A, 'GET', `/api/bots/${bot.id}/`)).json<Bot>().steps).toEqual([]);

    const own = await svc(
      A,
      'POST',
      `/api/bots/${bot.id}/steps/`,
      step('good', {
        messages: [{ type: 'image', text: '', media_url: aMedia }],
        actions: [
          { type: 'run_operation', operation_id: ids.aOperation, variables: {} },
          { type: 'start_flow', flow_id: ids.aFlow },
          { type: 'start_flow', flow_id: 'TOUR A' },
        ],
      }),
    );
    expect(own.statusCode, own.body).toBe(201);
    // An update that brings in a foreign id is refused too, and the step keeps what it had.
    const patched = await svc(A, 'PATCH', `/api/bots/${bot.id}/steps/good/`, { actions: [{ type: 'start_flow', flow_id: ids.bFlow }] });
    expect(patched.statusCode, patched.body).toBe(400);
    const kept = (await svc(A, 'GET', `/api/bots/${bot.id}/`)).json<Bot>().steps[0];
    expect(kept.actions).toHaveLength(3);
    // An edit of another field of that step still saves (its own references are still there).
    expect((await svc(A, 'PATCH', `/api/bots/${bot.id}/steps/good/`, { messages: [{ text: 'Changed' }] })).statusCode).toBe(200);
  });

  it('the test chat reports an operation that does not exist or fails, not "applied"', async () => {
    const bot = await newBot(A, 'Test chat refs');
    // A real operation of A that cannot succeed here (an address the runner refuses), then one deleted after the save.
    const failing = await svc(A, 'POST', '/api/operations/', { name: 'Refused address', url: 'http://127.0.0.1:9/never' });
    expect(failing.statusCode, failing.body).toBe(201);
    const failingId = failing.json<{ id: number }>().id;
    const doomed = await svc(A, 'POST', '/api/operations/', { name: 'Soon deleted', url: 'https://example.com/x' });
    const doomedId = doomed.json<{ id: number }>().id;
    const saved = await svc(A, 'POST', '/branch/update_or_create/', {
      bot: bot.id,
      steps: [
        step('start', { actions: [{ type: 'run_operation', operation_id: failingId, variables: {} }], next_step_id: 'next' }),
        step('next', { actions: [{ type: 'run_operation', operation_id: doomedId, variables: {} }] }),
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await botServiceCall(t, A.key, 'DELETE', `/api/operations/${doomedId}/`)).statusCode).toBeLessThan(300);
    const chat = await A.f.call(A.f.admin, 'POST', `/api/bots/${bot.id}/test-chat/`, {});
    expect(chat.statusCode, chat.body).toBe(200);
    const actions = chat.json<TestChatResponse>().actions.map((a) => [a.step_id, a.applied, a.error]);
    expect(actions).toEqual([
      ['start', false, expect.stringMatching(/^The operation "Refused address" failed: .+\.$/)],
      ['next', false, `Operation ${doomedId} does not exist in this company.`],
    ]);
  });
});
