/**
 * Every room belongs to a contact. A room without one is matched to the company's contact with the same
 * phone (a WhatsApp customer's number: the same number on two WhatsApp numbers of the company is one
 * contact) or the same id on the same channel, else gets a new contact made from the room.
 *
 * The migration that adds the contacts runs these same statements over every room (its SQL file holds
 * them verbatim, without the scope: keep the two in step, ./linking.test.ts runs both); at run time the
 * inbound pipeline runs them for one room, and opening a room's contact for that room.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../core/db/client';

/** The phone a room's customer id gives: WhatsApp ids are phone numbers (digits of E.164), and so are the sandbox's when written with '+' (the simulator stands in for WhatsApp). */
const roomPhone = sql.raw(`CASE WHEN (c.platform = 'whatsapp' AND r.external_id ~ '^\\+?[0-9]{7,15}$') OR (c.platform = 'sandbox' AND r.external_id ~ '^\\+[0-9]{7,15}$') THEN '+' || ltrim(r.external_id, '+') END`);

/** Rooms (alias r, their channel c) in scope that no contact has yet. */
const unlinkedRooms = (scope: SQL) => sql`
  SELECT r.id AS room_id, r.company_id, r.channel_id, r.external_id, r.name, r.created_at, c.platform, ${roomPhone} AS phone
  FROM rooms r JOIN channels c ON c.id = r.channel_id
  WHERE NOT EXISTS (SELECT 1 FROM contact_rooms cr WHERE cr.room_id = r.id) AND ${scope}`;

/** The same customer: same phone, or same id on the same channel (u: an unlinked room, k: a contact). */
const sameCustomer = sql.raw(`k.company_id = u.company_id AND ((u.phone IS NOT NULL AND k.phone = u.phone) OR (k.page_id = u.channel_id AND k.external_id = u.external_id))`);

/** The three statements, in order: new contacts for unknown customers, the links, the contacts' newest activity. */
export function linkStatements(scope: SQL): SQL[] {
  return [
    sql`
      INSERT INTO contacts (company_id, name, phone, external_id, page_id, platform, created_at)
      SELECT DISTINCT ON (u.company_id, coalesce(u.phone, u.channel_id::text || ':' || u.external_id))
        u.company_id, u.name, u.phone, u.external_id, u.channel_id, u.platform, u.created_at
      FROM (${unlinkedRooms(scope)}) u
      WHERE NOT EXISTS (SELECT 1 FROM contacts k WHERE ${sameCustomer})
      ORDER BY u.company_id, coalesce(u.phone, u.channel_id::text || ':' || u.external_id), u.created_at, u.room_id
      ON CONFLICT DO NOTHING`,
    sql`
      INSERT INTO contact_rooms (room_id, contact_id)
      SELECT u.room_id, m.id
      FROM (${unlinkedRooms(scope)}) u
      JOIN LATERAL (
        SELECT k.id FROM contacts k WHERE ${sameCustomer}
        ORDER BY coalesce(k.page_id = u.channel_id AND k.external_id = u.external_id, false) DESC, k.id LIMIT 1
      ) m ON true
      ON CONFLICT DO NOTHING`,
    sql`
      UPDATE contacts k SET last_message_at = latest.at
      FROM (
        SELECT cr.contact_id, max(r.last_message_at) AS at
        FROM contact_rooms cr JOIN rooms r ON r.id = cr.room_id
        WHERE cr.contact_id IN (SELECT cr2.contact_id FROM contact_rooms cr2 JOIN rooms r ON r.id = cr2.room_id WHERE ${scope})
        GROUP BY cr.contact_id
      ) latest
      WHERE k.id = latest.contact_id AND latest.at IS NOT NULL AND (k.last_message_at IS NULL OR k.last_message_at < latest.at)`,
  ];
}

/** Links the rooms in scope (an SQL condition on the room `r`) to their contacts. */
export async function linkRooms(db: Pick<Database, 'execute'>, scope: SQL): Promise<void> {
  for (const statement of linkStatements(scope)) await db.execute(statement);
}

/** One room's contact: linked (and made) when it has none; its newest activity brought up to date. */
export async function linkRoom(db: Database, roomId: number): Promise<number | null> {
  await linkRooms(db, sql`r.id = ${roomId}`);
  const result = (await db.execute(sql`SELECT contact_id FROM contact_rooms WHERE room_id = ${roomId}`)) as unknown as { rows: { contact_id: number }[] };
  return result.rows[0]?.contact_id ?? null;
}
