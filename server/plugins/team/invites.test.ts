import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Paged } from '../../../contract/api';
import type { Invite } from '../../../contract/team';
import { invites } from '../../core/db/schema';
import { sha256 } from '../../core/auth/secrets';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { COMPANY_FORBIDDEN, NOT_FOUND, PERMISSION_DENIED, teamFixture, type TeamFixture } from './testFixtures';

const DAY = 24 * 3600 * 1000;

/** The invite token and e-mail of the newest invitation link e-mailed to `to`. */
async function inviteLink(t: TestApp, to: string): Promise<{ url: URL; token: string; email: string }> {
  const url = new URL(await t.outbox.link(to));
  return { url, token: url.searchParams.get('invite')!, email: url.searchParams.get('email')! };
}

describe('team invites', () => {
  let t: TestApp;
  let n = 0;
  const fixture = () => teamFixture(t, `Company ${++n}`, `c${n}.test`);
  const bulk = (f: TeamFixture, who: TeamFixture['admin'], list: unknown[]) => f.call(who, 'POST', '/api/invites/bulk/', { invites: list });
  const listInvites = async (f: TeamFixture, query = '') => {
    const res = await f.call(f.admin, 'GET', `/api/invites/${query}`);
    expect(res.statusCode).toBe(200);
    return res.json() as Paged<Invite>;
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('POST /api/invites/bulk/', () => {
    it('creates the invites (agent by default) and e-mails each invitee a link with a hashed, expiring token', async () => {
      const f = await fixture();
      const res = await bulk(f, f.admin, [{ email: ' New.Person@Example.com ' }, { email: 'boss@example.com', role_id: 'admin' }]);
      expect(res.statusCode).toBe(201);
      const { results } = res.json() as { results: Invite[] };
      const expiresAt = new Date(t.clock.now().getTime() + 7 * DAY).toISOString();
      expect(results).toEqual([
        { id: expect.any(Number), email: 'new.person@example.com', role_id: 'agent', status: 'pending', invited_by: `Admin Company ${n}`, created_at: t.clock.now().toISOString(), expires_at: expiresAt },
        { id: expect.any(Number), email: 'boss@example.com', role_id: 'admin', status: 'pending', invited_by: `Admin Company ${n}`, created_at: t.clock.now().toISOString(), expires_at: expiresAt },
      ]);

      const mail = await t.outbox.last('new.person@example.com');
      expect(mail.subject).toBe(`Admin Company ${n} invited you to join Company ${n}`);
      expect(mail.text).toContain(`Admin Company ${n} invited you to join Company ${n} on the console as Agent.`);
      expect(mail.html).toContain('Accept the invitation');
      const { url, token, email } = await inviteLink(t, 'new.person@example.com');
      expect(`${url.origin}${url.pathname}`).toBe('http://console.test/auth/signup/create-account');
      expect(email).toBe('new.person@example.com');
      expect(token.length).toBeGreaterThanOrEqual(40);
      // Only the hash is stored.
      const [row] = await t.db.select().from(invites).where(eq(invites.id, results[0].id));
      expect(row.tokenHash).toBe(sha256(token));
      expect(JSON.stringify(row)).not.toContain(token);
      expect(row.invitedBy).toBe(f.admin.id);
      expect((await t.outbox.last('boss@example.com')).text).toContain('as Admin.');
    });

    it('rejects already-members per entry and creates nothing (no invite, no e-mail)', async () => {
      const f = await fixture();
      const res = await bulk(f, f.admin, [{ email: 'fresh@example.com' }, { email: f.agent.email }, { email: f.manager.email.toUpperCase() }]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ invites: [`${f.agent.email} is already a member.`, `${f.manager.email} is already a member.`] });
      expect((await listInvites(f, '?status=all')).count).toBe(0);
      expect(await t.outbox.all('fresh@example.com')).toEqual([]);
    });

    it('validates the list: e-mails, duplicates, roles, size', async () => {
      const f = await fixture();
      expect((await bulk(f, f.admin, [{ email: 'not-an-email' }])).json()).toEqual({ 'invites.0.email': ['Enter a valid email address.'] });
      expect((await bulk(f, f.admin, [{ email: 'a@example.com' }, { email: 'A@example.com' }])).json()).toEqual({
        invites: ['a@example.com is listed more than once.'],
      });
      expect((await bulk(f, f.admin, [{ email: 'a@example.com', role_id: 'owner' }])).json()).toEqual({ 'invites.0.role_id': ['"owner" is not a valid choice.'] });
      expect((await bulk(f, f.admin, [])).json()).toEqual({ invites: ['Add at least one e-mail address.'] });
      const many = Array.from({ length: 51 }, (_, i) => ({ email: `p${i}@example.com` }));
      expect((await bulk(f, f.admin, many)).json()).toEqual({ invites: ['Invite at most 50 people at once.'] });
      expect((await f.call(f.admin, 'POST', '/api/invites/bulk/', {})).json()).toEqual({ invites: ['This field is required.'] });
      expect((await listInvites(f, '?status=all')).count).toBe(0);
    });

    it('refreshes a pending invite for the same e-mail (new token, new expiry, new role) instead of duplicating it', async () => {
      const f = await fixture();
      const first = (await bulk(f, f.admin, [{ email: 'again@example.com' }])).json().results[0] as Invite;
      const oldLink = await inviteLink(t, 'again@example.com');
      t.clock.advance(2 * DAY);
      await f.signInAgain();
      const second = (await bulk(f, f.admin, [{ email: 'again@example.com', role_id: 'manager' }])).json().results[0] as Invite;
      expect(second.id).toBe(first.id);
      expect(second.role_id).toBe('manager');
      expect(new Date(second.expires_at).getTime()).toBe(t.clock.now().getTime() + 7 * DAY);
      const newLink = await inviteLink(t, 'again@example.com');
      expect(newLink.token).not.toBe(oldLink.token);
      const [row] = await t.db.select().from(invites).where(eq(invites.id, first.id));
      expect(row.tokenHash).toBe(sha256(newLink.token));
      expect((await listInvites(f, '?status=all')).count).toBe(1);
      expect(await t.outbox.all('again@example.com')).toHaveLength(2);

      // An expired invite is refreshed too; a revoked one is not reused.
      t.clock.advance(8 * DAY);
      await f.signInAgain();
      expect((await bulk(f, f.admin, [{ email: 'again@example.com' }])).json().results[0]).toMatchObject({ id: first.id, status: 'pending' });
      expect((await f.call(f.admin, 'DELETE', `/api/invites/${first.id}/`)).statusCode).toBe(204);
      const third = (await bulk(f, f.admin, [{ email: 'again@example.com' }])).json().results[0] as Invite;
      expect(third.id).not.toBe(first.id);
      expect((await listInvites(f, '?status=all')).count).toBe(2);
    });

    it('lets a manager invite agents and managers but not admins; an agent may not invite', async () => {
      const f = await fixture();
      const admins = await bulk(f, f.manager, [{ email: 'x@example.com' }, { email: 'y@example.com', role_id: 'admin' }]);
      expect(admins.statusCode).toBe(403);
      expect(admins.json()).toEqual({ detail: 'Only an admin can invite admins.', code: 'admin_role_forbidden' });
      expect((await listInvites(f, '?status=all')).count).toBe(0);
      expect((await bulk(f, f.manager, [{ email: 'x@example.com' }, { email: 'y@example.com', role_id: 'manager' }])).statusCode).toBe(201);
      const byAgent = await bulk(f, f.agent, [{ email: 'z@example.com' }]);
      expect(byAgent.statusCode).toBe(403);
      expect(byAgent.json()).toEqual(PERMISSION_DENIED);
    });
  });

  describe('GET /api/invites/', () => {
    it('lists pending invites by default, every one with status=all, computing expired from expires_at', async () => {
      const f = await fixture();
      await bulk(f, f.admin, [{ email: 'old@example.com' }]);
      t.clock.advance(3 * DAY);
      await f.signInAgain();
      await bulk(f, f.admin, [{ email: 'mid@example.com' }, { email: 'gone@example.com' }]);
      const gone = (await listInvites(f)).results.find((i) => i.email === 'gone@example.com')!;
      await f.call(f.admin, 'DELETE', `/api/invites/${gone.id}/`);
      t.clock.advance(5 * DAY); // old@ is now 8 days old: expired
      await f.signInAgain();

      const pending = await listInvites(f);
      expect(pending.results.map((i) => [i.email, i.status])).toEqual([['mid@example.com', 'pending']]);
      const all = await listInvites(f, '?status=all');
      expect(all.results.map((i) => [i.email, i.status])).toEqual([
        ['gone@example.com', 'revoked'],
        ['mid@example.com', 'pending'],
        ['old@example.com', 'expired'],
      ]);
      expect((await listInvites(f, '?status=expired')).results.map((i) => i.email)).toEqual(['old@example.com']);
      expect((await listInvites(f, '?status=revoked')).results.map((i) => i.email)).toEqual(['gone@example.com']);
      expect((await listInvites(f, '?status=all&search=MID')).results.map((i) => i.email)).toEqual(['mid@example.com']);
      const paged = await listInvites(f, '?status=all&page=2&page_size=2');
      expect(paged).toMatchObject({ count: 3, next: null, previous: '/api/invites/?status=all&page=1&page_size=2' });
      expect(paged.results.map((i) => i.email)).toEqual(['old@example.com']);
      expect((await f.call(f.admin, 'GET', '/api/invites/?status=bogus')).statusCode).toBe(400);
      // Sorting (react-admin sends `ordering`; the default is newest first).
      const emails = async (q: string) => (await listInvites(f, `?status=all&ordering=${q}`)).results.map((i) => i.email);
      expect(await emails('email')).toEqual(['gone@example.com', 'mid@example.com', 'old@example.com']);
      expect(await emails('-email')).toEqual(['old@example.com', 'mid@example.com', 'gone@example.com']);
      expect(await emails('expires_at')).toEqual(['old@example.com', 'mid@example.com', 'gone@example.com']);
      expect(await emails('id')).toEqual(['old@example.com', 'mid@example.com', 'gone@example.com']);
      expect((await listInvites(f, '?status=all&ordering=invited_by')).count).toBe(3);
      expect((await f.call(f.admin, 'GET', '/api/invites/?ordering=token_hash')).statusCode).toBe(400);
    });

    it('needs can_view_members (an agent gets 403) and shows only the header company', async () => {
      const a = await fixture();
      const b = await fixture();
      await bulk(b, b.admin, [{ email: 'b-only@example.com' }]);
      expect((await listInvites(a, '?status=all')).count).toBe(0);
      expect((await a.call(a.agent, 'GET', '/api/invites/')).json()).toEqual(PERMISSION_DENIED);
      expect((await a.call(a.manager, 'GET', '/api/invites/')).statusCode).toBe(200);
    });
  });

  describe('DELETE /api/invites/{id}/', () => {
    it('revokes: the invite leaves the pending list and its link stops working', async () => {
      const f = await fixture();
      const invite = (await bulk(f, f.admin, [{ email: 'revoke-me@example.com' }])).json().results[0] as Invite;
      const token = new URL(await t.outbox.link('revoke-me@example.com')).searchParams.get('invite')!;
      const check = () =>
        t.app.inject({ method: 'GET', url: `/api/invites/check_email/?email=revoke-me@example.com&token=${token}` }).then((r) => r.json());
      expect(await check()).toMatchObject({ invited: true, companies: [`Company ${n}`] });

      const res = await f.call(f.admin, 'DELETE', `/api/invites/${invite.id}/`);
      expect(res.statusCode).toBe(204);
      expect((await listInvites(f)).count).toBe(0);
      expect((await listInvites(f, '?status=all')).results[0]).toMatchObject({ id: invite.id, status: 'revoked' });
      expect(await check()).toMatchObject({ invited: false, companies: [] });
      // Revoking again is harmless.
      expect((await f.call(f.admin, 'DELETE', `/api/invites/${invite.id}/`)).statusCode).toBe(204);
      expect((await f.call(f.admin, 'DELETE', '/api/invites/999999/')).json()).toEqual(NOT_FOUND);
    });

    it('refuses to revoke an accepted invite', async () => {
      const f = await fixture();
      const userId = await t.seed.user({ email: 'joiner@example.com' });
      const invite = (await bulk(f, f.admin, [{ email: 'joiner@example.com' }])).json().results[0] as Invite;
      const { access } = await t.login('joiner@example.com');
      await expect(f.membershipId(userId)).rejects.toThrow(/not a member/); // an invite is no membership until accepted
      const accepted = await t.app.inject({ method: 'POST', url: `/api/invitations/${invite.id}/accept/`, headers: t.headers(access) });
      expect(accepted.statusCode).toBe(200);
      expect(await f.membershipId(userId)).toEqual(expect.any(Number));
      const res = await f.call(f.admin, 'DELETE', `/api/invites/${invite.id}/`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'This invite has already been accepted.', code: 'invite_accepted' });
    });

    it('needs can_manage_members, and cannot reach another company’s invites', async () => {
      const a = await fixture();
      const b = await fixture();
      const invite = (await bulk(b, b.admin, [{ email: 'b-invite@example.com' }])).json().results[0] as Invite;
      const byAgent = await b.call(b.agent, 'DELETE', `/api/invites/${invite.id}/`);
      expect(byAgent.json()).toEqual(PERMISSION_DENIED);
      const crossId = await a.call(a.admin, 'DELETE', `/api/invites/${invite.id}/`);
      expect(crossId.statusCode).toBe(404);
      const crossHeader = await a.call(a.admin, 'DELETE', `/api/invites/${invite.id}/`, undefined, b.company);
      expect(crossHeader.json()).toEqual(COMPANY_FORBIDDEN);
      const bulkElsewhere = await a.call(a.admin, 'POST', '/api/invites/bulk/', { invites: [{ email: 'sneaky@example.com' }] }, b.company);
      expect(bulkElsewhere.json()).toEqual(COMPANY_FORBIDDEN);
      expect((await listInvites(b)).results.map((i) => [i.id, i.status])).toEqual([[invite.id, 'pending']]);
    });
  });
});
