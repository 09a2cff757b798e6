/**
 * This plugin's part of the generated tenant-isolation test (server/testing/isolation/areas.ts): each
 * company gets the contact of its room (linked as the inbound pipeline would), one contact made by hand
 * and one attribute; A's calls and socket name B's contact, room, channel and attribute.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { IsolationArea } from '../../testing/isolation/areas';
import type { World } from '../../testing/isolation/world';
import { chatService } from '../chats';
import { linkRooms } from './linking';
import { contactAttributes, contactImports, contactImportSkips, contactRooms, contacts, contactTags } from './schema';

export const contactsIsolation: IsolationArea = {
  name: 'contacts',
  seed: async (t, company, mark) => {
    // The world's customer messages ran (or run) the pipeline; settle it so B's rows stay still during the calls.
    await chatService(t.app).settled();
    await linkRooms(t.db, sql`r.company_id = ${company.id}`);
    const [byHand] = await t.db
      .insert(contacts)
      .values({ companyId: company.id, name: `Contact${mark}`, phone: mark ? '+14155550181' : '+14155550182', email: `contact${mark ? 'b' : 'a'}@example.com`, attributes: { city: `Lyon${mark}` } })
      .returning();
    const [attribute] = await t.db.insert(contactAttributes).values({ companyId: company.id, name: `City${mark}`, key: 'city', type: 'text' }).returning();
    // A finished import with a skipped row: A must not read B's.
    const [imported] = await t.db
      .insert(contactImports)
      .values({ companyId: company.id, state: 'done', fileName: `contacts${mark}.csv`, mapping: { phone: 'phone' }, total: 2, processed: 2, created: 1, skippedCount: 1, finishedAt: new Date() })
      .returning();
    await t.db.insert(contactImportSkips).values({ importId: imported.id, row: 3, reason: 'invalid_phone', field: 'phone', value: `12${mark}` });
    return { contactId: byHand.id, attributeId: attribute.id, importId: imported.id };
  },
  snapshot: async (t, companyId) => {
    const rows = await t.db.select().from(contacts).where(eq(contacts.companyId, companyId)).orderBy(contacts.id);
    const ids = rows.map((r) => r.id);
    return {
      contacts: rows,
      rooms: ids.length ? await t.db.select().from(contactRooms).where(inArray(contactRooms.contactId, ids)).orderBy(contactRooms.roomId) : [],
      tags: ids.length ? await t.db.select().from(contactTags).where(inArray(contactTags.contactId, ids)).orderBy(contactTags.contactId, contactTags.tagId) : [],
      attributes: await t.db.select().from(contactAttributes).where(eq(contactAttributes.companyId, companyId)).orderBy(contactAttributes.id),
      imports: await t.db.select().from(contactImports).where(eq(contactImports.companyId, companyId)).orderBy(contactImports.id),
      importSkips: await t.db
        .select({ skip: contactImportSkips })
        .from(contactImportSkips)
        .innerJoin(contactImports, eq(contactImports.id, contactImportSkips.importId))
        .where(eq(contactImports.companyId, companyId))
        .orderBy(contactImportSkips.importId, contactImportSkips.row),
    };
  },
  routes: (() => {
    const contact = (w: World) => ({ id: w.B.areas.contacts.contactId });
    const attribute = (w: World) => ({ id: w.B.areas.contacts.attributeId });
    const filters = (w: World) => ({ search: 'Contact', tags: String(w.B.tagId), channels: `${w.B.sandboxChannelId},${w.B.whatsappChannelId}` });
    return {
      // B's tags and channels as filters find none of B's contacts.
      'GET /api/contacts/': { query: filters, allowed: [200] },
      'GET /api/contacts/export/': { query: filters, allowed: [200] },
      // B's channel with an external id: refused as a field error, nothing stored for B.
      'POST /api/contacts/': { body: (w) => ({ name: 'By A', external_id: 'psid-by-a', page_id: w.B.sandboxChannelId }), allowed: [400] },
      'GET /api/contacts/:id/': { params: contact },
      'PATCH /api/contacts/:id/': { params: contact, body: () => ({ name: 'Taken over', add_tags: ['by-a'] }) },
      'DELETE /api/contacts/:id/': { params: contact },
      'GET /api/rooms/:id/contact/': { params: (w) => ({ id: w.B.roomId }) },
      'GET /api/contact-attributes/': { allowed: [200] },
      'POST /api/contact-attributes/': { body: () => ({ name: 'Orders', key: 'orders', type: 'number' }), allowed: [201] },
      'PATCH /api/contact-attributes/:id/': { params: attribute, body: () => ({ name: 'Taken over' }) },
      'DELETE /api/contact-attributes/:id/': { params: attribute },
      // Not CSV: a plain-words 400, nothing stored anywhere.
      'POST /api/contacts/import/': { allowed: [400] },
      'GET /api/contacts/import/:id/': { params: (w) => ({ id: w.B.areas.contacts.importId }) },
    };
  })(),
  topics: {
    contact: { other: (w) => [`contact:${w.B.areas.contacts.contactId}`], own: (w) => [`contact:${w.A.areas.contacts.contactId}`] },
  },
};
