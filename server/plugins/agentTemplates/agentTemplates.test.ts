import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged } from '../../../contract/api';
import type { AgentTemplate } from '../../../contract/agentTemplates';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { COMPANY_FORBIDDEN, NOT_FOUND, PERMISSION_DENIED, teamFixture, type TeamFixture } from '../team/testing';

const DUPLICATE = { name: ['An agent template with this name already exists.'] };

describeEachDatabase('agent templates', (database) => {
  let t: TestApp;
  let n = 0;
  const fixture = () => teamFixture(t, `Company ${++n}`, `c${n}.test`);

  beforeAll(async () => {
    t = await createTestApp({ database });
  });
  afterAll(() => t.close());

  const create = async (f: TeamFixture, name: string, text: string) => {
    const res = await f.call(f.agent, 'POST', '/api/agent-templates/', { name, text });
    expect(res.statusCode).toBe(201);
    return res.json() as AgentTemplate;
  };

  it('an agent creates, lists, edits and deletes a template (PUT and DELETE with or without the trailing slash)', async () => {
    const f = await fixture();
    const created = await create(f, '  Greeting  ', 'Hello!\n  How can I help?');
    expect(created).toEqual({ id: expect.any(Number), name: 'Greeting', text: 'Hello!\n  How can I help?', created_at: expect.any(String), updated_at: expect.any(String) });

    const list = await f.call(f.manager, 'GET', '/api/agent-templates/');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ count: 1, next: null, previous: null, results: [created] });

    const put = await f.call(f.agent, 'PUT', `/api/agent-templates/${created.id}`, { name: 'Welcome', text: 'Welcome aboard' });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ id: created.id, name: 'Welcome', text: 'Welcome aboard' });
    const putSlash = await f.call(f.admin, 'PUT', `/api/agent-templates/${created.id}/`, { name: 'welcome', text: 'Same name, other case: fine for itself' });
    expect(putSlash.statusCode).toBe(200);
    expect(putSlash.json().name).toBe('welcome');

    const second = await create(f, 'Bye', 'Goodbye');
    expect((await f.call(f.agent, 'DELETE', `/api/agent-templates/${created.id}`)).statusCode).toBe(204);
    expect((await f.call(f.agent, 'DELETE', `/api/agent-templates/${second.id}/`)).statusCode).toBe(204);
    expect((await f.call(f.agent, 'GET', '/api/agent-templates/')).json()).toMatchObject({ count: 0, results: [] });
    expect((await f.call(f.agent, 'DELETE', `/api/agent-templates/${second.id}`)).json()).toEqual(NOT_FOUND);
    expect((await f.call(f.agent, 'PUT', '/api/agent-templates/abc', { name: 'x', text: 'y' })).statusCode).toBe(404);
  });

  it('validates name (required, trimmed, at most 100) and text (required, at most 4096)', async () => {
    const f = await fixture();
    const post = (payload: unknown) => f.call(f.agent, 'POST', '/api/agent-templates/', payload);
    const missing = await post({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ name: ['This field is required.'], text: ['This field is required.'] });
    expect((await post({ name: '   ', text: ' \n ' })).json()).toEqual({ name: ['This field may not be blank.'], text: ['This field may not be blank.'] });
    expect((await post({ name: 'x'.repeat(101), text: 'y'.repeat(4097) })).json()).toEqual({
      name: ['Ensure this field has no more than 100 characters.'],
      text: ['Ensure this field has no more than 4096 characters.'],
    });
    expect((await post({ name: ` ${'x'.repeat(100)} `, text: 'y'.repeat(4096) })).statusCode).toBe(201);
    const created = (await post({ name: 'ok', text: 'ok' })).json() as AgentTemplate;
    expect((await f.call(f.agent, 'PUT', `/api/agent-templates/${created.id}/`, { name: '', text: 'ok' })).json()).toEqual({ name: ['This field may not be blank.'] });
  });

  it('names are unique per company, case-insensitively, on create and on edit; other companies may reuse them', async () => {
    const f = await fixture();
    const g = await fixture();
    const thanks = await create(f, 'Thanks', 'Thank you!');
    const dup = await f.call(f.admin, 'POST', '/api/agent-templates/', { name: ' THANKS ', text: 'again' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual(DUPLICATE);
    const other = await create(f, 'Other', 'other');
    const rename = await f.call(f.agent, 'PUT', `/api/agent-templates/${other.id}`, { name: 'thanks', text: 'other' });
    expect(rename.statusCode).toBe(400);
    expect(rename.json()).toEqual(DUPLICATE);
    expect((await create(g, 'thanks', 'In another company')).name).toBe('thanks');
    // Deleting frees the name.
    await f.call(f.agent, 'DELETE', `/api/agent-templates/${thanks.id}`);
    expect((await create(f, 'THANKS', 'back')).name).toBe('THANKS');
  });

  it('tenancy: another company answers 404 for its ids, foreign companies 403, and lists only show the header company', async () => {
    const f = await fixture();
    const g = await fixture();
    const mine = await create(f, 'Mine', 'only here');
    await create(g, 'Theirs', 'only there');
    expect((await f.call(g.agent, 'PUT', `/api/agent-templates/${mine.id}`, { name: 'Hijack', text: 'x' }, g.company)).json()).toEqual(NOT_FOUND);
    expect((await f.call(g.admin, 'DELETE', `/api/agent-templates/${mine.id}/`, undefined, g.company)).statusCode).toBe(404);
    expect((await f.call(g.agent, 'GET', '/api/agent-templates/', undefined, f.company)).json()).toEqual(COMPANY_FORBIDDEN);
    expect((await f.call(f.agent, 'GET', '/api/agent-templates/')).json().results.map((x: AgentTemplate) => x.name)).toEqual(['Mine']);
    // Still there, unchanged.
    expect((await f.call(f.agent, 'GET', '/api/agent-templates/')).json().results[0]).toEqual(mine);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/agent-templates/', headers: { company: String(f.company) } });
    expect(anonymous.statusCode).toBe(401);
    const noCompany = await t.app.inject({ method: 'GET', url: '/api/agent-templates/', headers: t.headers(f.agent.access) });
    expect(noCompany.statusCode).toBe(400);
  });

  it('needs chats view access: a role without can_view_chats is refused', async () => {
    const f = await fixture();
    await t.seed.rolePermissions(f.company, 'agent', { can_view_chats: false });
    expect((await f.call(f.agent, 'GET', '/api/agent-templates/')).json()).toEqual(PERMISSION_DENIED);
    expect((await f.call(f.agent, 'POST', '/api/agent-templates/', { name: 'a', text: 'b' })).statusCode).toBe(403);
    expect((await f.call(f.manager, 'POST', '/api/agent-templates/', { name: 'a', text: 'b' })).statusCode).toBe(201);
  });

  describe('paging and search', () => {
    let f: TeamFixture;
    const names = (page: Paged<AgentTemplate>) => page.results.map((x) => x.name);
    const list = async (query = '') => {
      const res = await f.call(f.agent, 'GET', `/api/agent-templates/${query}`);
      expect(res.statusCode).toBe(200);
      return res.json() as Paged<AgentTemplate>;
    };

    beforeAll(async () => {
      f = await fixture();
      await create(f, 'refund', 'Your refund is on its way.');
      await create(f, 'Address', 'Please confirm your delivery address.');
      await create(f, 'Opening hours', 'We are open 9-5, Monday to Friday.');
      await create(f, 'Discount', 'Use code SAVE_10 for 10% off.');
      await create(f, 'Closing', 'Anything else I can do for you?');
    });

    it('orders by name case-insensitively and pages with page and page_size', async () => {
      expect(names(await list())).toEqual(['Address', 'Closing', 'Discount', 'Opening hours', 'refund']);
      const second = await list('?page=2&page_size=2');
      expect(second.count).toBe(5);
      expect(names(second)).toEqual(['Discount', 'Opening hours']);
      expect(second.next).toBe('/api/agent-templates/?page=3&page_size=2');
      expect(second.previous).toBe('/api/agent-templates/?page=1&page_size=2');
      expect(await list('?page=9&page_size=2')).toMatchObject({ count: 5, next: null, results: [] });
      const bad = await f.call(f.agent, 'GET', '/api/agent-templates/?page=0');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ page: ['Invalid page.'] });
    });

    it('searches name and text case-insensitively, wildcards taken literally', async () => {
      expect(names(await list('?search=REFUND'))).toEqual(['refund']);
      expect(names(await list('?search=address'))).toEqual(['Address']);
      expect(names(await list('?search=monday'))).toEqual(['Opening hours']);
      expect(names(await list('?search=you'))).toEqual(['Address', 'Closing', 'refund']);
      expect(names(await list(`?search=${encodeURIComponent('10%')}`))).toEqual(['Discount']);
      expect(names(await list(`?search=${encodeURIComponent('_')}`))).toEqual(['Discount']);
      expect((await list('?search=nothing-like-this')).count).toBe(0);
    });
  });
});
