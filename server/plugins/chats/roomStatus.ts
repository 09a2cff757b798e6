/**
 * A room's status (issue #22): open, pending (waiting on the customer), snoozed until a time, or
 * resolved. A customer message re-opens a resolved, snoozed or pending room; a bot's or flow's hand-over
 * opens it for a person; a snooze ends by itself at snoozed_until.
 *
 * Snoozes end through a BackgroundJob (server/core/jobs/backgroundJob.ts): each pass is one idempotent
 * UPDATE … WHERE status = 'snoozed' AND snoozed_until <= now (the app's clock) RETURNING the rooms it
 * opened, so with several processes (or after a restart: nothing is kept in memory) each room is
 * opened, and its change pushed, by exactly one pass.
 */
import { and, eq, inArray, lte, ne, sql } from 'drizzle-orm';
import { SNOOZE_IN_PAST_MESSAGE, type RoomStatus, type RoomUpdateBody } from '../../../contract/conversations';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { BackgroundJob, type JobLogger } from '../../core/jobs/backgroundJob';
import { rooms } from '../../core/db/schema';
import { ChatError } from './chatError';
import type { RoomAssignments } from './assignment';
import type { RoomRecord } from './views';

/** How often a process looks for snoozes that ended (a snooze ends at most this late). */
export const SNOOZE_PASS_INTERVAL_MS = 15_000;

export interface RoomStatusDeps {
  db: Database;
  clock: Clock;
  assignments: RoomAssignments;
  /** Pushes the room's change as room_info on room:{id} and page:{channel}. */
  announce(roomId: number): Promise<void>;
  /** The room was resolved by this update (not already resolved): the CSAT question (./csat.ts). */
  resolved?(roomId: number): Promise<void>;
  log?: JobLogger;
}

export class RoomStatuses {
  /** Time between the snooze job's passes, read when it starts (tests may change it first). */
  snoozeIntervalMs = SNOOZE_PASS_INTERVAL_MS;
  readonly snoozeJob: BackgroundJob;

  constructor(private readonly deps: RoomStatusDeps) {
    this.snoozeJob = new BackgroundJob({
      run: () => this.endSnoozes(),
      intervalMs: () => this.snoozeIntervalMs,
      whileRunning: 'skip',
      log: deps.log,
      failureMessage: 'ending snoozed rooms',
    });
  }

  /**
   * PATCH /api/rooms/{id}/: status, snooze and assignee, checked in full before anything is written,
   * then pushed once. Returns nothing: the caller reads the room back.
   */
  async update(room: RoomRecord, body: RoomUpdateBody, byUserId: number | null = null): Promise<void> {
    let next: { status: RoomStatus; snoozedUntil: Date | null } | null = null;
    if (body.status !== undefined) {
      next = { status: body.status, snoozedUntil: body.status === 'snoozed' && body.snoozed_until ? new Date(body.snoozed_until) : null };
    } else if (body.snoozed_until) {
      next = { status: 'snoozed', snoozedUntil: new Date(body.snoozed_until) };
    } else if (body.snoozed_until === null && room.status === 'snoozed') {
      next = { status: 'open', snoozedUntil: null };
    }
    if (next?.snoozedUntil && next.snoozedUntil.getTime() <= this.deps.clock.now().getTime()) {
      throw new ChatError('invalid payload', { snoozed_until: [SNOOZE_IN_PAST_MESSAGE] });
    }
    const assignee = body.assignee_id === undefined ? undefined : await this.deps.assignments.checkAssignee(room.companyId, body.assignee_id);
    if (assignee !== undefined) await this.deps.assignments.assign(room, assignee, byUserId);
    let resolvedNow = false;
    if (next?.status === 'resolved') {
      // Conditional: of two updates at once (or a room already resolved), one resolves it, and one question is sent.
      const changed = await this.deps.db
        .update(rooms)
        .set(next)
        .where(and(eq(rooms.id, room.id), ne(rooms.status, 'resolved')))
        .returning({ id: rooms.id });
      resolvedNow = changed.length > 0;
    } else if (next) {
      await this.deps.db.update(rooms).set(next).where(eq(rooms.id, room.id));
    }
    await this.deps.announce(room.id);
    if (resolvedNow) await this.deps.resolved?.(room.id);
  }

  /** Opens the room if its status is one of `from`; pushes the change. True when it changed. */
  private async openIf(roomId: number, from: RoomStatus[]): Promise<boolean> {
    const changed = await this.deps.db
      .update(rooms)
      .set({ status: 'open', snoozedUntil: null })
      .where(and(eq(rooms.id, roomId), inArray(rooms.status, from)))
      .returning({ id: rooms.id });
    if (changed.length === 0) return false;
    await this.deps.announce(roomId);
    return true;
  }

  /** A customer wrote: a resolved or snoozed room opens again, and so does a pending one (the wait on the customer is over). */
  reopenOnCustomerMessage(roomId: number): Promise<boolean> {
    return this.openIf(roomId, ['resolved', 'snoozed', 'pending']);
  }

  /** A bot or flow handed the conversation over to a person. */
  openForPerson(roomId: number): Promise<boolean> {
    return this.openIf(roomId, ['resolved', 'snoozed', 'pending']);
  }

  /** One pass of the snooze job: every snooze that ended opens its room (once, whichever process runs it). Returns the rooms opened. */
  async endSnoozes(): Promise<number[]> {
    const now = this.deps.clock.now();
    const opened = await this.deps.db
      .update(rooms)
      .set({ status: 'open', snoozedUntil: null })
      .where(and(eq(rooms.status, 'snoozed'), lte(rooms.snoozedUntil, sql`${now.toISOString()}::timestamptz`)))
      .returning({ id: rooms.id });
    const ids = opened.map((r) => r.id).sort((a, b) => a - b);
    for (const id of ids) await this.deps.announce(id);
    return ids;
  }
}
