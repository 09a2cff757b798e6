/**
 * GET /api/chats/members/ (contract/conversations.ts ChatMember): the members an agent assigns and
 * mentions. Readable with chats view (an agent, who cannot read /api/members/), the company's own members
 * only, searchable and paged, with names, e-mails and avatars and nothing about roles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMember } from '../../../contract/conversations';
import type { Paged } from '../../../contract/api';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { teamFixture, type TeamFixture } from '../team/testing';

describe('the inbox members list', () => {
  let t: TestApp;
  let acme: TeamFixture;
  let globex: TeamFixture;

  beforeAll(async () => {
    t = await createTestApp();
    acme = await teamFixture(t, 'Acme', 'acme.test');
    globex = await teamFixture(t, 'Globex', 'globex.test');
    await acme.add('agent', 'zoe.martin@acme.test', { firstName: 'Zoé', lastName: 'Martin' });
  });
  afterAll(() => t.close());

  it("is readable by an agent, who cannot read the team's member list", async () => {
    expect((await acme.call(acme.agent, 'GET', '/api/members/')).statusCode).toBe(403);
    const res = await acme.call(acme.agent, 'GET', '/api/chats/members/');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<Paged<ChatMember>>();
    expect(body.count).toBe(4);
    expect(body.results.map((m) => m.email).sort()).toEqual(['admin@acme.test', 'agent@acme.test', 'manager@acme.test', 'zoe.martin@acme.test']);
    expect(Object.keys(body.results[0]).sort()).toEqual(['email', 'first_name', 'last_name', 'profile_avatar_url', 'user_id']);
    expect(body.results.find((m) => m.email === 'agent@acme.test')?.user_id).toBe(acme.agent.id);
  });

  it("lists the caller's company only, by the Company header", async () => {
    const res = await globex.call(globex.agent, 'GET', '/api/chats/members/');
    expect(res.json<Paged<ChatMember>>().results.every((m) => m.email.endsWith('@globex.test'))).toBe(true);
    expect((await acme.call(acme.agent, 'GET', '/api/chats/members/', undefined, globex.company)).statusCode).toBe(403);
  });

  it('finds by first name, last name, full name or e-mail, and pages', async () => {
    const search = async (term: string) =>
      (await acme.call(acme.agent, 'GET', `/api/chats/members/?search=${encodeURIComponent(term)}`)).json<Paged<ChatMember>>().results.map((m) => m.email);
    expect(await search('zoé')).toEqual(['zoe.martin@acme.test']);
    expect(await search('martin')).toEqual(['zoe.martin@acme.test']);
    expect(await search('Zoé Mar')).toEqual(['zoe.martin@acme.test']);
    expect(await search('MANAGER@')).toEqual(['manager@acme.test']);
    expect(await search('%')).toEqual([]);
    const page = (await acme.call(acme.agent, 'GET', '/api/chats/members/?page_size=3&page=2')).json<Paged<ChatMember>>();
    expect(page.count).toBe(4);
    expect(page.results).toHaveLength(1);
    expect(page.previous).toContain('page=1');
    expect((await acme.call(acme.agent, 'GET', '/api/chats/members/?page=0')).statusCode).toBe(400);
  });
});
