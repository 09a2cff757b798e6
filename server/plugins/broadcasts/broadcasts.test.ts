/**
 * The broadcasts API (issue #11; spec §7): create from a CSV or the contacts filter (recipients and
 * exclusions stored, the engine told), the preview's counts and rendered message, refusals naming
 * the field, scheduling in a time zone, pause / resume / cancel / retry / delete, the recipients
 * list and the report, access by role and company. The engine is a recording double here (its own
 * tests drive the real one; the real worker is stopped): this suite checks what the API stores and asks of it.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROADCAST_EVENT,
  BROADCAST_MESSAGES,
  CSV_ROW_REASONS,
  REPORT_HEADERS,
  type AudiencePreview,
  type Broadcast,
  type BroadcastDetail,
  type BroadcastRecipient,
  type BroadcastReport,
} from '../../../contract/broadcasts';
import type { Paged } from '../../../contract/api';
import { channels, roomTags, rooms, tags, whatsappTemplates } from '../../core/db/schema';
import { rowsOf } from '../../core/db/rows';
import { describeEachDatabase } from '../../testing/testApp';
import { channelsTestApp, companyFixture, insertChannel, type ChannelsTestApp, type CompanyFixture } from '../channels/testing';
import { broadcastEngineRuntime } from '.';
import type { BroadcastEngine } from './engineApi';
import { broadcastRecipients, broadcasts, optOuts } from './schema';
import { recountBroadcast } from './service';
import { portfolioChannelIdsSql, portfolioOf, portfolioUsage, sendingNumberOf } from './engine/limits';

const WELCOME = [
  { type: 'HEADER', format: 'TEXT', text: 'Welcome, {{1}}!' },
  { type: 'BODY', text: 'Hi {{1}}, enjoy {{2}} off.' },
  { type: 'FOOTER', text: 'Reply STOP to opt out' },
  { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Shop now' }, { type: 'URL', text: 'Open', url: 'https://shop.test/c/{{1}}' }] },
];
const CSV = ['phone,name,coupon', '+14155550101,Ana Lima,A10', 'not-a-phone,Bob,B20', '+1 415 555 0102,Carla,C30', '14155550101,Ana again,A11', '+14155550103,Opted,D40', ''].join('\n');
const VARIABLES = {
  header: { '1': { source: 'field', value: 'first_name' } },
  body: { '1': { source: 'column', value: 'name' }, '2': { source: 'column', value: 'coupon' } },
  buttons: { '1': { source: 'fixed', value: 'spring' } },
};

describeEachDatabase('broadcasts API', (database) => {
  let t: ChannelsTestApp;
  let acme: CompanyFixture;
  let globex: CompanyFixture;
  let channelId = 0;
  let globexChannelId = 0;
  let sandboxLike = 0;
  const calls: [string, number, number[]?][] = [];
  const pushes: { topic: string; event: string; payload: any }[] = [];
  const engine: BroadcastEngine = {
    start: async (id) => void calls.push(['start', id]),
    pause: async (id) => void calls.push(['pause', id]),
    resume: async (id) => void calls.push(['resume', id]),
    cancel: async (id) => void calls.push(['cancel', id]),
    retry: async (id, ids) => void calls.push(['retry', id, ids]),
  };

  beforeAll(async () => {
    t = await channelsTestApp(database, {
      onBuild: (app) => {
        // The API talks to the recording double (in place of the engine's calls); the real worker is stopped once
        // started, so states stay as the API wrote them.
        const real = broadcastEngineRuntime(app);
        Object.assign(real, engine);
        app.addHook('onReady', async () => real.worker.stop());
      },
    });
    acme = await companyFixture(t, 'Acme', 'acme.test');
    globex = await companyFixture(t, 'Globex', 'globex.test');
    const channel = await insertChannel(t, acme.company, { platform: 'whatsapp', externalId: 'acme-phone', settings: { messaging_limit_tier: 'TIER_250' } });
    channelId = channel.id;
    sandboxLike = (await insertChannel(t, acme.company, { platform: 'messenger', externalId: 'acme-page' })).id;
    globexChannelId = (await insertChannel(t, globex.company, { platform: 'whatsapp', externalId: 'globex-phone' })).id;
    await t.db.insert(whatsappTemplates).values([
      { companyId: acme.company, channelId, wabaId: 'waba-acme-phone', name: 'welcome', language: 'en_US', category: 'MARKETING', components: WELCOME, status: 'APPROVED' },
      { companyId: acme.company, channelId, wabaId: 'waba-acme-phone', name: 'pending_one', language: 'en_US', category: 'MARKETING', components: [{ type: 'BODY', text: 'Hi' }], status: 'PENDING' },
      { companyId: acme.company, channelId, wabaId: 'waba-acme-phone', name: 'photo', language: 'en_US', category: 'MARKETING', components: [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'Look' }], status: 'APPROVED' },
      { companyId: globex.company, channelId: globexChannelId, wabaId: 'waba-globex-phone', name: 'welcome', language: 'en_US', category: 'MARKETING', components: WELCOME, status: 'APPROVED' },
    ]);
    await t.db.insert(optOuts).values({ companyId: acme.company, phone: '+14155550103', reason: 'stop_keyword', source: 'message' });
    const broadcast = t.app.realtime.broadcast.bind(t.app.realtime);
    t.app.realtime.broadcast = async (topic, event, payload) => {
      pushes.push({ topic, event, payload });
      return broadcast(topic, event, payload);
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  const csvBroadcast = (extra: Record<string, unknown> = {}) => ({
    name: 'Spring sale',
    page_id: channelId,
    template: { name: 'welcome', language: 'en_US' },
    variables: VARIABLES,
    audience: { type: 'csv', csv: CSV, file_name: 'spring.csv' },
    ...extra,
  });
  const create = async (payload: unknown, who = acme.admin) => acme.call(who, 'POST', '/api/broadcasts', payload);
  const created = async (payload: unknown = csvBroadcast()) => {
    const res = await create(payload);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as BroadcastDetail & { detail: string };
  };

  describe('create from a CSV list', () => {
    it('stores the good rows as queued recipients with their values, the opted-out one as excluded, and starts the engine', async () => {
      const b = await created();
      expect(b.detail).toBe(BROADCAST_MESSAGES.created);
      expect(b).toMatchObject({ name: 'Spring sale', page_id: channelId, template_name: 'welcome', status: 'sending', n_users: 2, audience_type: 'csv' });
      expect(b.stats).toEqual({ sent: 0, delivered: 0, read: 0, failed: 0, replied: 0, queued: 2, unknown: 0, excluded: 3 });
      expect(b.excluded).toEqual({ opted_out: 1, blocked: 0, duplicate: 1, invalid_number: 1, over_limit: 0 });
      expect(b.audience).toEqual({ type: 'csv', file_name: 'spring.csv' });
      expect(b.funnel[0]).toEqual({ step: 'recipients', count: 2 });
      expect(calls).toContainEqual(['start', b.id]);
      expect(pushes.some((p) => p.topic === `page:${channelId}` && p.event === BROADCAST_EVENT && p.payload.id === b.id)).toBe(true);

      const rows = await t.db.select().from(broadcastRecipients).where(eq(broadcastRecipients.broadcastId, b.id)).orderBy(broadcastRecipients.id);
      expect(rows.map((r) => [r.phone, r.state, r.exclusionReason, r.rowNumber])).toEqual([
        ['+14155550101', 'queued', null, 2],
        ['+14155550102', 'queued', null, 4],
        ['+14155550103', 'excluded', 'opted_out', 6],
      ]);
      expect(rows[0].variables).toEqual({ header: ['Ana'], body: ['Ana Lima', 'A10'], buttons: { '1': 'spring' } });
    });

    it('refuses, naming the field, before anything is stored', async () => {
      const before = (await t.db.select().from(broadcasts)).length;
      const cases: [unknown, string, string][] = [
        [csvBroadcast({ variables: { body: { '1': { source: 'column', value: 'name' } } } }), 'variables.body.2', 'Map the body variable {{2}}.'],
        [csvBroadcast({ variables: { ...VARIABLES, body: { ...VARIABLES.body, '2': { source: 'column', value: 'nope' } } } }), 'variables.body.2', 'The CSV file has no column "nope".'],
        [csvBroadcast({ template: { name: 'pending_one', language: 'en_US' } }), 'template', BROADCAST_MESSAGES.templateNotApproved],
        [csvBroadcast({ template: { name: 'photo', language: 'en_US' }, variables: { body: {} } }), 'header_media_url', 'This template has a media header: upload a file.'],
        [csvBroadcast({ page_id: sandboxLike }), 'page_id', BROADCAST_MESSAGES.notWhatsapp],
        [csvBroadcast({ page_id: globexChannelId }), 'page_id', BROADCAST_MESSAGES.notWhatsapp],
        [csvBroadcast({ audience: { type: 'csv', csv: 'name\nAna\n' } }), 'audience.csv', BROADCAST_MESSAGES.noPhoneColumn],
        [csvBroadcast({ audience: { type: 'csv', csv: 'phone,name,coupon\nbad,B,1\n+14155550103,O,2\n' } }), 'audience', BROADCAST_MESSAGES.noRecipients],
        [csvBroadcast({ schedule: { mode: 'later', at: '2001-01-01T10:00', time_zone: 'Europe/Paris' } }), 'schedule.at', BROADCAST_MESSAGES.scheduleInPast],
      ];
      for (const [payload, field, message] of cases) {
        const res = await create(payload);
        expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
        expect(res.json()[field], res.body).toEqual([message]);
      }
      const invalid = await create({ ...csvBroadcast(), audience: { type: 'email' } });
      expect(invalid.statusCode).toBe(400);
      const zone = await create(csvBroadcast({ schedule: { mode: 'later', at: '2099-01-01T10:00', time_zone: 'Mars/Olympus' } }));
      expect(zone.statusCode).toBe(400);
      expect((await t.db.select().from(broadcasts)).length).toBe(before);
    });

    it("takes a media header from the company's own upload, never another company's", async () => {
      const photo = (url: string) => csvBroadcast({ name: 'Photo', template: { name: 'photo', language: 'en_US' }, variables: { body: {} }, header_media_url: url });
      const own = await create(photo(`/media/chats/${acme.company}/abc/spring.png`));
      expect(own.statusCode, own.body).toBe(201);
      const [row] = await t.db.select().from(broadcasts).where(eq(broadcasts.id, (own.json() as BroadcastDetail).id));
      expect(row.headerMediaUrl).toBe(`/media/chats/${acme.company}/abc/spring.png`);
      const foreign = await create(photo(`/media/chats/${globex.company}/abc/theirs.png`));
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json().header_media_url).toEqual(['Upload the file again.']);
      expect((await create(photo('https://cdn.example.com/spring.png'))).statusCode).toBe(201);
      expect((await create(photo('javascript:alert(1)'))).statusCode).toBe(400);
    });

    it('accepts the path with a trailing slash too', async () => {
      const res = await acme.call(acme.manager, 'POST', '/api/broadcasts/', csvBroadcast({ name: 'Slash' }));
      expect(res.statusCode).toBe(201);
    });
  });

  describe('schedule', () => {
    it('stores the wall-clock time of the chosen zone as UTC and leaves the broadcast scheduled', async () => {
      const b = await created(csvBroadcast({ name: 'Later', schedule: { mode: 'later', at: '2099-07-01T09:30', time_zone: 'Europe/Paris' } }));
      expect(b.detail).toBe(BROADCAST_MESSAGES.scheduled);
      expect(b).toMatchObject({ status: 'scheduled', scheduled_at: '2099-07-01T07:30:00.000Z', time_zone: 'Europe/Paris', started_at: null });
      const winter = await created(csvBroadcast({ name: 'Winter', schedule: { mode: 'later', at: '2099-01-15T09:30', time_zone: 'America/New_York' } }));
      expect(winter.scheduled_at).toBe('2099-01-15T14:30:00.000Z');
    });
  });

  describe('contacts audience', () => {
    it('takes the WhatsApp conversations matching term, tags and channels; blocked ones are excluded', async () => {
      const [vip] = await t.db.insert(tags).values({ companyId: acme.company, name: 'vip' }).returning();
      const roomRows = await t.db
        .insert(rooms)
        .values([
          { companyId: acme.company, channelId, externalId: '14155550111', name: 'Vera VIP' },
          { companyId: acme.company, channelId, externalId: '14155550112', name: 'Victor VIP', blockedAt: new Date() },
          { companyId: acme.company, channelId, externalId: '14155550113', name: 'Walter' },
          { companyId: acme.company, channelId: sandboxLike, externalId: 'psid-1', name: 'Messenger VIP' },
        ])
        .returning();
      await t.db.insert(roomTags).values([roomRows[0], roomRows[1], roomRows[3]].map((r) => ({ roomId: r.id, tagId: vip.id })));
      const b = await created({
        name: 'VIPs',
        page_id: channelId,
        template: { name: 'welcome', language: 'en_US' },
        variables: { header: { '1': { source: 'field', value: 'first_name' } }, body: { '1': { source: 'field', value: 'name' }, '2': { source: 'fixed', value: '20%' } }, buttons: { '1': { source: 'fixed', value: 'vip' } } },
        audience: { type: 'contacts', filter: { term: 'vip', tags: [{ id: vip.id }], channels: [] } },
      });
      expect(b).toMatchObject({ n_users: 1, audience: { type: 'contacts', filter: { term: 'vip', tags: [{ id: vip.id }], channels: [] } } });
      expect(b.excluded.blocked).toBe(1);
      const rows = await t.db.select().from(broadcastRecipients).where(eq(broadcastRecipients.broadcastId, b.id)).orderBy(broadcastRecipients.id);
      expect(rows.map((r) => [r.phone, r.state, r.roomId])).toEqual([
        ['+14155550111', 'queued', roomRows[0].id],
        ['+14155550112', 'excluded', roomRows[1].id],
      ]);
      expect(rows[0].variables.body).toEqual(['Vera VIP', '20%']);

      const column = await create({ ...csvBroadcast(), audience: { type: 'contacts', filter: { term: '', tags: [], channels: [] } } });
      expect(column.statusCode).toBe(400);
      expect(column.json()['variables.body.1']).toEqual(['Contacts have no CSV columns: map a contact field or a fixed value.']);
    });
  });

  describe('preview', () => {
    it('counts recipients and exclusions, lists bad rows, shows the first message and warns over the messaging limit', async () => {
      const res = await acme.call(acme.admin, 'POST', '/api/broadcasts/audience/preview/', {
        page_id: channelId,
        audience: { type: 'csv', csv: CSV },
        template: { name: 'welcome', language: 'en_US' },
        variables: VARIABLES,
      });
      expect(res.statusCode, res.body).toBe(200);
      const p = res.json() as AudiencePreview;
      expect(p).toMatchObject({ total: 5, recipients: 2, columns: ['phone', 'name', 'coupon'], phone_column: 'phone', name_column: 'name', over_limit_warning: false });
      expect(p.excluded).toEqual({ opted_out: 1, blocked: 0, duplicate: 1, invalid_number: 1, over_limit: 0 });
      expect(p.bad_rows).toEqual([
        { row: 3, reason: CSV_ROW_REASONS.invalidPhone, value: 'not-a-phone' },
        { row: 5, reason: `${CSV_ROW_REASONS.duplicate} (row 2)`, value: '+14155550101' },
      ]);
      expect(p.messaging_limit).toEqual({ tier: 'TIER_250', limit: 250, used: 0, remaining: 250 });
      expect(p.message).toEqual({ header: 'Welcome, Ana!', header_format: 'TEXT', header_media_url: null, body: 'Hi Ana Lima, enjoy A10 off.', footer: 'Reply STOP to opt out', buttons: ['Shop now', 'Open'] });

      const many = ['phone', ...Array.from({ length: 260 }, (_, i) => `+1415555${String(1000 + i)}`)].join('\n');
      const big = (await acme.call(acme.admin, 'POST', '/api/broadcasts/audience/preview/', { page_id: channelId, audience: { type: 'csv', csv: many } })).json() as AudiencePreview;
      expect(big.recipients).toBe(260);
      expect(big.excluded.over_limit).toBe(10);
      expect(big.over_limit_warning).toBe(true);
    });
  });

  describe('messaging limit', () => {
    it("counts the unique recipients the portfolio's numbers reached in the last 24 hours", async () => {
      const sibling = await insertChannel(t, acme.company, { platform: 'whatsapp', externalId: 'acme-phone-2', wabaId: 'waba-acme-phone' });
      const other = await insertChannel(t, acme.company, { platform: 'whatsapp', externalId: 'acme-phone-3', wabaId: 'waba-elsewhere' });
      const now = t.clock.now().getTime();
      for (const [channel, sent] of [
        [sibling.id, [['+14155550161', 1], ['+14155550162', 2], ['+14155550163', 25]]],
        [other.id, [['+14155550164', 1]]],
        [channelId, [['+14155550161', 3]]],
      ] as [number, [string, number][]][]) {
        const [b] = await t.db
          .insert(broadcasts)
          .values({ companyId: acme.company, channelId: channel, name: 'Earlier', templateName: 'welcome', templateLanguage: 'en_US', variables: { body: {} }, audienceType: 'csv', status: 'completed' })
          .returning();
        await t.db.insert(broadcastRecipients).values(sent.map(([phone, hoursAgo]) => ({ broadcastId: b.id, companyId: acme.company, phone, variables: { body: [] }, state: 'sent' as const, sentAt: new Date(now - hoursAgo * 3_600_000) })));
      }
      const p = (await acme.call(acme.admin, 'POST', '/api/broadcasts/audience/preview/', { page_id: channelId, audience: { type: 'csv', csv: CSV } })).json() as AudiencePreview;
      // +…161 (twice, two numbers of the portfolio) and +…162; not the one 25 h ago nor the other account's.
      expect(p.messaging_limit).toEqual({ tier: 'TIER_250', limit: 250, used: 2, remaining: 248 });
    });

    it('shows what the engine counts: a number joined by settings.portfolio_id, sends under way, calls that may have reached Meta', async () => {
      // Its own WABA, but the portfolio of acme-phone (whose key is its WABA id) by settings.portfolio_id.
      const joined = await insertChannel(t, acme.company, { platform: 'whatsapp', externalId: 'acme-phone-5', wabaId: 'waba-joined', settings: { portfolio_id: 'waba-acme-phone' } });
      const [main] = await t.db.select().from(channels).where(eq(channels.id, channelId));
      const number = sendingNumberOf(main);
      const before = (await portfolioUsage(t.db, number, t.clock.now())).used;
      const now = t.clock.now().getTime();
      const hoursAgo = (h: number) => new Date(now - h * 3_600_000);
      const [b] = await t.db
        .insert(broadcasts)
        .values({ companyId: acme.company, channelId: joined.id, name: 'Under way', templateName: 'welcome', templateLanguage: 'en_US', variables: { body: {} }, audienceType: 'csv', status: 'sending' })
        .returning();
      const row = (phone: string, values: Partial<typeof broadcastRecipients.$inferInsert>) => ({ broadcastId: b.id, companyId: acme.company, phone, variables: { body: [] }, ...values });
      await t.db.insert(broadcastRecipients).values([
        row('+14155550171', { state: 'sent', sentAt: hoursAgo(1) }),
        row('+14155550172', { state: 'sending', sendingAt: hoursAgo(0) }),
        row('+14155550173', { state: 'unknown', sendingAt: hoursAgo(2) }),
        // Not counted: an unknown call of yesterday, a failure, one still queued.
        row('+14155550174', { state: 'unknown', sendingAt: hoursAgo(30) }),
        row('+14155550175', { state: 'failed', failedAt: hoursAgo(1) }),
        row('+14155550176', { state: 'queued' }),
      ]);
      const engine = await portfolioUsage(t.db, number, t.clock.now());
      const p = (await acme.call(acme.admin, 'POST', '/api/broadcasts/audience/preview/', { page_id: channelId, audience: { type: 'csv', csv: CSV } })).json() as AudiencePreview;
      // 171, 172 and 173 more.
      expect(engine.used).toBe(before + 3);
      expect(p.messaging_limit).toEqual({ tier: 'TIER_250', limit: 250, used: before + 3, remaining: 250 - before - 3 });
      // The joined number shares the count.
      const fromJoined = (await acme.call(acme.admin, 'POST', '/api/broadcasts/audience/preview/', { page_id: joined.id, audience: { type: 'csv', csv: CSV } })).json() as AudiencePreview;
      expect(fromJoined.messaging_limit.used).toBe(before + 3);
    });

    it("reads a portfolio's numbers in SQL as portfolioOf does", async () => {
      // Every spelling of the key: a portfolio id, an empty or non-string one (the WABA then), no settings, no WABA,
      // an empty WABA; the same portfolio id on a Messenger page and in another company is not the portfolio.
      const variants: { wabaId: string | null; settings: Record<string, unknown> | null }[] = [
        { wabaId: 'waba-k1', settings: { portfolio_id: 'pf-k' } },
        { wabaId: 'waba-k2', settings: { portfolio_id: 'pf-k' } },
        { wabaId: 'pf-k', settings: null },
        { wabaId: 'waba-k3', settings: { portfolio_id: '' } },
        { wabaId: 'waba-k3', settings: { portfolio_id: 42 } },
        { wabaId: 'waba-k3', settings: { portfolio_id: null, messaging_limit_tier: 'TIER_2K' } },
        { wabaId: null, settings: { portfolio_id: ['pf-k'] } },
        { wabaId: null, settings: null },
        { wabaId: '', settings: {} },
        { wabaId: '', settings: { portfolio_id: '' } },
      ];
      const ids: number[] = [];
      for (const [i, v] of variants.entries()) {
        const inserted = await insertChannel(t, acme.company, { platform: 'whatsapp', externalId: `acme-key-${i}` });
        await t.db.update(channels).set({ wabaId: v.wabaId, settings: v.settings }).where(eq(channels.id, inserted.id));
        ids.push(inserted.id);
      }
      const page = await insertChannel(t, acme.company, { platform: 'messenger', externalId: 'acme-key-page', settings: { portfolio_id: 'pf-k' } });
      const elsewhere = await insertChannel(t, globex.company, { platform: 'whatsapp', externalId: 'globex-key', settings: { portfolio_id: 'pf-k' } });
      const whatsapp = await t.db.select().from(channels).where(and(eq(channels.companyId, acme.company), eq(channels.platform, 'whatsapp')));
      for (const id of ids) {
        const key = portfolioOf(whatsapp.find((c) => c.id === id)!);
        const expected = whatsapp.filter((c) => portfolioOf(c) === key).map((c) => c.id).sort((a, b) => a - b);
        const got = rowsOf<{ id: number }>(await t.db.execute(portfolioChannelIdsSql(sql`${acme.company}`, sql`${key}`)));
        const gotIds = got.map((r) => Number(r.id)).sort((a, b) => a - b);
        expect(gotIds, `key ${JSON.stringify(key)}`).toEqual(expected);
        expect(gotIds).not.toContain(page.id);
        expect(gotIds).not.toContain(elsewhere.id);
      }
      // The table's spellings fall into five portfolios: pf-k (three), waba-k3 (three), two channel-{id}, '' (two).
      expect(new Set(ids.map((id) => portfolioOf(whatsapp.find((c) => c.id === id)!))).size).toBe(5);
    });
  });

  describe('controls', () => {
    it('pause → resume → cancel, each told to the engine; wrong transitions answer 400', async () => {
      const b = await created(csvBroadcast({ name: 'Controls' }));
      const paused = await acme.call(acme.manager, 'POST', `/api/broadcasts/${b.id}/pause/`);
      expect(paused.statusCode).toBe(200);
      expect(paused.json()).toMatchObject({ detail: BROADCAST_MESSAGES.paused, broadcast: { status: 'paused' } });
      expect((await acme.call(acme.manager, 'POST', `/api/broadcasts/${b.id}/pause/`)).json()).toMatchObject({ detail: BROADCAST_MESSAGES.cannotPause });
      const resumed = await acme.call(acme.manager, 'POST', `/api/broadcasts/${b.id}/resume/`);
      expect(resumed.json()).toMatchObject({ broadcast: { status: 'sending', paused_at: null } });
      const cancelled = await acme.call(acme.manager, 'POST', `/api/broadcasts/${b.id}/cancel/`);
      expect(cancelled.json()).toMatchObject({ broadcast: { status: 'cancelled' } });
      const again = await acme.call(acme.manager, 'POST', `/api/broadcasts/${b.id}/resume/`);
      expect(again.statusCode).toBe(400);
      expect(calls.filter((c) => c[1] === b.id).map((c) => c[0])).toEqual(['start', 'pause', 'resume', 'cancel']);
    });

    it('retry puts the failed recipients back to queued and the counters follow', async () => {
      const b = await created(csvBroadcast({ name: 'Retry' }));
      await t.db
        .update(broadcastRecipients)
        .set({ state: 'failed', errorCode: 131026, errorTitle: 'Message undeliverable', failedAt: new Date(), attempts: 1 })
        .where(and(eq(broadcastRecipients.broadcastId, b.id), eq(broadcastRecipients.phone, '+14155550101')));
      await t.db.update(broadcastRecipients).set({ state: 'read', sentAt: new Date(), readAt: new Date() }).where(and(eq(broadcastRecipients.broadcastId, b.id), eq(broadcastRecipients.phone, '+14155550102')));
      await t.db.update(broadcasts).set({ status: 'completed', completedAt: new Date() }).where(eq(broadcasts.id, b.id));
      await recountBroadcast(t.db, b.id);

      const detail = (await acme.call(acme.agent, 'GET', `/api/broadcasts/${b.id}/`)).json() as BroadcastDetail;
      expect(detail.stats).toMatchObject({ sent: 1, delivered: 1, read: 1, failed: 1, queued: 0 });
      expect(detail.failures).toEqual([{ code: 131026, title: expect.stringContaining('could not be delivered'), count: 1 }]);
      const failed = (await acme.call(acme.agent, 'GET', `/api/broadcasts/${b.id}/recipients/?status=failed`)).json() as Paged<BroadcastRecipient>;
      expect(failed.count).toBe(1);
      expect(failed.results[0]).toMatchObject({ phone: '+14155550101', error_code: 131026, error_detail: expect.stringContaining('could not be delivered') });

      const res = await acme.call(acme.admin, 'POST', `/api/broadcasts/${b.id}/retry/`, {});
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().broadcast).toMatchObject({ status: 'sending', stats: { failed: 0, queued: 1, sent: 1 } });
      expect(calls).toContainEqual(['retry', b.id, [failed.results[0].id]]);
      const nothing = await acme.call(acme.admin, 'POST', `/api/broadcasts/${b.id}/retry/`, {});
      expect(nothing.json()).toMatchObject({ detail: BROADCAST_MESSAGES.nothingToRetry });
    });

    it('delete cancels a running broadcast first, then removes it and its recipients', async () => {
      const b = await created(csvBroadcast({ name: 'To delete' }));
      const wrongBody = await acme.call(acme.admin, 'DELETE', `/api/broadcasts/${b.id}/`, { broadcast_id: b.id + 1000 });
      expect(wrongBody.statusCode).toBe(400);
      const res = await acme.call(acme.admin, 'DELETE', `/api/broadcasts/${b.id}/`, { broadcast_id: b.id });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ detail: BROADCAST_MESSAGES.deleted });
      expect(calls).toContainEqual(['cancel', b.id]);
      expect(pushes.some((p) => p.payload.id === b.id && p.payload.deleted === true && p.payload.status === 'cancelled')).toBe(true);
      expect((await acme.call(acme.admin, 'GET', `/api/broadcasts/${b.id}/`)).statusCode).toBe(404);
      expect(await t.db.select().from(broadcastRecipients).where(eq(broadcastRecipients.broadcastId, b.id))).toEqual([]);
      const finished = await created(csvBroadcast({ name: 'Finished' }));
      await t.db.update(broadcasts).set({ status: 'completed' }).where(eq(broadcasts.id, finished.id));
      expect((await acme.call(acme.admin, 'DELETE', `/api/broadcasts/${finished.id}/`)).statusCode).toBe(200);
      expect(calls).not.toContainEqual(['cancel', finished.id]);
    });
  });

  describe('list, recipients and report', () => {
    it('lists newest first, paged, filtered by status and name', async () => {
      const all = (await acme.call(acme.agent, 'GET', '/api/broadcasts/?page_size=2')).json() as Paged<Broadcast>;
      expect(all.results).toHaveLength(2);
      expect(all.next).toBe('/api/broadcasts/?page_size=2&page=2');
      expect(all.results[0].id).toBeGreaterThan(all.results[1].id);
      const scheduled = (await acme.call(acme.agent, 'GET', '/api/broadcasts/?status=scheduled')).json() as Paged<Broadcast>;
      expect(scheduled.results.map((b) => b.name).sort()).toEqual(['Later', 'Winter']);
      const named = (await acme.call(acme.agent, 'GET', '/api/broadcasts/?search=vip')).json() as Paged<Broadcast>;
      expect(named.results.map((b) => b.name)).toEqual(['VIPs']);
      expect((await acme.call(acme.agent, 'GET', '/api/broadcasts/?status=nope')).statusCode).toBe(400);
    });

    it('answers the report as {headers, data}, one row per recipient', async () => {
      const b = await created(csvBroadcast({ name: 'Report' }));
      const report = (await acme.call(acme.agent, 'GET', `/api/broadcasts/${b.id}/report/`)).json() as BroadcastReport;
      expect(report.headers).toEqual([...REPORT_HEADERS]);
      expect(report.data.map((row) => row.slice(0, 4))).toEqual([
        ['+14155550101', 'Ana Lima', 'queued', null],
        ['+14155550102', 'Carla', 'queued', null],
        ['+14155550103', 'Opted', 'excluded', 'opted_out'],
      ]);
      // Who received what: each one's header and body with their own values; nothing for the excluded one, never sent.
      const message = REPORT_HEADERS.indexOf('message');
      expect(report.data.map((row) => row[message])).toEqual(['Welcome, Ana!\nHi Ana Lima, enjoy A10 off.', 'Welcome, Carla!\nHi Carla, enjoy C30 off.', null]);
      const listed = (await acme.call(acme.agent, 'GET', `/api/broadcasts/${b.id}/recipients/`)).json() as Paged<BroadcastRecipient>;
      expect(listed.results.map((r) => [r.name, r.message])).toEqual([
        ['Ana Lima', 'Welcome, Ana!\nHi Ana Lima, enjoy A10 off.'],
        ['Carla', 'Welcome, Carla!\nHi Carla, enjoy C30 off.'],
        ['Opted', null],
      ]);
    });

    it('keeps the message a recipient was sent when the template changes afterwards', async () => {
      const b = await created(csvBroadcast({ name: 'Before the edit' }));
      const welcome = and(eq(whatsappTemplates.companyId, acme.company), eq(whatsappTemplates.name, 'welcome'));
      await t.db.update(whatsappTemplates).set({ components: [{ type: 'BODY', text: 'Changed {{1}} {{2}}' }] }).where(welcome);
      try {
        const listed = (await acme.call(acme.agent, 'GET', `/api/broadcasts/${b.id}/recipients/`)).json() as Paged<BroadcastRecipient>;
        expect(listed.results[0].message).toBe('Welcome, Ana!\nHi Ana Lima, enjoy A10 off.');
      } finally {
        await t.db.update(whatsappTemplates).set({ components: WELCOME }).where(welcome);
      }
    });
  });

  describe('access', () => {
    it('agents read but cannot send or control; another company sees 404 and cannot use its channel', async () => {
      const b = await created(csvBroadcast({ name: 'Access' }));
      expect((await create(csvBroadcast(), acme.agent)).statusCode).toBe(403);
      expect((await acme.call(acme.agent, 'POST', `/api/broadcasts/${b.id}/pause/`)).statusCode).toBe(403);
      expect((await acme.call(acme.agent, 'DELETE', `/api/broadcasts/${b.id}/`)).statusCode).toBe(403);
      expect((await acme.call(acme.agent, 'GET', `/api/broadcasts/${b.id}/`)).statusCode).toBe(200);
      for (const [method, url] of [
        ['GET', `/api/broadcasts/${b.id}/`],
        ['GET', `/api/broadcasts/${b.id}/recipients/`],
        ['GET', `/api/broadcasts/${b.id}/report/`],
        ['POST', `/api/broadcasts/${b.id}/pause/`],
        ['DELETE', `/api/broadcasts/${b.id}/`],
      ] as const) {
        const res = await globex.call(globex.admin, method, url);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
      const list = (await globex.call(globex.admin, 'GET', '/api/broadcasts/')).json() as Paged<Broadcast>;
      expect(list.count).toBe(0);
      expect((await acme.call(acme.admin, 'GET', '/api/broadcasts/')).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/api/broadcasts/' })).statusCode).toBe(401);
    });
  });
});
