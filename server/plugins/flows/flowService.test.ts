import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { FLOW_MESSAGES, flowErrorMessage, type Flow, type FlowErrorBody, type FlowVersion, type FlowVersionDetail } from '../../../contract/flows';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { BOT_SERVICE_BASE, botServiceCall, botServiceCompany, type BotServiceCompany as Company } from '../bots/testing';
import { users } from '../../core/db/schema';
import { flows, flowSteps, flowVersions } from './schema';

const create = (name: string) => ({ flow_name: name, description: 'About us', company_name: 'Acme', company_domain: 'acme.test', extra_context: ['We open at 9.', 'Shipping takes 2 days.'] });

const fullFlow = (name: string) => ({
  ...create(name),
  intro_msg: 'Welcome to Acme!',
  intro_media_url: 'https://cdn.acme.test/intro.png',
  find_out_more_msg: 'See acme.test',
  find_out_more_media_url: null,
  call_to_action: 'Visit us',
  keywords: ['ACME'],
  steps: [
    { step_id: 's1', next_step_id: 's2', step_msg: 'What do you want?', type: 'options', options: [{ text: 'Prices', next_step_id: 's3' }, { text: 'Hours', next_step_id: null }] },
    { step_id: 's2', next_step_id: null, step_msg: 'We open at 9.', type: 'text', options: [] },
    { step_id: 's3', next_step_id: null, step_msg: 'From 10 EUR.', type: 'text', options: [] },
  ],
});

