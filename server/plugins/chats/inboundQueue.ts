/**
 * The inbound pipeline across processes (issue #21): a room's customer messages go through the
 * pipeline's handlers one at a time and in arrival (message id) order, whichever process stored them.
 *
 * - A customer's message is stored together with its row in `inbound_waiting` (one transaction,
 *   ChatService.receiveInbound), so a stored message always waits for the pipeline, and a replayed
 *   webhook (the message found stored) adds no second row: the pipeline runs once per message.
 * - One process at a time drains a room: the holder of the room's lease (`inbound_room_leases`,
 *   claimed with one INSERT … ON CONFLICT DO UPDATE … WHERE the lease has run out). It takes the
 *   room's waiting messages in id order, runs the handlers, deletes the row, and renews the lease
 *   before each message and periodically while a handler runs.
 * - A process that cannot get the lease leaves its message to the holder, which looks for new rows
 *   once more after letting the lease go (and takes the lease again if it finds some), so nothing is
 *   stranded between "the holder looked" and "the holder let go".
 * - A process killed mid-answer stops renewing: its lease runs out and the sweep (a BackgroundJob in
 *   every process) takes the rooms with waiting rows and no live lease, so another process answers.
 *
 * Why the order matters: the flows and bots runtimes take a message whose id is at or below the last
 * one they answered for a replay and skip it. Handled out of order (a later message first, in another
 * process), an earlier message was dropped that way. Ids within a room are handed out in commit order
 * (receiveInbound locks the room row before inserting), and the holder handles them in id order, so a
 * message is never older than the last one answered. On PGlite (one process) the same code runs; the
 * lease is then only ever contended by this process's own drains, which the in-process map keeps to one.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import type { Message } from '../../../contract/chats';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { BackgroundJob } from '../../core/jobs/backgroundJob';
import { inboundLeases, inboundWaiting } from './schema';
import type { RoomRecord } from './views';

export interface InboundQueueDeps {
  db: Database;
  clock: Clock;
  log?: { error(obj: unknown, msg?: string): void };
  /** The pipeline's ordered handlers for one message. */
  handle(room: RoomRecord, message: Message): Promise<void>;
  /** A waiting message as the handlers get it (its room as it is now); null when it is gone. */
  load(messageId: number): Promise<{ room: RoomRecord; message: Message } | null>;
}

interface Drain {
  again: boolean;
  done: Promise<void>;
}

export class InboundQueue {
  /** This process's (this app's) name on the leases it holds. */
  readonly holder = randomUUID();
  /** How long a lease lasts without renewal: a dead holder's rooms are taken over after this. */
  leaseMs = 60_000;
  /** Time between the sweeps (renewing this process's leases, taking over rooms left waiting); read at start. */
  sweepMs = 10_000;
  /** Rooms drained in this process: at most one drain per room at a time. */
  private readonly drains = new Map<number, Drain>();
  /** Rooms whose lease this process holds. */
  private readonly holding = new Set<number>();
  private readonly sweeper: BackgroundJob;
  private stopped = false;

  constructor(private readonly deps: InboundQueueDeps) {
    this.sweeper = new BackgroundJob({
      run: () => this.sweep(),
      intervalMs: () => this.sweepMs,
      whileRunning: 'skip',
      log: deps.log,
      failureMessage: 'inbound pipeline: sweeping the waiting messages',
    });
  }

  /**
   * A customer's message was stored (or replayed): drains the room if no other process does.
   * Resolves when this process has no more of the room's messages to handle (its own message included
   * when it got the lease; otherwise the holder handles it).
   */
  run(room: RoomRecord, _message: Message): Promise<void> {
    return this.kick(room.id);
  }

  /** Starts the sweep: a pass at once (rooms left waiting by a previous run), then every sweepMs. */
  start(): void {
    this.sweeper.start();
  }

  /** A sweep now, and the drains it started (tests: another process's lease ran out by the clock). */
  async sweepNow(): Promise<void> {
    await this.sweep();
    await this.settled();
  }

  /** Shutdown: no sweep or drain starts any more; waits for the drains in progress. What waits stays for the next start or another process. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.sweeper.stop();
    await this.sweeper.settled();
    await this.settled();
  }

  /** Resolves when no drain runs in this process. */
  async settled(): Promise<void> {
    while (this.drains.size > 0) await Promise.allSettled([...this.drains.values()].map((d) => d.done));
  }

  private kick(roomId: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const current = this.drains.get(roomId);
    if (current) {
      // A drain of the room runs here: it takes one more look once it is through.
      current.again = true;
      return current.done;
    }
    const drain: Drain = { again: false, done: Promise.resolve() };
    this.drains.set(roomId, drain);
    drain.done = (async () => {
      try {
        do {
          drain.again = false;
          await this.drain(roomId);
        } while (drain.again && !this.stopped);
      } finally {
        this.drains.delete(roomId);
      }
    })();
    return drain.done;
  }

