import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invite, PendingInvitation } from '../../../contract/team';
import { createTestApp, type TestApp } from '../../testing/testApp';

const DAY = 24 * 3600 * 1000;

/** GET /api/invitations/ and the invitee's Join (accept) and Decline. */
describe('the signed-in user answers invitations', () => {
  let t: TestApp;
  let acme: number;
  let globex: number;
  let adminAccess: string;

  const invite = async (companyId: number, email: string, role_id = 'agent') => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/invites/bulk/',
      headers: t.headers(adminAccess, companyId),
      payload: { invites: [{ email, role_id }] },
    });
    expect(res.statusCode).toBe(201);
    return res.json().results[0] as Invite;
  };
  const list = async (access: string) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/invitations/', headers: t.headers(access) });
    expect(res.statusCode).toBe(200);
    return res.json().results as PendingInvitation[];
  };
  const answer = (access: string, id: number, verb: 'accept' | 'decline') =>
    t.app.inject({ method: 'POST', url: `/api/invitations/${id}/${verb}/`, headers: t.headers(access) });
  const companyInvites = async (companyId: number, search: string) =>
    (await t.app.inject({ method: 'GET', url: `/api/invites/?status=all&search=${search}`, headers: t.headers(adminAccess, companyId) })).json()
      .results as Invite[];
  const memberEmails = async (companyId: number) =>
    (await t.app.inject({ method: 'GET', url: '/api/members/', headers: t.headers(adminAccess, companyId) })).json().results.map((m: { email: string }) => m.email);

  beforeAll(async () => {
    t = await createTestApp();
    const owner = await t.seed.user({ email: 'owner@acme.test', firstName: 'Olivia', lastName: 'Owner' });
    acme = await t.seed.company('Acme', { logo: 'https://cdn.example/acme.png' });
    globex = await t.seed.company('Globex');
    await t.seed.member(acme, owner, 'admin');
    await t.seed.member(globex, owner, 'admin');
    adminAccess = (await t.login('owner@acme.test')).access;
  });
  afterAll(() => t.close());

  it('lists the open invitations of the signed-in user, without a Company header', async () => {
    await t.seed.user({ email: 'ivy@example.com' });
    const sent = await invite(acme, 'ivy@example.com', 'manager');
    await invite(globex, 'ivy@example.com');
    const { access } = await t.login('ivy@example.com');
    expect(await list(access)).toEqual([
      {
        id: sent.id,
        company: { id: acme, name: 'Acme', logo: 'https://cdn.example/acme.png' },
        role: { id: 'manager', name: 'Manager' },
        invited_by: 'Olivia Owner',
        created_at: expect.any(String),
        expires_at: expect.any(String),
      },
      expect.objectContaining({ company: expect.objectContaining({ name: 'Globex' }), role: { id: 'agent', name: 'Agent' } }),
    ]);
    expect((await t.app.inject({ method: 'GET', url: '/api/invitations/' })).statusCode).toBe(401);
  });

  it('an invite is no membership until accepted; accepting joins the company with the invited role', async () => {
    await t.seed.user({ email: 'jules@example.com', firstName: 'Jules', lastName: 'Joiner' });
    const sent = await invite(acme, 'jules@example.com', 'manager');
    const { access } = await t.login('jules@example.com');
    expect(await memberEmails(acme)).not.toContain('jules@example.com');
    // Without the membership, the company's data stays closed to the invitee.
    expect((await t.app.inject({ method: 'GET', url: '/api/members/', headers: t.headers(access, acme) })).statusCode).toBe(403);

    const accepted = await answer(access, sent.id, 'accept');
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ detail: 'Invitation accepted.', company_id: acme });

    const me = await t.app.inject({ method: 'GET', url: '/account/user/', headers: t.headers(access) });
    expect(me.json().companies.map((c: { name: string; role: { id: string } }) => [c.name, c.role.id])).toEqual([['Acme', 'manager']]);
    expect(await memberEmails(acme)).toContain('jules@example.com');
    expect((await companyInvites(acme, 'jules')).map((i) => i.status)).toEqual(['accepted']);
    expect(await list(access)).toEqual([]);
    // Answered once: a second accept (or a decline) finds nothing.
    expect((await answer(access, sent.id, 'accept')).statusCode).toBe(404);
    expect((await answer(access, sent.id, 'decline')).statusCode).toBe(404);
  });

  it('declining removes the invitation; the company sees it as declined and may invite again', async () => {
    await t.seed.user({ email: 'dee@example.com' });
    const sent = await invite(globex, 'dee@example.com');
    const { access } = await t.login('dee@example.com');
    const declined = await answer(access, sent.id, 'decline');
    expect(declined.statusCode).toBe(200);
    expect(declined.json()).toEqual({ detail: 'Invitation declined.' });
    expect(await list(access)).toEqual([]);
    expect((await answer(access, sent.id, 'accept')).statusCode).toBe(404);
    expect(await memberEmails(globex)).not.toContain('dee@example.com');
    expect((await companyInvites(globex, 'dee')).map((i) => i.status)).toEqual(['declined']);
    const declinedOnly = await t.app.inject({ method: 'GET', url: '/api/invites/?status=declined', headers: t.headers(adminAccess, globex) });
    expect(declinedOnly.json().results.map((i: Invite) => i.email)).toContain('dee@example.com');
    // Revoking a declined invite changes nothing.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/invites/${sent.id}/`, headers: t.headers(adminAccess, globex) })).statusCode).toBe(204);
    expect((await companyInvites(globex, 'dee')).map((i) => i.status)).toEqual(['declined']);

    // A new invite is a new question; the decline stays on record.
    const again = await invite(globex, 'dee@example.com');
    expect(again.id).not.toBe(sent.id);
    expect((await list(access)).map((i) => i.id)).toEqual([again.id]);
    expect((await companyInvites(globex, 'dee')).map((i) => i.status).sort()).toEqual(['declined', 'pending']);
  });

  it("only the invitee may answer: another user's, a missing or a malformed id is 404", async () => {
    await t.seed.user({ email: 'target@example.com' });
    await t.seed.user({ email: 'intruder@example.com' });
    const sent = await invite(acme, 'target@example.com');
    const intruder = (await t.login('intruder@example.com')).access;
    expect(await list(intruder)).toEqual([]);
    for (const verb of ['accept', 'decline'] as const) {
      const res = await answer(intruder, sent.id, verb);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
    }
    // The admin who sent it cannot answer for the invitee either.
    expect((await answer(adminAccess, sent.id, 'accept')).statusCode).toBe(404);
    expect((await answer(intruder, 999_999, 'accept')).statusCode).toBe(404);
    expect((await answer(intruder, Number.NaN, 'accept')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/api/invitations/${sent.id}/accept/` })).statusCode).toBe(401);

    // Nothing happened: the invitee still has it.
    expect(await memberEmails(acme)).not.toContain('intruder@example.com');
    const target = (await t.login('target@example.com')).access;
    expect((await list(target)).map((i) => i.id)).toEqual([sent.id]);
  });

  it('expired and revoked invitations are not listed and cannot be answered', async () => {
    await t.seed.user({ email: 'late@example.com' });
    const revoked = await invite(acme, 'late@example.com');
    await t.app.inject({ method: 'DELETE', url: `/api/invites/${revoked.id}/`, headers: t.headers(adminAccess, acme) });
    const expiring = await invite(globex, 'late@example.com');
    const { access } = await t.login('late@example.com');
    expect((await list(access)).map((i) => i.id)).toEqual([expiring.id]);
    expect((await answer(access, revoked.id, 'accept')).statusCode).toBe(404);

    t.clock.advance(8 * DAY);
    const fresh = (await t.login('late@example.com')).access;
    adminAccess = (await t.login('owner@acme.test')).access;
    expect(await list(fresh)).toEqual([]);
    expect((await answer(fresh, expiring.id, 'accept')).statusCode).toBe(404);
    expect((await answer(fresh, expiring.id, 'decline')).statusCode).toBe(404);
    expect(await memberEmails(globex)).not.toContain('late@example.com');
  });
});