describe('flows in the bot service', () => {
  let t: TestApp;
  let n = 0;
  let A: Company;
  let B: Company;

  const company = (): Promise<Company> => {
    n++;
    return botServiceCompany(t, `Flows ${n}`, `flows${n}.test`);
  };
  const svc = (key: string | null, method: 'GET' | 'POST' | 'DELETE', path: string, payload?: unknown) => botServiceCall(t, key, method, path, payload);

  const newFlow = async (c: Company, name: string): Promise<Flow> => {
    const res = await svc(c.key, 'POST', '/api/flows/', create(name));
    expect(res.statusCode).toBe(201);
    return res.json() as Flow;
  };

  const stored = async (id: number) => ({
    flow: await t.db.select().from(flows).where(eq(flows.id, id)),
    steps: await t.db.select().from(flowSteps).where(eq(flowSteps.flowId, id)),
    versions: await t.db.select().from(flowVersions).where(eq(flowVersions.flowId, id)),
  });

  beforeAll(async () => {
    t = await createTestApp();
    A = await company();
    B = await company();
  });
  afterAll(() => t.close());

  describe('access', () => {
    it('refuses no key and a wrong key with 401 in the error shape', async () => {
      const none = await svc(null, 'GET', '/api/flows/');
      expect(none.statusCode).toBe(401);
      expect(none.json()).toMatchObject({ error: 'Unauthorized', message: 'Authentication credentials were not provided.', errors: [{ status: '401' }] });
      const wrong = await svc('bk_wrong-key-of-nobody', 'GET', '/api/flows/');
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toMatchObject({ error: 'Unauthorized', message: 'Invalid bot key.' });
    });

    it("another company's key sees none of the flow and changes nothing", async () => {
      const flow = await newFlow(A, 'Private');
      const before = await stored(flow.id);
      expect((await svc(B.key, 'GET', '/api/flows/')).json()).not.toContainEqual(expect.objectContaining({ id: flow.id }));
      expect((await svc(B.key, 'GET', `/api/flows/${flow.id}/`)).statusCode).toBe(404);
      expect((await svc(B.key, 'POST', `/api/flows/${flow.id}/save/`, fullFlow('Stolen'))).statusCode).toBe(404);
      expect((await svc(B.key, 'GET', `/api/flows/${flow.id}/versions/`)).statusCode).toBe(404);
      const versionId = before.versions[0].id;
      expect((await svc(B.key, 'GET', `/api/flows/${flow.id}/versions/${versionId}/`)).statusCode).toBe(404);
      expect((await svc(B.key, 'POST', `/api/flows/${flow.id}/versions/${versionId}/restore/`)).statusCode).toBe(404);
      expect((await svc(B.key, 'DELETE', `/api/flows/${flow.id}`)).statusCode).toBe(404);
      expect(await stored(flow.id)).toEqual(before);
    });
  });

  describe('create and list', () => {
    it('creates from the five fields, returns the flow, lists it, keeps version 1', async () => {
      const c = await company();
      expect((await svc(c.key, 'GET', '/api/flows/')).json()).toEqual([]);
      const flow = await newFlow(c, 'Welcome tour');
      expect(flow).toMatchObject({ ...create('Welcome tour'), id: expect.any(Number), intro_msg: '', intro_media_url: null, call_to_action: null, steps: [], keywords: [], version: 1 });
      expect((await svc(c.key, 'GET', '/api/flows/')).json()).toEqual([flow]);
      expect((await svc(c.key, 'GET', `/api/flows/${flow.id}/`)).json()).toEqual(flow);
      const versions = (await svc(c.key, 'GET', `/api/flows/${flow.id}/versions/`)).json() as FlowVersion[];
      expect(versions).toEqual([expect.objectContaining({ version: 1, kind: 'create', created_by: `key ${c.key.slice(0, 8)}…` })]);
    });

    it("names the console's member who made a version; a token of another company's member, or a bad one, leaves the key's prefix", async () => {
      const c = await company();
      const withToken = (token: string) =>
        t.app.inject({ method: 'POST', url: `${BOT_SERVICE_BASE}/api/flows/?access_key=${encodeURIComponent(c.key)}`, headers: { 'x-console-token': token }, payload: create(`Named ${token.length}`) });
      const named = await withToken(c.f.admin.access);
      expect(named.statusCode).toBe(201);
      const [row] = await t.db.select({ first: users.firstName, last: users.lastName }).from(users).where(eq(users.id, c.f.admin.id));
      const versions = (await svc(c.key, 'GET', `/api/flows/${(named.json() as Flow).id}/versions/`)).json() as FlowVersion[];
      expect(versions[0].created_by).toBe(`${row.first ?? ''} ${row.last ?? ''}`.trim() || c.f.admin.email);
      expect(versions[0].created_by).not.toMatch(/^key /);

      for (const token of [A.f.admin.access, 'not-a-token']) {
        const res = await withToken(token);
        expect(res.statusCode).toBe(201);
        const [v] = (await svc(c.key, 'GET', `/api/flows/${(res.json() as Flow).id}/versions/`)).json() as FlowVersion[];
        expect(v.created_by).toBe(`key ${c.key.slice(0, 8)}…`);
      }
    });

    it('takes only the five creation fields', async () => {
      const res = await svc(A.key, 'POST', '/api/flows/', { ...create('Extra'), intro_msg: 'not at creation' });
      expect(res.statusCode).toBe(400);
      expect((res.json() as FlowErrorBody).errors[0].title).toBe('Invalid input');
    });

    it('refuses a duplicate name in the company (any case) saying so; another company may use it', async () => {
      await newFlow(A, 'Summer Sale');
      const dup = await svc(A.key, 'POST', '/api/flows/', create('summer sale'));
      expect(dup.statusCode).toBe(400);
      expect(dup.json()).toMatchObject({ error: 'Invalid flow_name', message: FLOW_MESSAGES.duplicateName, errors: [{ source: { pointer: '/flow_name' } }] });
      expect(flowErrorMessage('create', dup.json())).toBe(`Error Invalid flow_name(${FLOW_MESSAGES.duplicateName})`);
      await newFlow(B, 'Summer Sale');
    });
  });

  describe('spec §5 rules on the server, field by field', () => {
    const long = (k: number) => 'x'.repeat(k);
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['flow_name required', { flow_name: '' }, 'flow_name', 'This field may not be blank.'],
      ['flow_name max 128', { flow_name: long(129) }, 'flow_name', 'Ensure this field has no more than 128 characters.'],
      ['description required', { description: '  ' }, 'description', 'This field may not be blank.'],
      ['description max 128', { description: long(129) }, 'description', 'Ensure this field has no more than 128 characters.'],
      ['company_name required', { company_name: '' }, 'company_name', 'This field may not be blank.'],
      ['company_domain required', { company_domain: undefined }, 'company_domain', 'This field is required.'],
      ['company_domain max 128', { company_domain: long(129) }, 'company_domain', 'Ensure this field has no more than 128 characters.'],
    ];
    for (const [name, patch, field, message] of cases) {
      it(`creation: ${name}`, async () => {
        const res = await svc(A.key, 'POST', '/api/flows/', { ...create(`Rule ${name}`), ...patch });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ error: `Invalid ${field}`, message });
      });
    }

    const saveCases: [string, Record<string, unknown>, string, string][] = [
      ...cases,
      ['intro_msg max 512', { intro_msg: long(513) }, 'intro_msg', 'Ensure this field has no more than 512 characters.'],
      ['find_out_more_msg max 512', { find_out_more_msg: long(513) }, 'find_out_more_msg', 'Ensure this field has no more than 512 characters.'],
      ['intro_media_url a valid URL', { intro_media_url: 'not a url' }, 'intro_media_url', FLOW_MESSAGES.invalidUrl],
      ['find_out_more_media_url a valid URL', { find_out_more_media_url: 'javascript:alert(1)' }, 'find_out_more_media_url', FLOW_MESSAGES.invalidUrl],
      ['call_to_action max 20', { call_to_action: long(21) }, 'call_to_action', 'Ensure this field has no more than 20 characters.'],
    ];
    let flow: Flow;
    beforeAll(async () => {
      flow = await newFlow(A, 'Rules target');
    });
    for (const [name, patch, field, message] of saveCases) {
      it(`save: ${name}, nothing changed`, async () => {
        const before = await stored(flow.id);
        const res = await svc(A.key, 'POST', `/api/flows/${flow.id}/save/`, { ...fullFlow('Rules target'), ...patch });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ error: `Invalid ${field}`, message });
        expect(await stored(flow.id)).toEqual(before);
      });
    }

    it('save: the limits themselves pass (128, 512, 20, call_to_action null)', async () => {
      const ok = { ...fullFlow('Rules target'), description: long(128), intro_msg: long(512), find_out_more_msg: long(512), call_to_action: long(20) };
      expect((await svc(A.key, 'POST', `/api/flows/${flow.id}/save/`, ok)).statusCode).toBe(200);
      const res = await svc(A.key, 'POST', `/api/flows/${flow.id}/save/`, { ...fullFlow('Rules target'), call_to_action: null });
      expect(res.statusCode).toBe(200);
      expect((res.json() as Flow).call_to_action).toBeNull();
    });
  });

  describe('save the whole flow', () => {
    it('keeps the step order and options, returns the flow, and a new version each time', async () => {
      const flow = await newFlow(A, 'Tour');
      const res = await svc(A.key, 'POST', `/api/flows/${flow.id}/save/`, { ...fullFlow('Tour'), id: 999 });
      expect(res.statusCode).toBe(200);
      const saved = res.json() as Flow;
      expect(saved.steps.map((s) => s.step_id)).toEqual(['s1', 's2', 's3']);
      expect(saved.steps[0].options).toEqual([{ text: 'Prices', next_step_id: 's3' }, { text: 'Hours', next_step_id: null }]);
      expect(saved).toMatchObject({ id: flow.id, version: 2, keywords: ['acme'], call_to_action: 'Visit us' });
      const reordered = fullFlow('Tour');
      reordered.steps = [reordered.steps[2], reordered.steps[0], reordered.steps[1]];
      const again = (await svc(A.key, 'POST', `/api/flows/${flow.id}/save/`, reordered)).json() as Flow;
      expect(again.steps.map((s) => s.step_id)).toEqual(['s3', 's1', 's2']);
      expect((await svc(A.key, 'GET', `/api/flows/${flow.id}/`)).json()).toEqual(again);
      const versions = (await svc(A.key, 'GET', `/api/flows/${flow.id}/versions/`)).json() as FlowVersion[];
      expect(versions.map((v) => [v.version, v.kind])).toEqual([
        [3, 'save'],
        [2, 'save'],
        [1, 'create'],
      ]);
      expect(versions[0].changes).toEqual({ fields: ['steps'], steps_added: [], steps_removed: [], steps_changed: [], steps_reordered: true });
      expect(versions[1].changes.steps_added).toEqual(['s1', 's2', 's3']);
      expect(versions[1].changes.fields).toEqual(expect.arrayContaining(['intro_msg', 'call_to_action', 'keywords', 'steps']));
    });

    const badRefs: [string, (f: ReturnType<typeof fullFlow>) => void, string][] = [
      ['a next_step_id naming no step', (f) => (f.steps[1].next_step_id = 'nowhere'), 'steps.1.next_step_id'],
      ['an option target naming no step', (f) => (f.steps[0].options[1].next_step_id = 'gone'), 'steps.0.options.1.next_step_id'],
      ['two steps with one step_id', (f) => (f.steps[2].step_id = 's1'), 'steps.2.step_id'],
    ];
    for (const [name, mutate, field] of badRefs) {
      it(`refuses ${name} and changes nothing`, async () => {
        const flow = await newFlow(A, `Refs ${name}`);
        expect((await svc(A.key, 'POST', `/api/flows/${flow.id}/save/`, fullFlow(`Refs ${name}`))).statusCode).toBe(200);
        const before = await stored(flow.id);
        const body = fullFlow(`Refs ${name}`);
        body.intro_msg = 'changed too';
        mutate(body);
        const res = await svc(A.key, 'POST', `/api/flows/${flow.id}/save/`, body);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ error: `Invalid ${field}` });
        expect((res.json() as FlowErrorBody).errors[0].source).toEqual({ pointer: `/${field.split('.').join('/')}` });
        expect(await stored(flow.id)).toEqual(before);
      });
    }

    it("refuses a rename onto another flow's name and changes nothing (the transaction rolls back)", async () => {
      await newFlow(A, 'Taken name');
      const flow = await newFlow(A, 'Renamed later');
      expect((await svc(A.key, 'POST', `/api/flows/${flow.id}/save/`, fullFlow('Renamed later'))).statusCode).toBe(200);
      const before = await stored(flow.id);
      const res = await svc(A.key, 'POST', `/api/flows/${flow.id}/save/`, { ...fullFlow('TAKEN NAME'), steps: [] });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'Invalid flow_name', message: FLOW_MESSAGES.duplicateName });
      expect(await stored(flow.id)).toEqual(before);
    });

    it('answers 404 for a flow that does not exist', async () => {
      const res = await svc(A.key, 'POST', '/api/flows/987654/save/', fullFlow('Ghost'));
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: 'Not Found', message: 'Not found.' });
    });
  });

  describe('versions', () => {
    it('shows a version and restores it as a new version', async () => {
      const flow = await newFlow(A, 'Versioned');
      await svc(A.key, 'POST', `/api/flows/${flow.id}/save/`, fullFlow('Versioned'));
      await svc(A.key, 'POST', `/api/flows/${flow.id}/save/`, { ...fullFlow('Versioned'), intro_msg: 'Second intro', steps: [] });
      const versions = (await svc(A.key, 'GET', `/api/flows/${flow.id}/versions/`)).json() as FlowVersion[];
      const v2 = versions.find((v) => v.version === 2)!;
      const detail = (await svc(A.key, 'GET', `/api/flows/${flow.id}/versions/${v2.id}/`)).json() as FlowVersionDetail;
      expect(detail.snapshot).toMatchObject({ intro_msg: 'Welcome to Acme!', steps: [{ step_id: 's1' }, { step_id: 's2' }, { step_id: 's3' }] });
      const restored = await svc(A.key, 'POST', `/api/flows/${flow.id}/versions/${v2.id}/restore/`);
      expect(restored.statusCode).toBe(200);
      expect(restored.json()).toMatchObject({ version: 4, intro_msg: 'Welcome to Acme!', steps: [{ step_id: 's1' }, { step_id: 's2' }, { step_id: 's3' }] });
      const after = (await svc(A.key, 'GET', `/api/flows/${flow.id}/versions/`)).json() as FlowVersion[];
      expect(after[0]).toMatchObject({ version: 4, kind: 'restore', restored_from: 2, changes: { fields: ['intro_msg', 'steps'], steps_added: ['s1', 's2', 's3'] } });
      expect(after).toHaveLength(4);
    });

    it("refuses a version of another flow of the company", async () => {
      const one = await newFlow(A, 'One v');
      const two = await newFlow(A, 'Two v');
      const [v] = (await svc(A.key, 'GET', `/api/flows/${one.id}/versions/`)).json() as FlowVersion[];
      expect((await svc(A.key, 'POST', `/api/flows/${two.id}/versions/${v.id}/restore/`)).statusCode).toBe(404);
      expect((await svc(A.key, 'GET', `/api/flows/${two.id}/versions/${v.id}/`)).statusCode).toBe(404);
    });
  });

  describe('delete', () => {
    it('deletes the flow with its steps and versions (spec path without a trailing slash); then 404', async () => {
      const flow = await newFlow(A, 'Doomed');
      await svc(A.key, 'POST', `/api/flows/${flow.id}/save/`, fullFlow('Doomed'));
      const res = await svc(A.key, 'DELETE', `/api/flows/${flow.id}`);
      expect(res.statusCode).toBe(204);
      expect(await stored(flow.id)).toEqual({ flow: [], steps: [], versions: [] });
      const again = await svc(A.key, 'DELETE', `/api/flows/${flow.id}/`);
      expect(again.statusCode).toBe(404);
      expect(flowErrorMessage('delete', again.json())).toBe('Error Not Found(Not found.)');
    });
  });

  describe('error composition (spec §8)', () => {
    it('falls back to the action, the error message, then An error occurred', () => {
      expect(flowErrorMessage('update', undefined, 'Network Error')).toBe('Error updating flow(Network Error)');
      expect(flowErrorMessage('delete', {})).toBe('Error deleting flow(An error occurred)');
      expect(flowErrorMessage('create', { error: 'Conflict' }, 'x')).toBe('Error Conflict(x)');
    });
  });
});
