/** A row as one JSON value (rowJson.ts) reads back as the object drizzle maps from the same row, on each database. */
import { eq, sql } from 'drizzle-orm';
import { pgTable, numeric, serial } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, createTestApp, type TestApp } from '../../testing/testApp';
import { channels, messages, rooms } from './schema';
import { columnsJson, rowJson } from './rowJson';

describeEachDatabase('rowJson', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database });
  });
  afterAll(async () => t.close());

  it("reads a message row as drizzle maps it: every column, nulls, JSON data, and the timestamps' instants to the millisecond", async () => {
    const db = t.app.services.get('Database');
    const companyId = await t.seed.company('Row Co');
    const [channel] = await db.insert(channels).values({ companyId, platform: 'sandbox', name: 'Sandbox', externalId: 'sb-1' }).returning();
    const [room] = await db.insert(rooms).values({ companyId, channelId: channel.id, externalId: 'c-1', name: 'Ada' }).returning();
    await db.insert(messages).values([
      { companyId, roomId: room.id, origin: 'user', text: 'plain', createdAt: new Date('2026-11-20T19:11:00.123Z') },
      {
        companyId,
        roomId: room.id,
        origin: 'agent',
        type: 'image',
        text: null,
        mediaUrl: 'https://example.test/a.png',
        data: { nested: { list: [1, 'two', null] }, quote: 'l\'"é' },
        status: 'sent',
        clientId: 'client-1',
        deliveryLeaseUntil: new Date('2026-11-21T00:00:00.999Z'),
      },
    ]);
    // Microseconds, which neither a Date nor drizzle keeps: cut to the millisecond as drizzle's date is.
    await db.execute(sql`insert into messages (company_id, room_id, origin, text, created_at) values (${companyId}, ${room.id}, 'user', 'micro', '2026-11-20 19:11:00.123987')`);
    const json = rowJson(messages, 'm');
    const rows = (await db.execute(sql`select ${json.select} as row from messages m where m.room_id = ${room.id} order by m.id`)) as unknown as { rows: { row: Record<string, unknown> }[] };
    const mapped = await db.select().from(messages).where(eq(messages.roomId, room.id)).orderBy(messages.id);
    expect(rows.rows.map((r) => json.read(r.row))).toEqual(mapped);
    expect(mapped[0].createdAt.toISOString()).toBe('2026-11-20T19:11:00.123Z');
    expect(mapped[2].createdAt.toISOString()).toBe('2026-11-20T19:11:00.123Z');
    expect(json.read(null)).toBeNull();
  });

  it('reads chosen columns of a CTE by their column names, a joined table\'s among them, as drizzle maps them', async () => {
    const db = t.app.services.get('Database');
    const companyId = await t.seed.company('Cte Co');
    const [channel] = await db.insert(channels).values({ companyId, platform: 'whatsapp', name: 'WA', externalId: 'wa-1' }).returning();
    await db.insert(rooms).values([
      { companyId, channelId: channel.id, externalId: 'c-1', name: 'Ada', lastMessageAt: new Date('2026-11-20T19:11:00.5Z') },
      { companyId, channelId: channel.id, externalId: 'c-2', name: 'Grace' },
    ]);
    const selection = { id: rooms.id, name: rooms.name, lastMessageAt: rooms.lastMessageAt, snoozedUntil: rooms.snoozedUntil, platform: channels.platform };
    const page = db.$with('page').as(db.select(selection).from(rooms).innerJoin(channels, eq(channels.id, rooms.channelId)).where(eq(rooms.companyId, companyId)));
    const json = columnsJson(selection, 'page');
    const rows = await db.with(page).select({ id: page.id, record: sql<Record<string, unknown>>`${json.select}` }).from(page).orderBy(page.id);
    const mapped = await db.select(selection).from(rooms).innerJoin(channels, eq(channels.id, rooms.channelId)).where(eq(rooms.companyId, companyId)).orderBy(rooms.id);
    expect(rows.map((r) => json.read(r.record))).toEqual(mapped);
    expect(mapped[0].lastMessageAt?.toISOString()).toBe('2026-11-20T19:11:00.500Z');
  });
});

describe('rowJson refuses a column whose JSON is not drizzle value', () => {
  it('a numeric (drizzle gives a string, JSON a number) fails when the statement is built', () => {
    const priced = pgTable('priced', { id: serial('id').primaryKey(), amount: numeric('amount') });
    expect(() => rowJson(priced, 'p')).toThrow(/amount is a PgNumeric/);
  });
});
