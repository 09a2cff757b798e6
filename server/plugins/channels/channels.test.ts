import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Channel, ChannelsListResponse, FacebookPage } from '../../../contract/channels';
import { channels, rooms } from '../../core/db/schema';
import { ensureSandboxChannel } from '../sandbox';
import { channelsTestApp, companyFixture, insertChannel, type ChannelsTestApp, type CompanyFixture } from './testFixtures';

const PERMISSION_DENIED = { detail: 'You do not have permission to perform this action.', code: 'permission_denied' };
const NOT_FOUND = { detail: 'Not found.', code: 'not_found' };
const ALREADY = { detail: 'This account is already connected to another company.', code: 'already_connected' };

describe('channels REST (/api/channels/)', () => {
  let t: ChannelsTestApp;
  let acme: CompanyFixture;
  let globex: CompanyFixture;

  beforeAll(async () => {
    t = await channelsTestApp('pglite');
    acme = await companyFixture(t, 'Acme', 'acme.test');
    globex = await companyFixture(t, 'Globex', 'globex.test');
    t.graph.pages.set('user-token-acme', [
      { id: 'page-1', name: 'Acme Shoes', access_token: 'page-token-1', instagram: { id: 'ig-1', username: 'acmeshoes' } },
      { id: 'page-2', name: 'Acme Blog', access_token: 'page-token-2', instagram: null },
    ]);
    t.graph.pages.set('user-token-globex', [{ id: 'page-1', name: 'Acme Shoes', access_token: 'page-token-1b', instagram: { id: 'ig-1', username: 'acmeshoes' } }]);
  });
  afterAll(() => t.close());

  describe('GET /api/channels/', () => {
    it('lists the company channels newest first as Channel, paged, with company_connected', async () => {
      const company = await t.seed.company('Lister');
      const adminId = await t.seed.user({ email: 'admin@lister.test' });
      const agentId = await t.seed.user({ email: 'agent@lister.test' });
      await t.seed.member(company, adminId, 'admin');
      await t.seed.member(company, agentId, 'agent');
      const admin = (await t.login('admin@lister.test')).access;
      const agent = (await t.login('agent@lister.test')).access;
      const sandbox = await ensureSandboxChannel(t.db, company);
      t.clock.advance(1000);
      const list = async (access: string, query = '') => {
        const res = await t.app.inject({ method: 'GET', url: `/api/channels/${query}`, headers: t.headers(access, company) });
        expect(res.statusCode).toBe(200);
        return res.json() as ChannelsListResponse & { next: string | null; previous: string | null };
      };

      // Only the sandbox: not connected for an agent of a two-member company, connected for its admin (spec §4).
      let page = await list(agent);
      expect(page.count).toBe(1);
      expect(page.company_connected).toBe(false);
      expect((await list(admin)).company_connected).toBe(true);
      expect(page.results[0]).toEqual({
        id: sandbox.id,
        external_id: `sandbox-${company}`,
        platform: 'sandbox',
        name: 'Sandbox',
        status: 'active',
        display_phone_number: null,
        waba_id: null,
        signup_status: null,
        signup_error: null,
        steps: [],
        connected: true,
        simulator_url: `/sandbox/${sandbox.simulatorKey}`,
        created_at: expect.any(String),
      } satisfies Channel);

      const wa = await insertChannel(t, company, { platform: 'whatsapp', externalId: 'pn-lister', name: 'Lister WA' });
      await t.db.update(channels).set({ createdAt: new Date(Date.now() + 60_000), signupStatus: 'partial_failure', signupError: 'register_phone failed: x', displayPhoneNumber: '+1 555 0100' }).where(eq(channels.id, wa.id));
      const fb = await insertChannel(t, company, { platform: 'messenger', externalId: 'page-lister' });
      await t.db.update(channels).set({ createdAt: new Date(Date.now() + 120_000) }).where(eq(channels.id, fb.id));

      page = await list(agent);
      expect(page.results.map((c) => c.id)).toEqual([fb.id, wa.id, sandbox.id]);
      // partial_failure counts as connected (spec §4).
      expect(page.company_connected).toBe(true);
      const whatsapp = page.results[1];
      expect(whatsapp).toMatchObject({ platform: 'whatsapp', signup_status: 'partial_failure', connected: true, display_phone_number: '+1 555 0100', waba_id: 'waba-pn-lister', steps: expect.any(Array) });
      expect(JSON.stringify(page)).not.toMatch(/token|_enc/);

      const second = await list(agent, '?page=2&page_size=2');
      expect(second.results.map((c) => c.id)).toEqual([sandbox.id]);
      expect(second).toMatchObject({ count: 3, next: null, previous: '/api/channels/?page=1&page_size=2' });
      expect((await list(agent, '?page=1&page_size=2')).next).toBe('/api/channels/?page=2&page_size=2');
      const bad = await t.app.inject({ method: 'GET', url: '/api/channels/?page=0', headers: t.headers(agent, company) });
      expect(bad.statusCode).toBe(400);
    });

    it('needs login, the Company header, membership and can_view_channels', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/channels/' })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: '/api/channels/', headers: t.headers(acme.admin.access) })).statusCode).toBe(400);
      expect((await acme.call(acme.admin, 'GET', '/api/channels/', undefined, globex.company)).statusCode).toBe(403);
      const company = await t.seed.company('Blind');
      const userId = await t.seed.user({ email: 'blind@blind.test' });
      await t.seed.member(company, userId, 'agent');
      await t.seed.rolePermissions(company, 'agent', { can_view_channels: false });
      const access = (await t.login('blind@blind.test')).access;
      const res = await t.app.inject({ method: 'GET', url: '/api/channels/', headers: t.headers(access, company) });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(PERMISSION_DENIED);
    });
  });

  describe('Facebook pages and Instagram accounts', () => {
    it('POST /api/channels/facebook_pages/ lists the managed pages with their Instagram account; agents are refused', async () => {
      const res = await acme.call(acme.admin, 'POST', '/api/channels/facebook_pages/', { access_token: 'user-token-acme' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        results: [
          { id: 'page-1', name: 'Acme Shoes', instagram: { id: 'ig-1', username: 'acmeshoes', connected: false }, connected: false },
          { id: 'page-2', name: 'Acme Blog', instagram: null, connected: false },
        ] satisfies FacebookPage[],
      });
      expect(JSON.stringify(res.json())).not.toContain('page-token');
      expect((await acme.call(acme.agent, 'POST', '/api/channels/facebook_pages/', { access_token: 'user-token-acme' })).json()).toEqual(PERMISSION_DENIED);
      const expired = await acme.call(acme.admin, 'POST', '/api/channels/facebook_pages/', { access_token: 'expired' });
      expect(expired.statusCode).toBe(400);
      expect(expired.json()).toMatchObject({ code: 'provider_error', detail: expect.stringContaining('Facebook') });
      expect((await acme.call(acme.admin, 'POST', '/api/channels/facebook_pages/', {})).json()).toEqual({ access_token: ['This field is required.'] });
    });

    it('POST /api/channels/ connects a page (201), subscribes the app, stores the page token sealed', async () => {
      const res = await acme.call(acme.manager, 'POST', '/api/channels/', { platform: 'messenger', access_token: 'user-token-acme', page_id: 'page-1' });
      expect(res.statusCode).toBe(201);
      const channel = res.json() as Channel;
      expect(channel).toMatchObject({ platform: 'messenger', external_id: 'page-1', name: 'Acme Shoes', status: 'active', connected: true, signup_status: null });
      expect(t.graph.subscribedPages.has('page-1')).toBe(true);
      const [row] = await t.db.select().from(channels).where(eq(channels.id, channel.id));
      expect(row.accessTokenEnc).toMatch(/^v1:/);
      expect(JSON.stringify(row)).not.toContain('page-token-1');
      const pages = (await acme.call(acme.admin, 'POST', '/api/channels/facebook_pages/', { access_token: 'user-token-acme' })).json().results as FacebookPage[];
      expect(pages.find((p) => p.id === 'page-1')!.connected).toBe(true);
      // Connecting it again refreshes the token: 200, same channel.
      const again = await acme.call(acme.admin, 'POST', '/api/channels/', { platform: 'messenger', access_token: 'user-token-acme', page_id: 'page-1' });
      expect(again.statusCode).toBe(200);
      expect(again.json().id).toBe(channel.id);
    });

    it('Instagram needs the page’s linked account: external_id is the Instagram id, settings keep the page', async () => {
      const none = await acme.call(acme.admin, 'POST', '/api/channels/', { platform: 'instagram', access_token: 'user-token-acme', page_id: 'page-2' });
      expect(none.statusCode).toBe(400);
      expect(none.json()).toEqual({ page_id: ['This page has no linked Instagram professional account.'] });
      const res = await acme.call(acme.admin, 'POST', '/api/channels/', { platform: 'instagram', access_token: 'user-token-acme', page_id: 'page-1' });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ platform: 'instagram', external_id: 'ig-1', name: '@acmeshoes', status: 'active' });
      const [row] = await t.db.select().from(channels).where(eq(channels.id, res.json().id));
      expect(row.settings).toMatchObject({ page_id: 'page-1' });
    });

    it('refuses a page the token does not manage (400), agents (403), and an account connected to another company (409)', async () => {
      const foreign = await acme.call(acme.admin, 'POST', '/api/channels/', { platform: 'messenger', access_token: 'user-token-acme', page_id: 'page-9' });
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json()).toEqual({ page_id: ['This page is not among the pages your Facebook account manages.'] });
      expect((await acme.call(acme.agent, 'POST', '/api/channels/', { platform: 'messenger', access_token: 'user-token-acme', page_id: 'page-2' })).statusCode).toBe(403);
      const taken = await globex.call(globex.admin, 'POST', '/api/channels/', { platform: 'messenger', access_token: 'user-token-globex', page_id: 'page-1' });
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toEqual(ALREADY);
      const takenIg = await globex.call(globex.admin, 'POST', '/api/channels/', { platform: 'instagram', access_token: 'user-token-globex', page_id: 'page-1' });
      expect(takenIg.statusCode).toBe(409);
      const pages = (await globex.call(globex.admin, 'POST', '/api/channels/facebook_pages/', { access_token: 'user-token-globex' })).json().results;
      expect(pages[0].connected).toBe(true);
    });
  });

  describe('DELETE /api/channels/{id}/ and reconnection', () => {
    it('unsubscribes, disconnects and wipes the token (204); reconnecting re-activates the same row with its rooms', async () => {
      const connected = (await acme.call(acme.admin, 'POST', '/api/channels/', { platform: 'messenger', access_token: 'user-token-acme', page_id: 'page-2' })).json() as Channel;
      await t.db.insert(rooms).values({ companyId: acme.company, channelId: connected.id, externalId: 'psid-1', name: 'Someone' });
      expect((await acme.call(acme.agent, 'DELETE', `/api/channels/${connected.id}/`)).statusCode).toBe(403);
      expect((await globex.call(globex.admin, 'DELETE', `/api/channels/${connected.id}/`)).json()).toEqual(NOT_FOUND);

      const res = await acme.call(acme.admin, 'DELETE', `/api/channels/${connected.id}/`);
      expect(res.statusCode).toBe(204);
      expect(t.graph.subscribedPages.has('page-2')).toBe(false);
      const [row] = await t.db.select().from(channels).where(eq(channels.id, connected.id));
      expect(row).toMatchObject({ status: 'disconnected', accessTokenEnc: null });
      const listed = (await acme.call(acme.admin, 'GET', '/api/channels/')).json().results.find((c: Channel) => c.id === connected.id);
      expect(listed).toMatchObject({ status: 'disconnected', connected: false });
      // Twice is fine.
      expect((await acme.call(acme.admin, 'DELETE', `/api/channels/${connected.id}/`)).statusCode).toBe(204);

      const again = await acme.call(acme.admin, 'POST', '/api/channels/', { platform: 'messenger', access_token: 'user-token-acme', page_id: 'page-2' });
      expect(again.statusCode).toBe(201);
      expect(again.json()).toMatchObject({ id: connected.id, status: 'active' });
      expect(await t.db.select().from(rooms).where(eq(rooms.channelId, connected.id))).toHaveLength(1);
    });

    it('a failed unsubscribe is only logged; the sandbox cannot be disconnected; unknown ids are 404', async () => {
      const channel = await insertChannel(t, acme.company, { platform: 'whatsapp', externalId: 'pn-del', wabaId: 'waba-del' });
      t.graph.failNext('unsubscribeWaba');
      expect((await acme.call(acme.admin, 'DELETE', `/api/channels/${channel.id}/`)).statusCode).toBe(204);
      expect(t.graph.callsOf('unsubscribeWaba').at(-1)!.args).toEqual(['waba-del', 'token-pn-del']);
      expect((await t.db.select().from(channels).where(eq(channels.id, channel.id)))[0].status).toBe('disconnected');

      const sandbox = await ensureSandboxChannel(t.db, acme.company);
      const res = await acme.call(acme.admin, 'DELETE', `/api/channels/${sandbox.id}/`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'The sandbox channel cannot be disconnected.', code: 'sandbox_channel' });
      expect((await acme.call(acme.admin, 'DELETE', '/api/channels/999999/')).statusCode).toBe(404);
      expect((await acme.call(acme.admin, 'DELETE', '/api/channels/abc/')).statusCode).toBe(404);
    });
  });

  describe('GET /api/channels/{id}/templates/', () => {
    it('lists a WhatsApp channel’s templates with its token; other channels have none; other companies 404', async () => {
      const wa = await insertChannel(t, acme.company, { platform: 'whatsapp', externalId: 'pn-tpl', wabaId: 'waba-tpl', token: 'biz-token' });
      const template = { id: 't1', name: 'order_update', language: 'en_US', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text: 'Hi {{1}}' }] };
      t.graph.templates.set('waba-tpl', [template]);
      const res = await acme.call(acme.agent, 'GET', `/api/channels/${wa.id}/templates/`);
      expect(res.statusCode).toBe(200);
      // Served from our synced copy (server/plugins/templates), in the paged `results` envelope.
      expect(res.json()).toMatchObject({ count: 1, results: [{ meta_template_id: 't1', name: 'order_update', language: 'en_US', status: 'APPROVED', category: 'UTILITY', components: template.components }] });
      expect(t.graph.callsOf('messageTemplates').at(-1)!.args).toEqual(['waba-tpl', 'biz-token']);
      const sandbox = await ensureSandboxChannel(t.db, acme.company);
      expect((await acme.call(acme.agent, 'GET', `/api/channels/${sandbox.id}/templates/`)).json()).toMatchObject({ count: 0, results: [] });
      expect((await globex.call(globex.admin, 'GET', `/api/channels/${wa.id}/templates/`)).statusCode).toBe(404);
    });
  });
});
