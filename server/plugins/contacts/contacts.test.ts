import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contactMatches } from '../../../contract/chats';
import { CONTACT_MESSAGES, contactRecordMatches, type Contact } from '../../../contract/contacts';
import { channels, companies, rooms, roomTags, tags } from '../../core/db/schema';
import { MIGRATIONS_DIR } from '../../core/db/migrate';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { chatService } from '../chats';
import { broadcastRecipients, broadcasts } from '../broadcasts/testing';
import { NOT_FOUND, PERMISSION_DENIED, teamFixture, type TeamFixture } from '../team/testing';
import { linkRooms } from './linking';
import { contactRooms, contacts } from './schema';

/** The data statements the contacts migration appends after its tables (the backfill of existing rooms). */
function migrationBackfill(): string[] {
  const file = readdirSync(MIGRATIONS_DIR).find((f) => /_contacts\.sql$/.test(f));
  if (!file) throw new Error('no contacts migration');
  const text = readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
  const backfill = text.slice(text.indexOf('-- Backfill'));
  return backfill
    .split('--> statement-breakpoint')
    .map((s) => s.replace(/^--.*$/gm, '').trim())
    .filter(Boolean);
}

describeEachDatabase('contacts', (database) => {
  let t: TestApp;
  let n = 0;
  const fixture = () => teamFixture(t, `Contacts ${++n}`, `contacts${n}.test`);

  beforeAll(async () => {
    t = await createTestApp({ database });
  });
  afterAll(() => t.close());

  const channel = async (companyId: number, platform: 'whatsapp' | 'messenger' | 'sandbox', externalId: string) => {
    const [row] = await t.db.insert(channels).values({ companyId, platform, name: `${platform} ${externalId}`, externalId }).returning();
    return row;
  };
  const room = async (companyId: number, channelId: number, externalId: string, name: string) => {
    const [row] = await t.db.insert(rooms).values({ companyId, channelId, externalId, name, lastMessageAt: new Date('2026-11-01T10:00:00Z') }).returning();
    return row;
  };
  const contactOfRoom = async (roomId: number) => {
    const [row] = await t.db.select({ contact: contacts }).from(contactRooms).innerJoin(contacts, eq(contacts.id, contactRooms.contactId)).where(eq(contactRooms.roomId, roomId));
    return row?.contact;
  };

  /** Two companies' rooms as they existed before contacts: the same phone on two WhatsApp numbers, a Messenger customer, the same phone in another company. */
  async function roomsBeforeContacts() {
    const f = await fixture();
    const other = await t.seed.company(`Other ${n}`);
    const wa1 = await channel(f.company, 'whatsapp', `pn-a-${n}`);
    const wa2 = await channel(f.company, 'whatsapp', `pn-b-${n}`);
    const fb = await channel(f.company, 'messenger', `page-${n}`);
    const otherWa = await channel(other, 'whatsapp', `pn-c-${n}`);
    const shared = [await room(f.company, wa1.id, '33612345678', 'Camille'), await room(f.company, wa2.id, '33612345678', 'Camille M.')];
    const psid = await room(f.company, fb.id, '7000001', '7000001');
    const alone = await room(f.company, wa1.id, '14155550123', 'James');
    const elsewhere = await room(other, otherWa.id, '33612345678', 'Camille (other company)');
    // As before the migration: no contact yet.
    await t.db.delete(contactRooms).where(sql`room_id in (${sql.join([...shared, psid, alone, elsewhere].map((r) => sql`${r.id}`), sql`, `)})`);
    return { f, other, shared, psid, alone, elsewhere, wa1 };
  }

  async function expectOneContactPerCustomer(w: Awaited<ReturnType<typeof roomsBeforeContacts>>) {
    const [a, b] = [await contactOfRoom(w.shared[0].id), await contactOfRoom(w.shared[1].id)];
    expect(a).toBeDefined();
    expect(b!.id).toBe(a!.id);
    expect(a).toMatchObject({ companyId: w.f.company, phone: '+33612345678', externalId: '33612345678', pageId: w.wa1.id, platform: 'whatsapp', name: 'Camille' });
    expect(a!.lastMessageAt?.toISOString()).toBe('2026-11-01T10:00:00.000Z');
    const psid = await contactOfRoom(w.psid.id);
    expect(psid).toMatchObject({ phone: null, externalId: '7000001', platform: 'messenger' });
    expect((await contactOfRoom(w.alone.id))!.phone).toBe('+14155550123');
    const elsewhere = await contactOfRoom(w.elsewhere.id);
    expect(elsewhere).toMatchObject({ companyId: w.other, phone: '+33612345678' });
    expect(elsewhere!.id).not.toBe(a!.id);
    const count = await t.db.select({ n: sql<number>`count(*)::int` }).from(contacts).where(eq(contacts.companyId, w.f.company));
    expect(Number(count[0].n)).toBe(3);
  }

  it('the migration gives every existing room its contact: one per phone (two WhatsApp numbers, one contact) or per id on a channel, per company', async () => {
    const w = await roomsBeforeContacts();
    for (const statement of migrationBackfill()) await t.db.execute(sql.raw(statement));
    await expectOneContactPerCustomer(w);
    // Run again: nothing changes.
    for (const statement of migrationBackfill()) await t.db.execute(sql.raw(statement));
    await expectOneContactPerCustomer(w);
  });

  it('the run-time linking does the same as the migration', async () => {
    const w = await roomsBeforeContacts();
    await linkRooms(t.db, sql`r.company_id in (${w.f.company}, ${w.other})`);
    await expectOneContactPerCustomer(w);
  });

  it('a customer who writes gets a contact through the inbound pipeline; the same number on a second WhatsApp number finds it', async () => {
    const f = await fixture();
    const wa1 = await channel(f.company, 'whatsapp', `pn-in-a-${n}`);
    const wa2 = await channel(f.company, 'whatsapp', `pn-in-b-${n}`);
    const chats = chatService(t.app);
    const first = await chats.receiveInbound(wa1, { externalUserId: '4915112345678', name: 'Noah', type: 'text', text: 'Hallo', clientId: 'm1' });
    const second = await chats.receiveInbound(wa2, { externalUserId: '4915112345678', name: 'Noah F.', type: 'text', text: 'Hallo again', clientId: 'm2' });
    await chats.settled();
    const contact = await contactOfRoom(first.room.id);
    expect(contact).toMatchObject({ phone: '+4915112345678', name: 'Noah', pageId: wa1.id });
    expect((await contactOfRoom(second.room.id))!.id).toBe(contact!.id);
    const detail = (await f.call(f.agent, 'GET', `/api/contacts/${contact!.id}/`)).json() as Contact;
    expect(detail.rooms.map((r) => r.id).sort()).toEqual([first.room.id, second.room.id].sort());
    expect(detail.last_message_at).not.toBeNull();
    // The panel's route answers the same contact for either room.
    expect(((await f.call(f.agent, 'GET', `/api/rooms/${second.room.id}/contact/`)).json() as Contact).id).toBe(contact!.id);
  });

  const create = async (f: TeamFixture, body: Record<string, unknown>) => {
    const res = await f.call(f.manager, 'POST', '/api/contacts/', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Contact;
  };

  it('creates a contact by hand: phone to E.164, 400 in plain words for a bad phone or e-mail, 409 with the existing id', async () => {
    const f = await fixture();
    const fb = await channel(f.company, 'messenger', `page-create-${n}`);
    const made = await create(f, { name: '  Léa Martin ', phone: '+33 6 12 34 56 78', email: 'Lea@Example.com', tags: ['vip'] });
    expect(made).toMatchObject({ name: 'Léa Martin', phone: '+33612345678', email: 'lea@example.com', external_id: null, opted_out: false, rooms: [], attributes: {} });
    expect(made.tags.map((t) => t.name)).toEqual(['vip']);

    const bad = await f.call(f.manager, 'POST', '/api/contacts/', { name: 'X', phone: '12', email: 'not-an-email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ phone: [CONTACT_MESSAGES.invalidPhone], email: [CONTACT_MESSAGES.invalidEmail] });
    expect((await f.call(f.manager, 'POST', '/api/contacts/', { phone: '+33612345679' })).json()).toEqual({ name: ['This field is required.'] });

    const samePhone = await f.call(f.manager, 'POST', '/api/contacts/', { name: 'Other', phone: '0033612345678' });
    expect(samePhone.statusCode).toBe(409);
    expect(samePhone.json()).toEqual({ detail: CONTACT_MESSAGES.phoneTaken, code: 'contact_exists', id: made.id });

    const psid = await create(f, { name: 'Page fan', external_id: 'psid-1', page_id: fb.id });
    expect(psid).toMatchObject({ platform: 'messenger', page_id: fb.id });
    const sameId = await f.call(f.manager, 'POST', '/api/contacts/', { name: 'Again', external_id: 'psid-1', page_id: fb.id });
    expect(sameId.statusCode).toBe(409);
    expect(sameId.json()).toEqual({ detail: CONTACT_MESSAGES.externalIdTaken, code: 'contact_exists', id: psid.id });
    expect((await f.call(f.manager, 'POST', '/api/contacts/', { name: 'No channel', external_id: 'psid-2' })).json()).toEqual({ page_id: [CONTACT_MESSAGES.externalIdNeedsChannel] });

    // Changing a phone to one another contact has: 409 too.
    const moved = await f.call(f.manager, 'PATCH', `/api/contacts/${psid.id}/`, { phone: '+33612345678' });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().id).toBe(made.id);
  });

  it('lists with the contact search: name, external id or e-mail contains the term, or the phone its digits; any chosen tag, page among the chosen channels', async () => {
    const f = await fixture();
    const fb = await channel(f.company, 'messenger', `page-search-${n}`);
    const wa = await channel(f.company, 'whatsapp', `pn-search-${n}`);
    const made = [
      await create(f, { name: 'Alice Lyon', tags: ['vip'] }),
      await create(f, { name: 'Bob', external_id: 'ALI-77', page_id: fb.id, tags: ['newsletter'] }),
      await create(f, { name: 'Carol', external_id: '33611112222', page_id: wa.id, tags: ['vip', 'newsletter'] }),
      await create(f, { name: 'Dan', phone: '+14155550100' }),
      await create(f, { name: 'Eve', phone: '+33698765432', email: 'eve.martin@example.com' }),
    ];
    const tagIds = Object.fromEntries(made.flatMap((c) => c.tags).map((t) => [t.name, t.id]));
    const filters = [
      { search: 'ali', tags: [], channels: [] },
      { search: 'ALI-7', tags: [], channels: [] },
      { search: '', tags: [tagIds.vip], channels: [] },
      { search: '', tags: [tagIds.vip, tagIds.newsletter], channels: [] },
      { search: '', tags: [], channels: [fb.id, wa.id] },
      { search: 'o', tags: [tagIds.newsletter], channels: [wa.id] },
      { search: 'nobody', tags: [], channels: [] },
      // The record's own e-mail and phone: the phone by its digits, however the term groups them.
      { search: 'MARTIN@example', tags: [], channels: [] },
      { search: '+33 6 98 76', tags: [], channels: [] },
      { search: '(415) 555-01', tags: [], channels: [] },
      { search: '336111', tags: [], channels: [] },
      { search: '98 x', tags: [], channels: [] },
      { search: '06', tags: [], channels: [] },
      { search: '', tags: [], channels: [] },
    ];
    for (const filter of filters) {
      const query = new URLSearchParams({ search: filter.search, page_size: '100' });
      if (filter.tags.length) query.set('tags', filter.tags.join(','));
      if (filter.channels.length) query.set('channels', filter.channels.join(','));
      const res = await f.call(f.agent, 'GET', `/api/contacts/?${query}`);
      expect(res.statusCode).toBe(200);
      const body = res.json() as { count: number; results: Contact[] };
      const expected = made.filter(
        (c) => contactRecordMatches(c, filter.search) && contactMatches({ name: c.name, externalId: c.external_id ?? '', pageId: c.page_id ?? 0, tags: c.tags }, { term: '', tags: filter.tags.map((id) => ({ id })), channels: filter.channels }),
      );
      if (filter.search === '+33 6 98 76' || filter.search === 'MARTIN@example') expect(expected.map((c) => c.name)).toEqual(['Eve']);
      if (filter.search === '(415) 555-01') expect(expected.map((c) => c.name)).toEqual(['Dan']);
      expect(body.results.map((c) => c.id).sort(), JSON.stringify(filter)).toEqual(expected.map((c) => c.id).sort());
      expect(body.count).toBe(expected.length);
    }
    // Paging and sorting.
    const page = (await f.call(f.agent, 'GET', '/api/contacts/?ordering=name&page=2&page_size=3')).json() as { count: number; results: Contact[]; previous: string };
    expect(page.count).toBe(5);
    expect(page.results.map((c) => c.name)).toEqual(['Dan', 'Eve']);
    expect((await f.call(f.agent, 'GET', '/api/contacts/?tags=x')).statusCode).toBe(400);
    expect((await f.call(f.agent, 'GET', '/api/contacts/?ordering=password')).statusCode).toBe(400);
  });

  it('attributes: defined on the company, values checked by type, null clears; edits are pushed on contact:{id}', async () => {
    const f = await fixture();
    const defined = await f.call(f.admin, 'POST', '/api/contact-attributes/', { name: 'City', key: 'city', type: 'list', options: ['Lyon', 'Paris'] });
    expect(defined.statusCode).toBe(201);
    expect((await f.call(f.admin, 'POST', '/api/contact-attributes/', { name: 'Orders', key: 'orders', type: 'number' })).statusCode).toBe(201);
    expect((await f.call(f.admin, 'POST', '/api/contact-attributes/', { name: 'Again', key: 'city', type: 'text' })).json()).toEqual({ key: [CONTACT_MESSAGES.attributeKeyTaken] });
    expect((await f.call(f.admin, 'POST', '/api/contact-attributes/', { name: 'Bad', key: 'Bad key', type: 'text' })).json()).toEqual({ key: [CONTACT_MESSAGES.attributeKeyFormat] });
    expect((await f.call(f.admin, 'POST', '/api/contact-attributes/', { name: 'Tier', key: 'tier', type: 'list' })).json()).toEqual({ options: [CONTACT_MESSAGES.listNeedsOptions] });

    const c = await create(f, { name: 'Zoé', attributes: { city: 'Lyon', orders: '4' } });
    expect(c.attributes).toEqual({ city: 'Lyon', orders: 4 });
    const wrong = await f.call(f.agent, 'PATCH', `/api/contacts/${c.id}/`, { attributes: { city: 'Nice', orders: 'many', colour: 'red' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ 'attributes.city': [CONTACT_MESSAGES.notOption(['Lyon', 'Paris'])], 'attributes.orders': [CONTACT_MESSAGES.notNumber], 'attributes.colour': [CONTACT_MESSAGES.unknownAttribute('colour')] });

    const hub = t.app.services.get('RealtimeHub');
    const pushed = vi.spyOn(hub, 'broadcast');
    const ok = await f.call(f.agent, 'PATCH', `/api/contacts/${c.id}/`, { attributes: { city: 'Paris', orders: null }, add_tags: ['vip'] });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ attributes: { city: 'Paris' }, tags: [{ name: 'vip' }] });
    expect(pushed).toHaveBeenCalledWith(`contact:${c.id}`, 'contact_updated', { contact: expect.objectContaining({ id: c.id, attributes: { city: 'Paris' } }) });
    pushed.mockRestore();
    const untagged = await f.call(f.agent, 'PATCH', `/api/contacts/${c.id}/`, { remove_tags: ['VIP'] });
    expect(untagged.json().tags).toEqual([]);
  });

  it('access: the chats area (view reads, manage writes); an agent limited to own rooms sees only the contacts of those rooms', async () => {
    const f = await fixture();
    const wa = await channel(f.company, 'whatsapp', `pn-own-${n}`);
    const chats = chatService(t.app);
    const mine = await chats.receiveInbound(wa, { externalUserId: '34612345678', name: 'Maria', type: 'text', text: 'Hola', clientId: 'own-1' });
    const theirs = await chats.receiveInbound(wa, { externalUserId: '81312345678', name: 'Aiko', type: 'text', text: 'Hi', clientId: 'own-2' });
    await chats.settled();
    const [tag] = await t.db.insert(tags).values({ companyId: f.company, name: f.agent.email }).returning();
    await t.db.insert(roomTags).values({ roomId: mine.room.id, tagId: tag.id });
    const byHand = await create(f, { name: 'Walk-in' });
    const myContact = (await contactOfRoom(mine.room.id))!;
    const theirContact = (await contactOfRoom(theirs.room.id))!;

    expect((await f.call(f.agent, 'GET', '/api/contacts/')).json().count).toBe(3);
    await t.db.update(companies).set({ agentFeature: true }).where(eq(companies.id, f.company));
    const list = (await f.call(f.agent, 'GET', '/api/contacts/')).json() as { count: number; results: Contact[] };
    expect(list.results.map((c) => c.id)).toEqual([myContact.id]);
    expect(list.count).toBe(1);
    expect((await f.call(f.agent, 'GET', `/api/contacts/${theirContact.id}/`)).json()).toEqual(NOT_FOUND);
    expect((await f.call(f.agent, 'PATCH', `/api/contacts/${byHand.id}/`, { name: 'x' })).statusCode).toBe(404);
    expect((await f.call(f.agent, 'GET', `/api/rooms/${theirs.room.id}/contact/`)).statusCode).toBe(404);
    expect((await f.call(f.agent, 'GET', '/api/contacts/export/')).body).not.toContain('Aiko');
    // Managers are not limited.
    expect((await f.call(f.manager, 'GET', '/api/contacts/')).json().count).toBe(3);

    // A role without chats manage reads but does not write; without chats view, nothing.
    await t.seed.rolePermissions(f.company, 'agent', { can_view_chats: true, can_manage_chats: false });
    await t.db.update(companies).set({ agentFeature: false }).where(eq(companies.id, f.company));
    expect((await f.call(f.agent, 'GET', `/api/contacts/${byHand.id}/`)).statusCode).toBe(200);
    expect((await f.call(f.agent, 'PATCH', `/api/contacts/${byHand.id}/`, { name: 'x' })).json()).toEqual(PERMISSION_DENIED);
    expect((await f.call(f.agent, 'POST', '/api/contacts/', { name: 'x' })).statusCode).toBe(403);
    expect((await f.call(f.agent, 'DELETE', `/api/contacts/${byHand.id}/`)).statusCode).toBe(403);
    expect((await f.call(f.manager, 'DELETE', `/api/contacts/${byHand.id}/`)).statusCode).toBe(204);
    expect((await f.call(f.manager, 'GET', `/api/contacts/${byHand.id}/`)).statusCode).toBe(404);
  });

  it('exports the filtered list as CSV with the attributes, cells a spreadsheet would run neutralised', async () => {
    const f = await fixture();
    await f.call(f.admin, 'POST', '/api/contact-attributes/', { name: 'City', key: 'city', type: 'text' });
    await create(f, { name: '=HYPERLINK("http://evil")', phone: '+33612345678', attributes: { city: '@Lyon' }, tags: ['vip'] });
    await create(f, { name: 'Plain', attributes: { city: 'Paris' } });
    const res = await f.call(f.agent, 'GET', '/api/contacts/export/?search=hyper');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('id,name,phone,email,external_id,channel,platform,tags,opted_out,created_at,last_message_at,city');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")",+33612345678,`);
    expect(lines[1]).toContain(',vip,false,');
    expect(lines[1]).toMatch(/,"'@Lyon"$/);
  });

  it("shows the broadcasts the contact's phone was sent, newest first, on the one contact only; another company's never", async () => {
    const f = await fixture();
    const other = await t.seed.company(`Broadcasts other ${n}`);
    const c = await create(f, { name: 'Receiver', phone: '+14155550177' });
    const wa = await channel(f.company, 'whatsapp', `pn-bc-${n}`);
    const otherWa = await channel(other, 'whatsapp', `pn-bc-o-${n}`);
    const broadcast = async (companyId: number, channelId: number, name: string, state: 'read' | 'failed' | 'queued' | 'delivered', sentAt: string | null) => {
      const [b] = await t.db
        .insert(broadcasts)
        .values({ companyId, channelId, name, templateName: 'offer', templateLanguage: 'en_US', variables: { body: {} }, audienceType: 'csv', status: 'completed' })
        .returning({ id: broadcasts.id });
      await t.db.insert(broadcastRecipients).values({ broadcastId: b.id, companyId, phone: '+14155550177', variables: { body: [] }, state, sentAt: sentAt ? new Date(sentAt) : null });
      return b.id;
    };
    const older = await broadcast(f.company, wa.id, 'Autumn offer', 'read', '2026-10-01T10:00:00Z');
    const newer = await broadcast(f.company, wa.id, 'Winter offer', 'failed', '2026-11-20T10:00:00Z');
    await broadcast(f.company, wa.id, 'Still queued', 'queued', null);
    await broadcast(other, otherWa.id, 'Not yours', 'delivered', '2026-11-21T10:00:00Z');

    const one = (await f.call(f.agent, 'GET', `/api/contacts/${c.id}/`)).json() as Contact;
    expect(one.broadcasts).toEqual([
      { id: newer, name: 'Winter offer', state: 'failed', sent_at: '2026-11-20T10:00:00.000Z' },
      { id: older, name: 'Autumn offer', state: 'read', sent_at: '2026-10-01T10:00:00.000Z' },
    ]);
    const list = (await f.call(f.agent, 'GET', `/api/contacts/?search=Receiver`)).json() as { results: Contact[] };
    expect(list.results[0].broadcasts).toBeUndefined();
  });

  describe('opted_out', () => {
    it('follows the company opt-out list', async () => {
      const f = await fixture();
      const c = await create(f, { name: 'Stopper', phone: '+14155550111' });
      expect(c.opted_out).toBe(false);
      await t.db.execute(sql`insert into opt_outs (company_id, phone, reason, source, detail) values (${f.company}, '+14155550111', 'stop_keyword', 'message', 'STOP')`);
      expect(((await f.call(f.agent, 'GET', `/api/contacts/${c.id}/`)).json() as Contact).opted_out).toBe(true);
    });
  });
});
