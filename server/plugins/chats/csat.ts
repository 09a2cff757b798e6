/**
 * Customer satisfaction (issue #22, contract/csat.ts): off by default, on per channel. When a room of
 * such a channel is resolved (the PATCH that changes its status to resolved: one conditional UPDATE, so
 * two requests at once resolve it once), a question is opened (csat_requests) and sent as the room's
 * bot message `csat:{request}` (stored idempotently on that client id). The customer's next message
 * closes the question: a rating 1–5 within the window is stored (csat_responses, one per question) in
 * the transaction that stores the message, and that message is not queued for the inbound pipeline,
 * so it never re-opens the room nor reaches flows or bots; any other reply goes on as usual.
 */
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import { CSAT_CHOICES, CSAT_QUESTION, CSAT_WINDOW_HOURS, ratingOfReply, type CsatSetting } from '../../../contract/csat';
import type { Platform } from '../../../contract/chats';
import type { Clock } from '../../core/clock';
import type { Database, Tx } from '../../core/db/client';
import { channels, rooms } from '../../core/db/schema';
import { notFound } from '../../core/errors';
import { csatChannels, csatRequests, csatResponses } from './schema';


/** The platforms whose messages offer choices (buttons, a list, quick replies); elsewhere the question is plain text. */
export const CHOICE_PLATFORMS: readonly Platform[] = ['whatsapp', 'messenger', 'instagram', 'sandbox'];

/** The question as the room's bot message: choices where the channel offers them. */
export function csatQuestion(platform: Platform): { type: 'interactive' | 'text'; text: string; data: Record<string, unknown> | null } {
  if (CHOICE_PLATFORMS.includes(platform)) return { type: 'interactive', text: CSAT_QUESTION, data: { buttons: CSAT_CHOICES, csat: 'question' } };
  return { type: 'text', text: CSAT_QUESTION, data: { csat: 'question' } };
}

/** The question's sender name (the inbox shows it as the bot's). */
export const CSAT_SENDER = 'Satisfaction survey';

export interface CsatRating {
  requestId: number;
  rating: number;
}

export class Csat {
  /** How long a question waits for its rating. */
  windowMs = CSAT_WINDOW_HOURS * 3_600_000;

  constructor(private readonly deps: { db: Database; clock: Clock }) {}

  async settings(companyId: number): Promise<CsatSetting[]> {
    return this.deps.db
      .select({ channel_id: csatChannels.channelId, enabled: csatChannels.enabled })
      .from(csatChannels)
      .where(and(eq(csatChannels.companyId, companyId), eq(csatChannels.enabled, true)))
      .orderBy(asc(csatChannels.channelId));
  }

  /** Turns the channel's CSAT on or off (another company's channel: 404). */
  async setEnabled(companyId: number, channelId: number, enabled: boolean): Promise<CsatSetting> {
    const [channel] = await this.deps.db
      .select({ id: channels.id })
      .from(channels)
      .where(and(eq(channels.id, channelId), eq(channels.companyId, companyId)));
    if (!channel) throw notFound();
    await this.deps.db
      .insert(csatChannels)
      .values({ channelId, companyId, enabled })
      .onConflictDoUpdate({ target: csatChannels.channelId, set: { enabled, updatedAt: sql`now()` } });
    return { channel_id: channelId, enabled };
  }

  /**
   * The room was just resolved: when its channel asks for ratings, the room's previous question is
   * closed and a new one opened, for the room's assignee. Returns the question's id (null: CSAT off).
   */
  async opened(roomId: number): Promise<number | null> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction(async (tx) => {
      const [room] = await tx
        .select({ id: rooms.id, companyId: rooms.companyId, assignee: rooms.assigneeUserId, enabled: csatChannels.enabled })
        .from(rooms)
        .innerJoin(csatChannels, eq(csatChannels.channelId, rooms.channelId))
        .where(eq(rooms.id, roomId));
      if (!room?.enabled) return null;
      await tx
        .update(csatRequests)
        .set({ closedAt: now })
        .where(and(eq(csatRequests.roomId, roomId), isNull(csatRequests.closedAt)));
      const [request] = await tx
        .insert(csatRequests)
        .values({ companyId: room.companyId, roomId, agentUserId: room.assignee, createdAt: now, expiresAt: new Date(now.getTime() + this.windowMs) })
        .returning({ id: csatRequests.id });
      return request.id;
    });
  }

  /**
   * In the transaction storing a customer's message (after the room's row is locked): the room's open
   * question, if any and not expired, is closed by this message; a rating is stored. Returns the rating, or null.
   */
  async takeReply(
    tx: Tx,
    room: { id: number; companyId: number },
    message: { id: number; type: string; text: string | null; data: Record<string, unknown> | null; createdAt: Date },
  ): Promise<CsatRating | null> {
    const [open] = await tx
      .select({ id: csatRequests.id, agentUserId: csatRequests.agentUserId })
      .from(csatRequests)
      .where(and(eq(csatRequests.roomId, room.id), isNull(csatRequests.closedAt), gt(csatRequests.expiresAt, message.createdAt)))
      .orderBy(asc(csatRequests.id))
      .limit(1);
    if (!open) return null;
    await tx.update(csatRequests).set({ closedAt: message.createdAt }).where(eq(csatRequests.id, open.id));
    const rating = ratingOfReply(message);
    if (rating === null) return null;
    const [stored] = await tx
      .insert(csatResponses)
      .values({ companyId: room.companyId, roomId: room.id, requestId: open.id, rating, agentUserId: open.agentUserId, messageId: message.id, createdAt: message.createdAt })
      .onConflictDoNothing()
      .returning({ id: csatResponses.id });
    return stored ? { requestId: open.id, rating } : null;
  }
}
