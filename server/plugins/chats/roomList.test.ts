/**
 * The room list's rooms and the message pages as PostgreSQL writes them (roomQueries.ts `roomOfPageJson` and
 * `messageJson`: what fetch_rooms, GET /api/rooms/, fetch_messages, GET …/messages/ and a room's join answer) are what
 * `toRoom` and `toMessage` make of the same rows (`roomSummaries`, what a room's pushes carry): the same values, keys
 * in the same order, on each database.
 */
import { and, asc, desc, eq, lt, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { channels, messages, roomReads, roomTags, rooms, tags } from '../../core/db/schema';
import { CHAT_PAGE_SIZE } from '../../../contract/chats';
import { mediaUrlForCompany } from '../../providers/storage/privateMedia';
import { chatService } from './index';
import type { ChatActor } from './service';
import { toMessage, type MessageRow } from './views';

describeEachDatabase('the room list written by PostgreSQL', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database });
  });
  afterAll(async () => t.close());

  it("gives each room as toRoom does: nulls, microseconds, tags in order, unread, the newest message but a note with its private URL signed, the assignee", async () => {
    const db = t.db;
    const companyId = await t.seed.company('List Co');
    const adminId = await t.seed.user({ email: 'lister@list.test', firstName: 'Lis' });
    await t.seed.member(companyId, adminId, 'admin');
    const agentId = await t.seed.user({ email: 'second@list.test', firstName: '' });
    await t.seed.member(companyId, agentId, 'agent');
    const [channel] = await db.insert(channels).values({ companyId, platform: 'whatsapp', name: 'WA', externalId: 'wa-list' }).returning();
    const storage = t.app.services.get('MediaStorage');
    const privateUrl = storage.url(`chats/${companyId}/${'ab'.repeat(16)}/photo.png`);
    const otherCompanysUrl = storage.url(`chats/${companyId + 1000}/${'cd'.repeat(16)}/theirs.png`);

    const at = (text: string) => new Date(text);
    const [full, bare, assigned, resolved] = await db
      .insert(rooms)
      .values([
        {
          companyId,
          channelId: channel.id,
          externalId: '+33 6 00 00 00 01',
          name: 'Zoé "quoted" \\ back\nline',
          pausedUntil: at('2026-12-01T10:00:00.001Z'),
          blockedAt: at('2026-11-30T23:59:59.999Z'),
          lastInboundAt: at('2026-11-20T19:11:00Z'),
          status: 'snoozed',
          snoozedUntil: at('2027-01-01T00:00:00.500Z'),
          assigneeUserId: adminId,
        },
        { companyId, channelId: channel.id, externalId: 'bare', name: 'Bare' },
        { companyId, channelId: channel.id, externalId: 'assigned', name: 'Assigned', status: 'pending', assigneeUserId: agentId, lastMessageAt: at('2026-11-19T00:00:00Z') },
        { companyId, channelId: channel.id, externalId: 'resolved', name: 'Resolved', status: 'resolved', lastMessageAt: at('2026-11-18T00:00:00Z') },
      ])
      .returning();
    // Microseconds, which neither a Date nor toISOString keeps: cut to the millisecond on both paths.
    await db.execute(sql`update rooms set last_message_at = '2026-11-20 19:11:00.123987+00' where id = ${full.id}`);

    const [alpha, beta, beta2] = await db
      .insert(tags)
      .values([
        { companyId, name: 'beta' },
        { companyId, name: 'Alpha' },
        { companyId, name: 'beta-2' },
      ])
      .returning();
    await db.insert(roomTags).values([
      { roomId: full.id, tagId: alpha.id },
      { roomId: full.id, tagId: beta.id },
      { roomId: full.id, tagId: beta2.id },
      { roomId: assigned.id, tagId: beta.id },
    ]);

    const [firstRead] = await db
      .insert(messages)
      .values({ companyId, roomId: full.id, origin: 'user', text: 'first', createdAt: at('2026-11-20T19:00:00Z') })
      .returning();
    await db.insert(messages).values([
      { companyId, roomId: full.id, origin: 'user', text: 'second' },
      {
        companyId,
        roomId: full.id,
        origin: 'agent',
        type: 'image',
        text: null,
        mediaUrl: privateUrl,
        mediaType: 'image/png',
        data: { nested: { list: [1, 'two', null, 1.5] }, quote: 'l\'"é' },
        status: 'failed',
        error: 'Re-engagement message',
        clientId: 'client-1',
        senderName: 'Lis',
      },
      // The newest of the room is a note: the list shows the message before it.
      { companyId, roomId: full.id, origin: 'note', text: 'only agents see this' },
      { companyId, roomId: assigned.id, origin: 'user', type: 'image', mediaUrl: otherCompanysUrl, text: 'not ours to sign' },
      { companyId, roomId: resolved.id, origin: 'bot', text: 'bye', status: 'read' },
    ]);
    await db.execute(sql`update messages set created_at = '2026-11-20 19:11:00.123987+00' where room_id = ${full.id} and text = 'second'`);
    await db.insert(roomReads).values({ roomId: full.id, userId: adminId, lastReadMessageId: firstRead.id });

    const chats = chatService(t.app);
    const actor: ChatActor = { userId: adminId, email: 'lister@list.test', name: 'Lis', companyId, role: 'admin' };
    const listed = await chats.fetchRooms(actor, null, { search: '', page: 1 });
    expect(listed.map((r) => r.id).sort((a, b) => a - b)).toEqual([full.id, bare.id, assigned.id, resolved.id].sort((a, b) => a - b));
    const records = await Promise.all(listed.map(async (room) => (await chats.roomRecord(room.id))!));
    const mapped = await chats.roomSummaries(records, adminId);
    expect(listed).toEqual(mapped);
    // Keys in the same order, so the answers are the same text.
    expect(JSON.stringify(listed)).toBe(JSON.stringify(mapped));

    const shown = listed.find((r) => r.id === full.id)!;
    expect(shown.unread).toBe(1);
    expect(shown.last_message_at).toBe('2026-11-20T19:11:00.123Z');
    expect(shown.tags.map((tag) => tag.name)).toEqual(['Alpha', 'beta', 'beta-2']);
    expect(shown.messages).toHaveLength(1);
    expect(shown.messages[0]).toMatchObject({ origin: 'agent', private: false, media_url: expect.stringMatching(/\?exp=\d+&sig=[0-9a-f]{64}$/) });
    expect(listed.find((r) => r.id === assigned.id)!.messages[0].media_url).toBe(otherCompanysUrl);
    expect(listed.find((r) => r.id === bare.id)).toMatchObject({ messages: [], tags: [], assignee: null, unread: 0, paused_until: null });
    const [row] = await db.select({ mediaUrl: messages.mediaUrl }).from(messages).where(eq(messages.mediaType, 'image/png'));
    expect(row.mediaUrl).toBe(privateUrl);
  });

  it('gives each page of messages as toMessage does: newest, before an id, before a time, notes or not, and the room its join opens', async () => {
    const db = t.db;
    const companyId = await t.seed.company('Pages Co');
    const [channel] = await db.insert(channels).values({ companyId, platform: 'sandbox', name: 'SB', externalId: 'sb-pages' }).returning();
    const [room] = await db.insert(rooms).values({ companyId, channelId: channel.id, externalId: 'pages', name: 'Pages' }).returning();
    const storage = t.app.services.get('MediaStorage');
    const privateUrl = storage.url(`chats/${companyId}/${'ef'.repeat(16)}/doc.pdf`);
    const origins = ['user', 'agent', 'bot', 'note', 'flow'];
    await db.insert(messages).values(
      Array.from({ length: CHAT_PAGE_SIZE * 2 + 5 }, (_, i) => ({
        companyId,
        roomId: room.id,
        origin: origins[i % origins.length],
        type: i % 7 === 0 ? 'document' : 'text',
        text: i % 7 === 0 ? null : `message ${i} "quoted" \\ é`,
        mediaUrl: i % 7 === 0 ? privateUrl : i % 11 === 0 ? 'https://elsewhere.test/picture.jpg' : null,
        mediaType: i % 7 === 0 ? 'application/pdf' : null,
        data: i % 3 === 0 ? { index: i, buttons: [{ id: `b${i}`, title: 'Yes' }] } : null,
        status: i % 2 === 0 ? 'delivered' : null,
        error: i % 13 === 0 ? 'Undeliverable' : null,
        clientId: i % 4 === 0 ? `client-${i}` : null,
        senderName: i % 5 === 1 ? 'Agent Smith' : null,
        // Two messages a second, some in the same millisecond: the pages order by time, then id.
        createdAt: new Date(Date.UTC(2026, 10, 20, 12, 0, Math.floor(i / 2))),
      })),
    );
    await db.execute(sql`update messages set created_at = created_at + interval '123987 microseconds' where room_id = ${room.id} and id % 3 = 0`);

    const sign = (url: string | null, company: number) => mediaUrlForCompany(storage, url, company);
    // The rows olderMessages reads (its conditions: before an id, and before a time when one is given), through drizzle.
    const rowsOf = async (includeNotes: boolean, before: { id?: number; at?: Date } = {}) => {
      const conditions = [eq(messages.roomId, room.id)];
      if (!includeNotes) conditions.push(ne(messages.origin, 'note'));
      if (before.id !== undefined) conditions.push(lt(messages.id, before.id));
      if (before.at !== undefined) conditions.push(lt(messages.createdAt, before.at));
      return db.select().from(messages).where(and(...conditions)).orderBy(desc(messages.createdAt), desc(messages.id)).limit(CHAT_PAGE_SIZE + 1);
    };
    const expected = (rows: MessageRow[]) => ({ messages: rows.slice(0, CHAT_PAGE_SIZE).reverse().map((row) => toMessage(row, sign)), has_more: rows.length > CHAT_PAGE_SIZE });
    const chats = chatService(t.app);
    const record = { id: room.id, companyId };

    for (const notes of [false, true]) {
      const newest = await chats.olderMessages(record, {}, notes);
      const expectedNewest = expected(await rowsOf(notes));
      expect(JSON.stringify(newest)).toBe(JSON.stringify(expectedNewest));
      expect(newest.has_more).toBe(true);
      expect(newest.messages.some((m) => m.private)).toBe(notes);
      expect(newest.messages.filter((m) => m.type === 'document').every((m) => /\?exp=\d+&sig=[0-9a-f]{64}$/.test(m.media_url!))).toBe(true);

      // The page before the oldest shown, by its id, and by its id and time.
      const oldest = (await db.select().from(messages).where(eq(messages.id, newest.messages[0].id)))[0];
      const byId = await chats.olderMessages(record, { id: oldest.id }, notes);
      expect(JSON.stringify(byId)).toBe(JSON.stringify(expected(await rowsOf(notes, { id: oldest.id }))));
      const byTime = await chats.olderMessages(record, { id: oldest.id, timestamp: oldest.createdAt.toISOString() }, notes);
      expect(JSON.stringify(byTime)).toBe(JSON.stringify(expected(await rowsOf(notes, { id: oldest.id, at: oldest.createdAt }))));
      expect(byTime.messages.length).toBeGreaterThan(0);
    }

    // A join opens the room with its newest page (by id), as toMessage writes them.
    const userId = await t.seed.user({ email: 'opener@pages.test' });
    await t.seed.member(companyId, userId, 'admin');
    const actor: ChatActor = { userId, email: 'opener@pages.test', name: 'Opener', companyId, role: 'admin' };
    const opened = await chats.openRoom(actor, (await chats.roomRecord(room.id))!, null);
    const newestById = await db.select().from(messages).where(and(eq(messages.roomId, room.id), ne(messages.origin, 'note'))).orderBy(desc(messages.id)).limit(CHAT_PAGE_SIZE);
    expect(JSON.stringify(opened.room.messages)).toBe(JSON.stringify(newestById.reverse().map((row) => toMessage(row, sign))));
    const withNotes = await chats.openRoom(actor, (await chats.roomRecord(room.id))!, null, true);
    const allById = await db.select().from(messages).where(eq(messages.roomId, room.id)).orderBy(asc(messages.id));
    expect(JSON.stringify(withNotes.room.messages)).toBe(JSON.stringify(allById.slice(-CHAT_PAGE_SIZE).map((row) => toMessage(row, sign))));
  });
});