  /** Handles the room's waiting messages in id order while this process holds the room's lease. Never throws. */
  private async drain(roomId: number): Promise<void> {
    try {
      if (!(await this.claim(roomId))) return; // another process drains the room; it looks again before letting go
      for (;;) {
        const [next] = await this.deps.db
          .select({ messageId: inboundWaiting.messageId })
          .from(inboundWaiting)
          .where(eq(inboundWaiting.roomId, roomId))
          .orderBy(asc(inboundWaiting.messageId))
          .limit(1);
        if (!next) {
          await this.release(roomId);
          // A message stored after that look, whose process found the room leased, was left to us.
          if (this.stopped || !(await this.waiting(roomId)) || !(await this.claim(roomId))) return;
          continue;
        }
        // Renewed before each message; false: the lease ran out (a handler outlived it) and another process took the room.
        if (!(await this.renew(roomId))) return;
        await this.handle(next.messageId);
      }
    } catch (err) {
      this.deps.log?.error({ err, roomId }, 'inbound pipeline: draining a room');
      // The lease is let go so that the sweep (here or elsewhere) tries the room again.
      await this.release(roomId).catch(() => {});
    }
  }

  private async handle(messageId: number): Promise<void> {
    try {
      const loaded = await this.deps.load(messageId);
      if (loaded) await this.deps.handle(loaded.room, loaded.message);
    } catch (err) {
      // A failing handler fails this message only: the room's next message still runs.
      this.deps.log?.error({ err, messageId }, 'after an inbound message');
    }
    await this.deps.db.delete(inboundWaiting).where(eq(inboundWaiting.messageId, messageId));
  }

  private leaseUntil(): Date {
    return new Date(this.deps.clock.now().getTime() + this.leaseMs);
  }

  /** Takes the room's lease when nobody holds it, its lease ran out, or this process holds it already. */
  private async claim(roomId: number): Promise<boolean> {
    const now = this.deps.clock.now();
    const until = this.leaseUntil();
    // On PostgreSQL a concurrent claim waits for this row and re-checks the condition on it, so one wins.
    const rows = await this.deps.db
      .insert(inboundLeases)
      .values({ roomId, holder: this.holder, leaseUntil: until })
      .onConflictDoUpdate({
        target: inboundLeases.roomId,
        set: { holder: this.holder, leaseUntil: until },
        setWhere: or(eq(inboundLeases.holder, this.holder), lte(inboundLeases.leaseUntil, now)),
      })
      .returning({ roomId: inboundLeases.roomId });
    if (rows.length === 0) return false;
    this.holding.add(roomId);
    return true;
  }

  private async renew(roomId: number): Promise<boolean> {
    const rows = await this.deps.db
      .update(inboundLeases)
      .set({ leaseUntil: this.leaseUntil() })
      .where(and(eq(inboundLeases.roomId, roomId), eq(inboundLeases.holder, this.holder)))
      .returning({ roomId: inboundLeases.roomId });
    if (rows.length === 0) this.holding.delete(roomId);
    return rows.length > 0;
  }

  private async release(roomId: number): Promise<void> {
    this.holding.delete(roomId);
    await this.deps.db.delete(inboundLeases).where(and(eq(inboundLeases.roomId, roomId), eq(inboundLeases.holder, this.holder)));
  }

  private async waiting(roomId: number): Promise<boolean> {
    const [row] = await this.deps.db.select({ messageId: inboundWaiting.messageId }).from(inboundWaiting).where(eq(inboundWaiting.roomId, roomId)).limit(1);
    return !!row;
  }

  /**
   * One sweep: renews the leases of the rooms this process is draining (a long handler keeps its room),
   * then drains the rooms with waiting messages and no live lease (a holder that died, a process that
   * stopped before its message ran).
   */
  private async sweep(): Promise<void> {
    if (this.holding.size > 0) {
      await this.deps.db
        .update(inboundLeases)
        .set({ leaseUntil: this.leaseUntil() })
        .where(and(eq(inboundLeases.holder, this.holder), inArray(inboundLeases.roomId, [...this.holding])));
    }
    const now = this.deps.clock.now();
    const rooms = await this.deps.db
      .selectDistinct({ roomId: inboundWaiting.roomId })
      .from(inboundWaiting)
      .leftJoin(inboundLeases, eq(inboundLeases.roomId, inboundWaiting.roomId))
      .where(or(isNull(inboundLeases.roomId), lte(inboundLeases.leaseUntil, now)))
      .limit(500);
    for (const { roomId } of rooms) void this.kick(roomId);
  }
}
