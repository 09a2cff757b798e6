/**
 * Segments (issue #23): each operator of the conditions compiled to SQL (through the API: a saved
 * segment's members, its count, the builder's unsaved count), refusals in words on the field (unknown
 * attribute, an operator the type has not, a value of the wrong type, keys and values that try SQL),
 * `attr.<key>=` on the contacts list, access and company isolation, and a broadcast to a segment: the
 * members at that moment, the opted-out one excluded (and shown in the preview), {{1}} from an attribute.
 * The broadcast engine is a recording double: what the API stores per recipient is what it would send.
 */
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AudiencePreview, BroadcastDetail } from '../../../contract/broadcasts';
import { CONTACT_MESSAGES, type Contact } from '../../../contract/contacts';
import { SEGMENT_MESSAGES, type Segment, type SegmentConditionsInput } from '../../../contract/segments';
import { whatsappTemplates } from '../../core/db/schema';
import { describeEachDatabase } from '../../testing/testApp';
import { broadcastEngineRuntime } from '../broadcasts';
import { broadcastRecipients, optOuts } from '../broadcasts/testing';
import { channelsTestApp, companyFixture, insertChannel, type ChannelsTestApp, type CompanyFixture } from '../channels/testing';
import { DEMO_CONTACT_COUNT, demoContact, seedDemoContacts } from './demo';
import { contacts } from './schema';
import { DEMO_SEGMENTS, seedDemoSegments } from './segmentsDemo';

type Who = CompanyFixture['admin'];

