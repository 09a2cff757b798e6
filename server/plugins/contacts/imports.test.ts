import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CONTACT_IMPORT_MESSAGES, type ContactImport } from '../../../contract/contactImports';
import { CONTACT_MESSAGES, type Contact } from '../../../contract/contacts';
import { companies } from '../../core/db/schema';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { NOT_FOUND, PERMISSION_DENIED, teamFixture, type TeamFixture } from '../team/testing';
import { contactImportsRef } from '.';
import { STALE_MS } from './imports';
import { contactImports, contacts } from './schema';

describeEachDatabase('contact import from CSV', (database) => {
  let t: TestApp;
  let n = 0;
  const fixture = () => teamFixture(t, `Import ${++n}`, `import${n}.test`);

  beforeAll(async () => {
    t = await createTestApp({ database });
  });
  afterAll(() => t.close());

  const imports = () => t.app.services.get(contactImportsRef);

  /** POSTs the CSV as text/csv with the query's mapping and country. */
  const post = (f: TeamFixture, csv: string, query: Record<string, string> = {}, who: TeamFixture['manager'] = f.manager) =>
    t.app.inject({
      method: 'POST',
      url: `/api/contacts/import/?${new URLSearchParams(query)}`,
      headers: { ...t.headers(who.access, f.company), 'content-type': 'text/csv' },
      payload: csv,
    });

  /** Imports the file and waits for it to finish: its status. */
  async function run(f: TeamFixture, csv: string, query: Record<string, string> = {}): Promise<ContactImport> {
    const res = await post(f, csv, query);
    expect(res.statusCode, res.body).toBe(202);
    const { id } = res.json() as { id: number };
    await imports().settled();
    const status = await f.call(f.manager, 'GET', `/api/contacts/import/${id}/`);
    expect(status.statusCode).toBe(200);
    return status.json() as ContactImport;
  }

  const contactByPhone = async (f: TeamFixture, phone: string) => {
    const list = (await f.call(f.manager, 'GET', `/api/contacts/?page_size=100`)).json() as { results: Contact[] };
    return list.results.find((c) => c.phone === phone);
  };

  it('creates, updates (tags merged, attributes set), skips bad phones and duplicates with the row and reason', async () => {
    const f = await fixture();
    await f.call(f.admin, 'POST', '/api/contact-attributes/', { name: 'City', key: 'city', type: 'text' });
    const existing = (await f.call(f.manager, 'POST', '/api/contacts/', { name: 'Léa', phone: '+33612345678', tags: ['vip'], attributes: { city: 'Lyon' } })).json() as Contact;
    const csv = [
      'Full name,Mobile,E-mail,Tags,City',
      'Léa Martin,06 12 34 56 78,lea@example.com,"newsletter, vip",Paris', // row 2: the existing contact (national number in FR)
      'Noah,+4915112345678,,b2b,Berlin', // row 3: new
      'Bad phone,12,,,', // row 4: skipped
      'Noah again,0049 151 12345678,,,', // row 5: same phone as row 3
      ',,no-phone@example.com,,', // row 6: no phone
      '',
      'Mia,+14155550123,not-an-email,,', // row 8: bad e-mail
      'Zoe,+14155550124,,,Nice,extra', // row 9: more cells than the header
    ].join('\n');
    const status = await run(f, csv, { country: 'FR' });
    expect(status).toMatchObject({ state: 'done', total: 7, processed: 7, created: 1, updated: 1, skipped_count: 5, error: null });
    expect(status.skipped.map((s) => [s.row, s.reason])).toEqual([
      [4, 'invalid_phone'],
      [5, 'duplicate'],
      [6, 'missing_phone'],
      [8, 'invalid_email'],
      [9, 'too_many_columns'],
    ]);
    expect(status.skipped[1]).toMatchObject({ first_row: 3, value: '+4915112345678', detail: 'Duplicate: the same phone number is on row 3.' });
    expect(status.skipped[0].detail).toBe('Not a valid phone number: "12".');

    const lea = (await f.call(f.manager, 'GET', `/api/contacts/${existing.id}/`)).json() as Contact;
    expect(lea).toMatchObject({ name: 'Léa Martin', email: 'lea@example.com', attributes: { city: 'Paris' } });
    expect(lea.tags.map((tag) => tag.name).sort()).toEqual(['newsletter', 'vip']);
    const noah = await contactByPhone(f, '+4915112345678');
    expect(noah).toMatchObject({ name: 'Noah', attributes: { city: 'Berlin' } });
    expect(noah!.tags.map((tag) => tag.name)).toEqual(['b2b']);
    const [{ count }] = await t.db.select({ count: sql<number>`count(*)::int` }).from(contacts).where(eq(contacts.companyId, f.company));
    expect(Number(count)).toBe(2);
  });

  it('checks attribute values by type (number, date, boolean, list) and finds contacts by external id', async () => {
    const f = await fixture();
    for (const body of [
      { name: 'Orders', key: 'orders', type: 'number' },
      { name: 'Birthday', key: 'birthday', type: 'date' },
      { name: 'Member', key: 'member', type: 'boolean' },
      { name: 'Tier', key: 'tier', type: 'list', options: ['gold', 'silver'] },
    ])
      expect((await f.call(f.admin, 'POST', '/api/contact-attributes/', body)).statusCode).toBe(201);
    await t.db.insert(contacts).values({ companyId: f.company, name: 'Page fan', externalId: 'psid-42' });
    const csv = [
      'phone;external_id;orders;birthday;member;tier',
      '+33611111111;;3,5;2001-02-03;yes;gold',
      '+33622222222;;many;;;', // number
      '+33633333333;;;2001-02-30;;', // date
      '+33644444444;;;;maybe;', // boolean
      '+33655555555;;;;;bronze', // list
      ';psid-42;7;;non;silver', // found by external id
      ';psid-unknown;1;;;', // no phone, unknown external id
    ].join('\r\n');
    const status = await run(f, csv, { mapping: JSON.stringify({ phone: 'phone', external_id: 'external_id', orders: 'attribute:orders', birthday: 'attribute:birthday', member: 'attribute:member', tier: 'attribute:tier' }) });
    expect(status).toMatchObject({ state: 'done', created: 1, updated: 1, skipped_count: 5 });
    expect(status.skipped.map((s) => [s.row, s.reason, s.field])).toEqual([
      [3, 'invalid_value', 'orders'],
      [4, 'invalid_value', 'birthday'],
      [5, 'invalid_value', 'member'],
      [6, 'invalid_value', 'tier'],
      [8, 'unknown_external_id', 'external_id'],
    ]);
    expect((await contactByPhone(f, '+33611111111'))!.attributes).toEqual({ orders: 3.5, birthday: '2001-02-03', member: true, tier: 'gold' });
    const [fan] = await t.db.select().from(contacts).where(and(eq(contacts.companyId, f.company), eq(contacts.externalId, 'psid-42')));
    expect(fan.attributes).toEqual({ orders: 7, member: false, tier: 'silver' });
  });

  it('refuses in plain words: no file, an empty file, no phone column, an unknown attribute, a bad country, a bad mapping', async () => {
    const f = await fixture();
    const noFile = await f.call(f.manager, 'POST', '/api/contacts/import/', { csv: 'x' });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toEqual({ file: [CONTACT_IMPORT_MESSAGES.fileMissing] });
    expect((await post(f, 'name,phone\n')).json()).toEqual({ file: [CONTACT_IMPORT_MESSAGES.empty] });
    expect((await post(f, 'name,city\nA,Lyon\n')).json()).toEqual({ mapping: [CONTACT_IMPORT_MESSAGES.noKeyColumn] });
    expect((await post(f, 'phone,city\n+33611111111,Lyon\n', { mapping: JSON.stringify({ phone: 'phone', city: 'attribute:city' }) })).json()).toEqual({
      mapping: [CONTACT_MESSAGES.unknownAttribute('city')],
    });
    expect((await post(f, 'phone\n+33611111111\n', { country: 'XX' })).json()).toEqual({ country: [CONTACT_IMPORT_MESSAGES.country] });
    expect((await post(f, 'phone\n+33611111111\n', { mapping: '[1' })).json()).toEqual({ mapping: [CONTACT_IMPORT_MESSAGES.mappingInvalid] });
    expect((await post(f, 'phone\n+33611111111\n', { mapping: JSON.stringify({ mobile: 'phone' }) })).json()).toEqual({ mapping: [CONTACT_IMPORT_MESSAGES.unknownColumn('mobile')] });
    const tooMany = await post(f, `phone\n${'+33611111111\n'.repeat(100_001)}`);
    expect(tooMany.json()).toEqual({ file: [CONTACT_IMPORT_MESSAGES.tooManyRows] });
    const [{ count }] = await t.db.select({ count: sql<number>`count(*)::int` }).from(contactImports).where(eq(contactImports.companyId, f.company));
    expect(Number(count)).toBe(0);
  });

  it('takes a multipart upload with the mapping and country as fields', async () => {
    const f = await fixture();
    const form = new FormData();
    form.set('file', new Blob(['Nom,Téléphone\nCamille,06 98 76 54 32\n'], { type: 'text/csv' }), 'clients.csv');
    form.set('mapping', JSON.stringify({ Nom: 'name', Téléphone: 'phone' }));
    form.set('country', 'fr');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/contacts/import/',
      headers: { ...t.headers(f.manager.access, f.company), 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(res.statusCode, res.body).toBe(202);
    await imports().settled();
    const status = (await f.call(f.manager, 'GET', `/api/contacts/import/${res.json().id}/`)).json() as ContactImport;
    expect(status).toMatchObject({ state: 'done', file_name: 'clients.csv', created: 1 });
    expect(await contactByPhone(f, '+33698765432')).toMatchObject({ name: 'Camille' });
  });

  it('one import at a time per company: a second gets 429 with the running one; a stopped one no longer blocks', async () => {
    const f = await fixture();
    const other = await fixture();
    const [running] = await t.db
      .insert(contactImports)
      .values({ companyId: f.company, state: 'running', fileName: 'big.csv', mapping: { phone: 'phone' }, total: 100, heartbeatAt: t.clock.now() })
      .returning();
    const refused = await post(f, 'phone\n+33611111111\n');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('10');
    expect(refused.json()).toEqual({ detail: CONTACT_IMPORT_MESSAGES.busy, code: 'import_busy', id: running.id });
    // Another company is not blocked.
    expect((await run(other, 'phone\n+33611111111\n')).state).toBe('done');

    // Its process died: past STALE_MS without a heartbeat, it is failed in plain words and the company imports again.
    t.clock.advance(STALE_MS + 1000);
    await f.signInAgain();
    const stale = (await f.call(f.manager, 'GET', `/api/contacts/import/${running.id}/`)).json() as ContactImport;
    expect(stale).toMatchObject({ state: 'failed', error: CONTACT_IMPORT_MESSAGES.interrupted });
    expect((await run(f, 'phone\n+33611111111\n')).state).toBe('done');
  });

  it('access: manage contacts to import and read an import; another company reads nothing; a member limited to own rooms may not import', async () => {
    const f = await fixture();
    const b = await fixture();
    const mine = await run(f, 'phone\n+33611111111\n');
    expect((await b.call(b.admin, 'GET', `/api/contacts/import/${mine.id}/`)).json()).toEqual(NOT_FOUND);
    expect((await f.call(f.admin, 'GET', `/api/contacts/import/${mine.id}/`, undefined, b.company)).statusCode).toBe(403);
    // Limited to own rooms: the import would change contacts the member cannot see.
    await t.db.update(companies).set({ agentFeature: true }).where(eq(companies.id, f.company));
    expect((await post(f, 'phone\n+33611111112\n', {}, f.agent)).json()).toEqual(PERMISSION_DENIED);
    await t.db.update(companies).set({ agentFeature: false }).where(eq(companies.id, f.company));
    await t.seed.rolePermissions(f.company, 'agent', { can_view_chats: true, can_manage_chats: false });
    expect((await post(f, 'phone\n+33611111112\n', {}, f.agent)).json()).toEqual(PERMISSION_DENIED);
    expect((await f.call(f.agent, 'GET', `/api/contacts/import/${mine.id}/`)).json()).toEqual(PERMISSION_DENIED);
  });

  it('imports 10,000 rows (new and existing contacts) to the end, in many slices', async () => {
    const f = await fixture();
    const lines = ['name,phone,tags'];
    for (let i = 0; i < 10_000; i += 1) lines.push(`Customer ${i},+3361${String(i).padStart(7, '0')},${i % 2 ? 'odd' : 'even'}`);
    const first = await run(f, lines.join('\n'));
    expect(first).toMatchObject({ state: 'done', total: 10_000, processed: 10_000, created: 10_000, updated: 0, skipped_count: 0 });
    // Again: every row finds its contact.
    const again = await run(f, lines.join('\n'));
    expect(again).toMatchObject({ state: 'done', processed: 10_000, created: 0, updated: 10_000, skipped_count: 0 });
    const [{ count }] = await t.db.select({ count: sql<number>`count(*)::int` }).from(contacts).where(eq(contacts.companyId, f.company));
    expect(Number(count)).toBe(10_000);
  }, 120_000);
});
