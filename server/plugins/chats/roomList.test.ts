/**
 * The room list's rooms as PostgreSQL writes them (roomQueries.ts `roomOfPageJson`, what fetch_rooms and GET
 * /api/rooms/ answer) are the rooms `toRoom` makes of the same rows (`roomSummaries`, what a room's pushes carry):
 * the same values, keys in the same order, on each database.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { channels, messages, roomReads, roomTags, rooms, tags } from '../../core/db/schema';
import { UNREAD_COUNT_LIMIT } from '../../../contract/chats';
import { chatService } from './index';
import type { ChatActor } from './service';

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

  it('counts a room\'s unread customer messages up to UNREAD_COUNT_LIMIT, in the list and in a room\'s own view', async () => {
    const db = t.db;
    const companyId = await t.seed.company('Unread Co');
    const adminId = await t.seed.user({ email: 'reader@unread.test', firstName: 'Rea' });
    await t.seed.member(companyId, adminId, 'admin');
    const [channel] = await db.insert(channels).values({ companyId, platform: 'whatsapp', name: 'WA', externalId: 'wa-unread' }).returning();
    const [flooded, under, partlyRead] = await db
      .insert(rooms)
      .values([
        { companyId, channelId: channel.id, externalId: 'flooded', name: 'Flooded' },
        { companyId, channelId: channel.id, externalId: 'under', name: 'Under' },
        { companyId, channelId: channel.id, externalId: 'partly', name: 'Partly read' },
      ])
      .returning();
    const customer = (roomId: number, n: number) => Array.from({ length: n }, (_, i) => ({ companyId, roomId, origin: 'user', text: `m${i}` }));
    await db.insert(messages).values([
      ...customer(flooded.id, UNREAD_COUNT_LIMIT + 5),
      // Replies and notes are never unread.
      { companyId, roomId: flooded.id, origin: 'agent', text: 'reply' },
      ...customer(under.id, UNREAD_COUNT_LIMIT - 1),
      { companyId, roomId: under.id, origin: 'note', text: 'note' },
    ]);
    const partly = await db.insert(messages).values(customer(partlyRead.id, UNREAD_COUNT_LIMIT + 10)).returning({ id: messages.id });
    // Read up to the third message from the end: three are left.
    await db.insert(roomReads).values({ roomId: partlyRead.id, userId: adminId, lastReadMessageId: partly[partly.length - 4].id });

    const chats = chatService(t.app);
    const actor: ChatActor = { userId: adminId, email: 'reader@unread.test', name: 'Rea', companyId, role: 'admin' };
    const listed = await chats.fetchRooms(actor, null, { search: '', page: 1 });
    const unreadOf = (rooms: { id: number; unread: number }[]) => Object.fromEntries(rooms.map((r) => [r.id, r.unread]));
    const expected = { [flooded.id]: UNREAD_COUNT_LIMIT, [under.id]: UNREAD_COUNT_LIMIT - 1, [partlyRead.id]: 3 };
    expect(unreadOf(listed)).toEqual(expected);
    const records = await Promise.all(listed.map(async (room) => (await chats.roomRecord(room.id))!));
    expect(unreadOf(await chats.roomSummaries(records, adminId))).toEqual(expected);
  });
});
