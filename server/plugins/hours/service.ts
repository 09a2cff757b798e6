/**
 * Business hours and the away message (issue #22, contract/businessHours.ts). The away message is the
 * inbound pipeline's last handler (order 300, after flows 100 and bots 200: a message they answer never
 * reaches it). Outside the hours, the room's key for the closed period (room, period) is claimed with
 * one INSERT … ON CONFLICT DO NOTHING before sending, so a room gets one away message per closed period
 * whichever process runs its messages; the message is the room's bot message `away:{period}`.
 */
import { eq } from 'drizzle-orm';
import { defaultBusinessHours, hoursAt, type BusinessHours, type BusinessHoursBody } from '../../../contract/businessHours';
import type { Message } from '../../../contract/chats';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import type { ChatService, InboundOutcome, RoomRecord } from '../chats';
import { awayMessagesSent, businessHours } from './schema';

/** The away message's sender name (the inbox shows it as the bot's). */
export const AWAY_SENDER = 'Away message';

export class HoursService {
  constructor(private readonly deps: { db: Database; clock: Clock; chats: ChatService }) {}

  /** The company's hours (the defaults, off, until saved). */
  async get(companyId: number): Promise<BusinessHours> {
    const [row] = await this.deps.db.select().from(businessHours).where(eq(businessHours.companyId, companyId));
    const hours = row ? { enabled: row.enabled, time_zone: row.timeZone, days: row.days, away_message: row.awayMessage } : defaultBusinessHours();
    return { ...hours, open_now: hours.enabled && hoursAt(hours, this.deps.clock.now()).open };
  }

  async save(companyId: number, body: BusinessHoursBody): Promise<BusinessHours> {
    const values = { enabled: body.enabled, timeZone: body.time_zone, days: body.days, awayMessage: body.away_message, updatedAt: this.deps.clock.now() };
    await this.deps.db
      .insert(businessHours)
      .values({ companyId, ...values })
      .onConflictDoUpdate({ target: businessHours.companyId, set: values });
    return this.get(companyId);
  }

  /** The pipeline's handler: outside the hours, the away message once per room per closed period. */
  async answer(room: RoomRecord, message: Message): Promise<InboundOutcome> {
    const [row] = await this.deps.db.select().from(businessHours).where(eq(businessHours.companyId, room.companyId));
    if (!row?.enabled || !row.awayMessage.trim()) return 'passed';
    const { open, period } = hoursAt({ time_zone: row.timeZone, days: row.days }, new Date(message.created_at));
    if (open || !period) return 'passed';
    const [claimed] = await this.deps.db
      .insert(awayMessagesSent)
      .values({ roomId: room.id, period, companyId: room.companyId, messageId: message.id, createdAt: this.deps.clock.now() })
      .onConflictDoNothing()
      .returning({ roomId: awayMessagesSent.roomId });
    if (!claimed) return 'passed';
    await this.deps.chats.sendBotMessage(room, { type: 'text', text: row.awayMessage, client_id: `away:${period}`, sender_name: AWAY_SENDER });
    return 'handled';
  }
}
