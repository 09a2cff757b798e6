import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bot, BotStep } from '../../../contract/bots';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { botServiceCall, botServiceCompany, type BotServiceCompany } from './testing';

/** What an attacker and the spec found in the step bodies (issue #25). */
describe('bot step bodies', () => {
  let t: TestApp;
  let A: BotServiceCompany;
  let bot: Bot;
  const svc = (method: 'GET' | 'POST' | 'PATCH', path: string, payload?: unknown) => botServiceCall(t, A.key, method, path, payload);
  const main = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => A.f.call(A.f.admin, method, url, body);

  beforeAll(async () => {
    t = await createTestApp();
    A = await botServiceCompany(t, 'Step bodies', 'stepbodies.test');
    bot = (await svc('POST', '/api/bots/', { name: 'Bodies' })).json() as Bot;
    expect((await svc('POST', `/api/bots/${bot.id}/steps/`, { id: 'start', messages: [{ text: 'Hi' }] })).statusCode).toBe(201);
  });
  afterAll(() => t.close());

  describe('a layout a `real` column cannot hold (1e-50) is a 400 on every route that takes one, never a 500', () => {
    const tiny = { x: 1e-50, y: 10 };

    it('main API: POST /api/bots/{id}/steps/ and PATCH /api/bots/{id}/', async () => {
      const bulk = await main('POST', `/api/bots/${bot.id}/steps/`, { data: { steps: [{ id: 'tiny', messages: [{ text: 'T' }], layout: tiny }] } });
      expect(bulk.statusCode, bulk.body).toBe(400);
      expect(bulk.json()).toEqual({ 'data.steps.0.layout.x': ['Ensure this value is 0 or at least 1e-30 in absolute value.'] });
      const patch = await main('PATCH', `/api/bots/${bot.id}/`, { steps: [{ id: 'start', layout: { x: 0, y: -1e-45 } }] });
      expect(patch.statusCode, patch.body).toBe(400);
      expect(patch.json()).toEqual({ 'steps.0.layout.y': ['Ensure this value is 0 or at least 1e-30 in absolute value.'] });
    });

    it('bot service: step create, step update, bulk patch and the branch graph', async () => {
      const pointers = async (res: Awaited<ReturnType<typeof svc>>) => {
        expect(res.statusCode, res.body).toBe(400);
        return (res.json() as { errors: { source: { pointer: string } }[] }).errors.map((e) => e.source.pointer);
      };
      expect(await pointers(await svc('POST', `/api/bots/${bot.id}/steps/`, { id: 'tiny', messages: [{ text: 'T' }], layout: tiny }))).toEqual(['/layout/x']);
      expect(await pointers(await svc('PATCH', `/api/bots/${bot.id}/steps/start/`, { layout: tiny }))).toEqual(['/layout/x']);
      expect(await pointers(await svc('PATCH', `/api/bots/${bot.id}/`, { steps: [{ id: 'start', layout: tiny }] }))).toEqual(['/steps/0/layout/x']);
      expect(await pointers(await svc('POST', '/branch/update_or_create/', { bot: bot.id, steps: [{ id: 'start', messages: [{ text: 'Hi' }], layout: tiny }] }))).toEqual([
        '/steps/0/layout/x',
      ]);
    });

    it('still takes 0, floating-point noise and the bounds, and keeps them', async () => {
      for (const layout of [{ x: 0, y: -0 }, { x: 5.6843418860808e-14, y: -1e-30 }, { x: 1_000_000, y: -1_000_000 }]) {
        const res = await svc('PATCH', `/api/bots/${bot.id}/steps/start/`, { layout });
        expect(res.statusCode, res.body).toBe(200);
        const step = ((await main('GET', `/api/bots/${bot.id}/steps/`)).json() as { results: BotStep[] }).results.find((s) => s.id === 'start')!;
        expect(step.layout!.x).toBeCloseTo(layout.x, 5);
        expect(step.layout!.y).toBeCloseTo(layout.y, 5);
      }
      expect((await svc('PATCH', `/api/bots/${bot.id}/steps/start/`, { layout: { x: 1_000_001, y: 0 } })).statusCode).toBe(400);
    });
  });

  describe('a step option without an id gets one from the server (the spec lists its fields; a client may leave the id)', () => {
    const generated = /^opt_[0-9a-f]{16}$/;

    it('bot service: POST /api/bots/{id}/steps/ and PATCH of a step', async () => {
      const res = await svc('POST', `/api/bots/${bot.id}/steps/`, {
        id: 'menu',
        messages: [{ text: 'Choose' }],
        options: [{ text: 'Start again', next_step: 'start' }, { id: 'mine', text: 'Mine' }, { text: 'Other' }],
      });
      expect(res.statusCode, res.body).toBe(201);
      const step = res.json() as BotStep;
      expect(step.options.map((o) => o.text)).toEqual(['Start again', 'Mine', 'Other']);
      expect(step.options[0]).toMatchObject({ id: expect.stringMatching(generated), next_step: 'start', step: 'menu' });
      expect(step.options[1].id).toBe('mine');
      expect(step.options[2].id).toMatch(generated);
      expect(step.options[2].id).not.toBe(step.options[0].id);

      const patched = await svc('PATCH', `/api/bots/${bot.id}/steps/menu/`, { options: [{ text: 'Only one' }] });
      expect(patched.statusCode, patched.body).toBe(200);
      expect((patched.json() as BotStep).options).toEqual([{ id: expect.stringMatching(generated), text: 'Only one', next_step: null, step: 'menu' }]);
    });

    it("main API: the bulk create's options and a step's own", async () => {
      const res = await main('POST', `/api/bots/${bot.id}/steps/`, {
        data: { steps: [{ id: 'bulk', messages: [{ text: 'Bulk' }], options: [{ text: 'Inline' }] }], options: [{ text: 'Listed', step: 'bulk', next_step: 'start' }] },
      });
      expect(res.statusCode, res.body).toBe(201);
      const step = (res.json() as { steps: BotStep[] }).steps.find((s) => s.id === 'bulk')!;
      expect(step.options.map((o) => [o.text, generated.test(o.id)])).toEqual([
        ['Inline', true],
        ['Listed', true],
      ]);
    });
  });
});