describeEachDatabase('segments', (database) => {
  let t: ChannelsTestApp;
  let n = 0;

  beforeAll(async () => {
    t = await channelsTestApp(database, {
      onBuild: (app) => {
        // The broadcasts API talks to a recording double; the real worker is stopped once started.
        const real = broadcastEngineRuntime(app);
        Object.assign(real, { start: async () => {}, pause: async () => {}, resume: async () => {}, cancel: async () => {}, retry: async () => {} });
        app.addHook('onReady', async () => real.worker.stop());
      },
    });
  });
  afterAll(() => t?.close());

  const call = (f: CompanyFixture, who: Who, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown): Promise<LightMyRequestResponse> =>
    t.app.inject({ method, url, headers: t.headers(who.access, f.company), ...(payload !== undefined ? { payload: payload as object } : {}) });

  const ok = async (res: LightMyRequestResponse, status = 200) => {
    expect(res.statusCode, res.body).toBe(status);
    return res.json();
  };

  /** A company with five attributes and four contacts: Ana, Bob, Cleo, Dan. */
  async function world() {
    const f = await companyFixture(t, `Segments ${++n}`, `segments${n}.test`);
    const fb = await insertChannel(t, f.company, { platform: 'messenger', externalId: `page-seg-${n}` });
    const define = (body: Record<string, unknown>) => call(f, f.admin, 'POST', '/api/contact-attributes/', body).then((r) => ok(r, 201));
    await define({ name: 'City', key: 'city', type: 'list', options: ['Lyon', 'Paris', 'Nice'] });
    await define({ name: 'Nickname', key: 'nickname', type: 'text' });
    await define({ name: 'Orders', key: 'orders', type: 'number' });
    await define({ name: 'Since', key: 'since', type: 'date' });
    await define({ name: 'VIP', key: 'vip', type: 'boolean' });
    const make = (body: Record<string, unknown>) => call(f, f.manager, 'POST', '/api/contacts/', body).then((r) => ok(r, 201) as Promise<Contact>);
    const ana = await make({ name: 'Ana', phone: `+1415555${String(1000 + n * 10)}`, attributes: { city: 'Lyon', nickname: 'Ana the Great', orders: 5, since: '2023-01-10', vip: true }, tags: ['vip'] });
    const bob = await make({ name: 'Bob', phone: `+1415555${String(1001 + n * 10)}`, attributes: { city: 'Paris', nickname: 'bobby', orders: 3, since: '2024-06-01', vip: false } });
    const cleo = await make({ name: 'Cleo', phone: `+1415555${String(1002 + n * 10)}`, external_id: `psid-cleo-${n}`, page_id: fb.id, attributes: { city: 'Nice', orders: 0 } });
    const dan = await make({ name: 'Dan', tags: ['newsletter'] });
    const tagId = (c: Contact, name: string) => c.tags.find((x) => x.name === name)!.id;
    return { f, fb, ana, bob, cleo, dan, vipTag: tagId(ana, 'vip'), newsletterTag: tagId(dan, 'newsletter') };
  }

  /** The names of the members of a segment saved with these conditions; its saved and unsaved counts agree. */
  async function members(f: CompanyFixture, conditions: SegmentConditionsInput): Promise<string[]> {
    const segment = (await ok(await call(f, f.manager, 'POST', '/api/segments/', { name: `S${++n}`, conditions }), 201)) as Segment;
    const list = (await ok(await call(f, f.agent, 'GET', `/api/contacts/?segment=${segment.id}&page_size=100`))) as { count: number; results: Contact[] };
    const names = list.results.map((c) => c.name).sort();
    expect(list.count).toBe(names.length);
    expect(await ok(await call(f, f.agent, 'GET', `/api/segments/${segment.id}/count/`))).toEqual({ count: names.length });
    expect(await ok(await call(f, f.agent, 'POST', '/api/segments/count/', { conditions }))).toEqual({ count: names.length });
    return names;
  }

  const attr = (key: string, op: string, value?: unknown) => ({ attributes: [{ key, op, ...(value === undefined ? {} : { value }) }] }) as SegmentConditionsInput;

  it('compiles each operator of text and number attributes', async () => {
    const { f } = await world();
    const cases: [SegmentConditionsInput, string[]][] = [
      // text: without case; neq and not_contains take those without a value
      [attr('nickname', 'eq', 'ANA THE GREAT'), ['Ana']],
      [attr('nickname', 'neq', 'Bobby'), ['Ana', 'Cleo', 'Dan']],
      [attr('nickname', 'contains', 'the g'), ['Ana']],
      [attr('nickname', 'contains', '%'), []],
      [attr('nickname', 'not_contains', 'BOB'), ['Ana', 'Cleo', 'Dan']],
      [attr('nickname', 'set'), ['Ana', 'Bob']],
      [attr('nickname', 'not_set'), ['Cleo', 'Dan']],
      // number: compared as numbers (0 < 3 < 5), a value written as text read as a number
      [attr('orders', 'eq', 3), ['Bob']],
      [attr('orders', 'neq', 3), ['Ana', 'Cleo', 'Dan']],
      [attr('orders', 'gt', 3), ['Ana']],
      [attr('orders', 'gte', 3), ['Ana', 'Bob']],
      [attr('orders', 'lt', 3), ['Cleo']],
      [attr('orders', 'lte', '3'), ['Bob', 'Cleo']],
      [attr('orders', 'gt', '2,5'), ['Ana', 'Bob']],
    ];
    for (const [conditions, expected] of cases) expect(await members(f, conditions), JSON.stringify(conditions)).toEqual(expected);
  });

  it('compiles each operator of date, boolean and list attributes, and several conditions together', async () => {
    const { f } = await world();
    const cases: [SegmentConditionsInput, string[]][] = [
      // date
      [attr('since', 'eq', '2023-01-10'), ['Ana']],
      [attr('since', 'before', '2024-01-01'), ['Ana']],
      [attr('since', 'after', '2023-12-31'), ['Bob']],
      // boolean
      [attr('vip', 'eq', true), ['Ana']],
      [attr('vip', 'eq', 'false'), ['Bob']],
      [attr('vip', 'not_set'), ['Cleo', 'Dan']],
      // list: exact choices, one of several
      [attr('city', 'eq', 'Lyon'), ['Ana']],
      [attr('city', 'neq', 'Lyon'), ['Bob', 'Cleo', 'Dan']],
      [attr('city', 'in', ['Lyon', 'Nice']), ['Ana', 'Cleo']],
      [attr('city', 'not_in', ['Lyon']), ['Bob', 'Cleo', 'Dan']],
      // every condition holds
      [{ attributes: [{ key: 'city', op: 'in', value: ['Lyon', 'Paris'] }, { key: 'orders', op: 'gte', value: 4 }] }, ['Ana']] as [SegmentConditionsInput, string[]],
      [{}, ['Ana', 'Bob', 'Cleo', 'Dan']],
    ];
    for (const [conditions, expected] of cases) expect(await members(f, conditions), JSON.stringify(conditions)).toEqual(expected);
  });

  it('tags (any of), channels, last message within N days (the app clock), opted in only', async () => {
    const { f, fb, ana, bob, cleo, vipTag, newsletterTag } = await world();
    expect(await members(f, { tags: [vipTag, newsletterTag] })).toEqual(['Ana', 'Dan']);
    expect(await members(f, { channels: [fb.id] })).toEqual(['Cleo']);
    const now = t.clock.now().getTime();
    await t.db.update(contacts).set({ lastMessageAt: new Date(now - 2 * 86_400_000) }).where(eq(contacts.id, ana.id));
    await t.db.update(contacts).set({ lastMessageAt: new Date(now - 10 * 86_400_000) }).where(eq(contacts.id, bob.id));
    expect(await members(f, { last_message_within_days: 7 })).toEqual(['Ana']);
    expect(await members(f, { last_message_within_days: 30 })).toEqual(['Ana', 'Bob']);
    await t.db.insert(optOuts).values([
      { companyId: f.company, phone: bob.phone!, reason: 'stop_keyword', source: 'message' },
      { companyId: f.company, phone: cleo.external_id!, reason: 'marketing_opt_out', source: 'console' },
    ]);
    expect(await members(f, { opted_in_only: true })).toEqual(['Ana', 'Dan']);
  });

  it('refuses in words on the field: unknown attribute, operator of another type, wrong value, SQL in keys and values', async () => {
    const { f } = await world();
    const count = (attributes: unknown[]) => call(f, f.agent, 'POST', '/api/segments/count/', { conditions: { attributes } });
    const refused = async (attributes: unknown[], body: Record<string, string[]>) => {
      const res = await count(attributes);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(body);
    };
    await refused([{ key: 'colour', op: 'eq', value: 'red' }], { 'conditions.attributes.0.key': [CONTACT_MESSAGES.unknownAttribute('colour')] });
    await refused([{ key: "city') or true --", op: 'eq', value: 'x' }], { 'conditions.attributes.0.key': [CONTACT_MESSAGES.unknownAttribute("city') or true --")] });
    await refused([{ key: 'orders', op: 'contains', value: '3' }], { 'conditions.attributes.0.op': [SEGMENT_MESSAGES.operatorForType('number', ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'set', 'not_set'])] });
    await refused([{ key: 'city', op: 'eq', value: 'Lyon' }, { key: 'orders', op: 'gt', value: 'many' }], { 'conditions.attributes.1.value': [CONTACT_MESSAGES.notNumber] });
    await refused([{ key: 'city', op: 'in', value: ['Lyon', 'Rome'] }], { 'conditions.attributes.0.value': [CONTACT_MESSAGES.notOption(['Lyon', 'Paris', 'Nice'])] });
    await refused([{ key: 'since', op: 'before', value: '2024-02-30' }], { 'conditions.attributes.0.value': [CONTACT_MESSAGES.notDate] });
    await refused([{ key: 'nickname', op: 'eq' }], { 'conditions.attributes.0.value': [SEGMENT_MESSAGES.needsValue] });
    await refused([{ key: 'city', op: 'in', value: [] }], { 'conditions.attributes.0.value': [SEGMENT_MESSAGES.needsValues] });
    expect((await call(f, f.agent, 'POST', '/api/segments/count/', { conditions: { last_message_within_days: 0 } })).json()).toEqual({ 'conditions.last_message_within_days': ['Enter at least 1 day.'] });
    // A value is a bound parameter: SQL in it matches nothing.
    expect(await ok(await count([{ key: 'nickname', op: 'eq', value: "x' or '1'='1" }]))).toEqual({ count: 0 });
    expect(await ok(await count([{ key: 'nickname', op: 'contains', value: "' or 1=1 --" }]))).toEqual({ count: 0 });
    // The contacts list's attribute filters.
    const names = async (query: string) => ((await ok(await call(f, f.agent, 'GET', `/api/contacts/?${query}`))) as { results: Contact[] }).results.map((c) => c.name).sort();
    expect(await names('attr.city=Lyon')).toEqual(['Ana']);
    expect(await names('attr.orders=3&attr.vip=false')).toEqual(['Bob']);
    expect(await names('attr.nickname=bobby&search=bo')).toEqual(['Bob']);
    const bad = await call(f, f.agent, 'GET', '/api/contacts/?attr.colour=red&attr.orders=x');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ 'attr.colour': [CONTACT_MESSAGES.unknownAttribute('colour')], 'attr.orders': [CONTACT_MESSAGES.notNumber] });
    expect((await call(f, f.agent, 'GET', '/api/contacts/?segment=abc')).statusCode).toBe(400);
  });

  it('saves, renames and deletes segments; who sees contacts reads them, who manages contacts changes them', async () => {
    const { f, vipTag } = await world();
    const made = (await ok(await call(f, f.admin, 'POST', '/api/segments/', { name: '  In Lyon ', conditions: { attributes: [{ key: 'city', op: 'eq', value: 'Lyon' }], tags: [vipTag, vipTag] } }), 201)) as Segment;
    expect(made).toMatchObject({ name: 'In Lyon', conditions: { tags: [vipTag], channels: [], attributes: [{ key: 'city', op: 'eq', value: 'Lyon' }], last_message_within_days: null, opted_in_only: false } });
    expect((await call(f, f.admin, 'POST', '/api/segments/', { name: 'In Lyon' })).json()).toEqual({ name: [SEGMENT_MESSAGES.nameTaken] });
    expect((await call(f, f.admin, 'POST', '/api/segments/', { name: ' ' })).json()).toEqual({ name: ['This field may not be blank.'] });
    const list = await ok(await call(f, f.agent, 'GET', '/api/segments/'));
    expect(list.count).toBe(1);
    expect(list.results[0].id).toBe(made.id);
    const patched = (await ok(await call(f, f.manager, 'PATCH', `/api/segments/${made.id}/`, { name: 'Lyon or Paris', conditions: { attributes: [{ key: 'city', op: 'in', value: ['Lyon', 'Paris'] }] } }))) as Segment;
    expect(patched).toMatchObject({ id: made.id, name: 'Lyon or Paris', conditions: { tags: [] } });
    expect(await ok(await call(f, f.agent, 'GET', `/api/segments/${made.id}/count/`))).toEqual({ count: 2 });

    await t.seed.rolePermissions(f.company, 'agent', { can_view_chats: true, can_manage_chats: false });
    expect((await call(f, f.agent, 'GET', `/api/segments/${made.id}/`)).statusCode).toBe(200);
    expect((await call(f, f.agent, 'POST', '/api/segments/count/', {})).statusCode).toBe(200);
    expect((await call(f, f.agent, 'POST', '/api/segments/', { name: 'x' })).statusCode).toBe(403);
    expect((await call(f, f.agent, 'PATCH', `/api/segments/${made.id}/`, { name: 'x' })).statusCode).toBe(403);
    expect((await call(f, f.agent, 'DELETE', `/api/segments/${made.id}/`)).statusCode).toBe(403);
    expect((await call(f, f.manager, 'DELETE', `/api/segments/${made.id}/`)).statusCode).toBe(204);
    expect((await call(f, f.manager, 'GET', `/api/segments/${made.id}/`)).statusCode).toBe(404);
  });

  it('company B never sees company A segments or members', async () => {
    const a = await world();
    const b = await world();
    const aLyon = (await ok(await call(a.f, a.f.admin, 'POST', '/api/segments/', { name: 'Lyon', conditions: { attributes: [{ key: 'city', op: 'eq', value: 'Lyon' }] } }), 201)) as Segment;
    // B has a Lyon customer too: A's segment counts only A's.
    expect(await ok(await call(a.f, a.f.admin, 'GET', `/api/segments/${aLyon.id}/count/`))).toEqual({ count: 1 });
    const asB = (method: 'GET' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => call(b.f, b.f.admin, method, url, payload);
    expect((await asB('GET', `/api/segments/${aLyon.id}/`)).statusCode).toBe(404);
    expect((await asB('GET', `/api/segments/${aLyon.id}/count/`)).statusCode).toBe(404);
    expect((await asB('PATCH', `/api/segments/${aLyon.id}/`, { name: 'Mine' })).statusCode).toBe(404);
    expect((await asB('DELETE', `/api/segments/${aLyon.id}/`)).statusCode).toBe(404);
    expect((await asB('GET', '/api/segments/')).json().count).toBe(0);
    expect((await asB('GET', `/api/contacts/?segment=${aLyon.id}`)).json()).toEqual({ segment: [SEGMENT_MESSAGES.unknownSegment] });
    // A's tag or channel in B's conditions: refused, never counted.
    const refused = await call(b.f, b.f.admin, 'POST', '/api/segments/count/', { conditions: { tags: [a.vipTag], channels: [a.fb.id] } });
    expect(refused.json()).toEqual({ 'conditions.tags': [SEGMENT_MESSAGES.unknownTag], 'conditions.channels': [SEGMENT_MESSAGES.unknownChannel] });
    // A's header with B's token: no access to the company at all.
    expect((await t.app.inject({ method: 'GET', url: '/api/segments/', headers: t.headers(b.f.admin.access, a.f.company) })).statusCode).toBe(403);
    expect((await call(a.f, a.f.admin, 'GET', `/api/segments/${aLyon.id}/`)).json().name).toBe('Lyon');
  });

  it('the demo has two segments: city = Lyon and the vip tag, counted over the demo contacts', async () => {
    const f = await companyFixture(t, `Demo ${++n}`, `demo${n}.test`);
    await t.db.transaction(async (tx) => {
      await seedDemoContacts(tx, f.company);
      await seedDemoSegments(tx, f.company);
      await seedDemoSegments(tx, f.company);
    });
    const list = (await ok(await call(f, f.agent, 'GET', '/api/segments/'))) as { count: number; results: Segment[] };
    expect(list.results.map((s) => s.name).sort()).toEqual([DEMO_SEGMENTS.lyon, DEMO_SEGMENTS.vip].sort());
    const demo = Array.from({ length: DEMO_CONTACT_COUNT }, (_, i) => demoContact(i));
    const countOf = async (name: string) => (await ok(await call(f, f.agent, 'GET', `/api/segments/${list.results.find((s) => s.name === name)!.id}/count/`))).count;
    expect(await countOf(DEMO_SEGMENTS.lyon)).toBe(demo.filter((c) => c.attributes.city === 'Lyon').length);
    expect(await countOf(DEMO_SEGMENTS.vip)).toBe(demo.filter((c) => c.tags.includes('vip')).length);
    // A demo contact shows a last message only with a conversation to open from its page.
    const dated = await t.db.execute(
      sql`SELECT count(*)::int AS n FROM contacts k WHERE k.company_id = ${f.company} AND k.last_message_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM contact_rooms cr WHERE cr.contact_id = k.id)`,
    );
    expect((dated as unknown as { rows: { n: number }[] }).rows[0].n).toBe(0);
  });

  describe('a broadcast to a segment', () => {
    async function broadcastWorld() {
      const w = await world();
      const channel = await insertChannel(t, w.f.company, { platform: 'whatsapp', externalId: `seg-phone-${n}` });
      await t.db.insert(whatsappTemplates).values({
        companyId: w.f.company,
        channelId: channel.id,
        wabaId: `waba-seg-${n}`,
        name: 'city_news',
        language: 'en_US',
        category: 'MARKETING',
        components: [{ type: 'BODY', text: 'News from {{1}} for {{2}}' }],
        status: 'APPROVED',
      });
      // Eve is in Lyon without a phone: an invalid number. Bob (Paris) opted out.
      await call(w.f, w.f.manager, 'POST', '/api/contacts/', { name: 'Eve', attributes: { city: 'Lyon' } }).then((r) => ok(r, 201));
      await t.db.insert(optOuts).values({ companyId: w.f.company, phone: w.bob.phone!, reason: 'stop_keyword', source: 'message' });
      const segment = (await ok(await call(w.f, w.f.admin, 'POST', '/api/segments/', { name: 'Lyon or Paris', conditions: { attributes: [{ key: 'city', op: 'in', value: ['Lyon', 'Paris'] }] } }), 201)) as Segment;
      return { ...w, channel, segment };
    }
    const variables = { body: { '1': { source: 'attribute', value: 'city' }, '2': { source: 'field', value: 'first_name' } } };
    const template = { name: 'city_news', language: 'en_US' };

    it('sends to the members at sending time, the opted-out one excluded (shown before sending), {{1}} from the city attribute', async () => {
      const w = await broadcastWorld();
      const preview = (await ok(await call(w.f, w.f.admin, 'POST', '/api/broadcasts/audience/preview/', { page_id: w.channel.id, audience: { segment_id: w.segment.id }, template, variables }))) as AudiencePreview;
      expect(preview).toMatchObject({ total: 3, recipients: 1, excluded: { opted_out: 1, invalid_number: 1, duplicate: 0, blocked: 0 } });
      expect(preview.message?.body).toBe('News from Lyon for Ana');

      // Members at sending time: Cleo moves to Lyon after the preview.
      await call(w.f, w.f.manager, 'PATCH', `/api/contacts/${w.cleo.id}/`, { attributes: { city: 'Lyon' } }).then((r) => ok(r));
      const created = (await ok(await call(w.f, w.f.admin, 'POST', '/api/broadcasts/', { name: 'Lyon news', page_id: w.channel.id, template, variables, audience: { type: 'segment', segment_id: w.segment.id } }), 201)) as BroadcastDetail;
      expect(created).toMatchObject({ audience_type: 'segment', audience: { type: 'segment', segment_id: w.segment.id, name: 'Lyon or Paris' }, n_users: 2, excluded: { opted_out: 1, invalid_number: 1 } });
      const rows = await t.db.select().from(broadcastRecipients).where(eq(broadcastRecipients.broadcastId, created.id)).orderBy(broadcastRecipients.id);
      expect(rows.map((r) => [r.name, r.phone, r.state, r.exclusionReason, r.variables.body])).toEqual([
        ['Ana', w.ana.phone, 'queued', null, ['Lyon', 'Ana']],
        ['Bob', w.bob.phone, 'excluded', 'opted_out', ['Paris', 'Bob']],
        ['Cleo', w.cleo.phone, 'queued', null, ['Lyon', 'Cleo']],
      ]);
    });

    it('refuses an unknown attribute, another company segment, and a segment with nobody to send to', async () => {
      const w = await broadcastWorld();
      const other = await world();
      const body = (extra: Record<string, unknown>) => ({ name: 'x', page_id: w.channel.id, template, variables, audience: { type: 'segment', segment_id: w.segment.id }, ...extra });
      const unknown = await call(w.f, w.f.admin, 'POST', '/api/broadcasts/', body({ variables: { body: { '1': { source: 'attribute', value: 'colour' }, '2': { source: 'fixed', value: 'you' } } } }));
      expect(unknown.json()).toEqual({ 'variables.body.1': ['There is no contact attribute "colour".'] });
      const theirs = (await ok(await call(other.f, other.f.admin, 'POST', '/api/segments/', { name: 'Theirs' }), 201)) as Segment;
      const foreign = await call(w.f, w.f.admin, 'POST', '/api/broadcasts/', body({ audience: { segment_id: theirs.id } }));
      expect(foreign.json()).toEqual({ 'audience.segment_id': [SEGMENT_MESSAGES.unknownSegment] });
      const nobody = (await ok(await call(w.f, w.f.admin, 'POST', '/api/segments/', { name: 'Nobody', conditions: { attributes: [{ key: 'orders', op: 'gt', value: 100 }] } }), 201)) as Segment;
      expect((await call(w.f, w.f.admin, 'POST', '/api/broadcasts/', body({ audience: { segment_id: nobody.id } }))).json()).toEqual({ audience: ['No recipients: every contact of this audience is excluded or invalid.'] });
      // Agents do not send broadcasts, to a segment either.
      expect((await call(w.f, w.f.agent, 'POST', '/api/broadcasts/', body({}))).statusCode).toBe(403);
    });

    it('a CSV list maps an attribute from the company contact with that phone', async () => {
      const w = await broadcastWorld();
      const csv = `phone,name\n${w.ana.phone},Ana\n+14155559999,Stranger\n`;
      const preview = (await ok(await call(w.f, w.f.admin, 'POST', '/api/broadcasts/audience/preview/', { page_id: w.channel.id, audience: { type: 'csv', csv }, template, variables }))) as AudiencePreview;
      expect(preview.message?.body).toBe('News from Lyon for Ana');
      const created = (await ok(await call(w.f, w.f.admin, 'POST', '/api/broadcasts/', { name: 'CSV', page_id: w.channel.id, template, variables, audience: { type: 'csv', csv } }), 201)) as BroadcastDetail;
      const rows = await t.db.select().from(broadcastRecipients).where(eq(broadcastRecipients.broadcastId, created.id)).orderBy(broadcastRecipients.id);
      expect(rows.map((r) => r.variables.body)).toEqual([
        ['Lyon', 'Ana'],
        ['-', 'Stranger'],
      ]);
    });
  });
});
