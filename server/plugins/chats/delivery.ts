/**
 * Outgoing messages' delivery (the chat service's, split out): hands a pending message to its
 * platform's provider, retries retryable refusals with back-off, and resumes what a restart or a dead
 * process left pending. Which process delivers a message is decided in the database, not in memory
 * (issue #21): the message's row carries a lease (`delivery_holder`, `delivery_lease_until`), taken when
 * the message is stored and claimed again before each attempt; a retry's lease covers its wait; the
 * resume pass (at start, then periodically, in every process) takes only messages whose lease ran out.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lt, lte, ne, or } from 'drizzle-orm';
import type { DeliveryStatus, Message, Platform } from '../../../contract/chats';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { channels, messages, rooms } from '../../core/db/schema';
import { BackgroundJob, backoffDelay, KeyedJobs } from '../../core/jobs/backgroundJob';
import { GraphApiError } from '../../providers/meta/types';
import type { MessageRow, RoomRecord } from './views';

/** Rate limits and temporary outages (GraphApiError.retryable): the message stays pending and is tried again later. */
export function isRetryableSendError(err: unknown): boolean {
  return err instanceof GraphApiError ? err.retryable : !!err && typeof err === 'object' && (err as { retryable?: unknown }).retryable === true;
}

/** The outbound side of a channel (sandbox, WhatsApp Cloud API, Messenger…). */
export interface ChannelProvider {
  /**
   * Hands one outgoing message to the channel. Resolves with the provider's message id (and
   * `delivered` when the channel confirms delivery at once); throws when the channel refuses it.
   */
  send(room: RoomRecord, message: Message): Promise<{ external_id: string; status?: 'sent' | 'delivered' }>;
}

export interface DeliveryDeps {
  db: Database;
  clock: Clock;
  log?: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  /** The chat service's status move (forward only, announced). */
  applyStatus(messageId: number, status: DeliveryStatus, extra?: { error?: string; externalId?: string }): Promise<Message | null>;
  roomRecord(roomId: number): Promise<RoomRecord | null>;
  /** A stored message as it is handed out (a private attachment signed now). */
  message(row: MessageRow): Message;
}

export class OutboundDelivery {
  readonly providers = new Map<string, ChannelProvider>();
  /**
   * Deliveries by message id: being handed to a provider, or waiting for a retry, in this process.
   * Which process delivers a message is decided in the database: each attempt first claims it (claimDelivery).
   */
  private readonly deliveries: KeyedJobs<number>;
  /** This process's (this app's) name on the deliveries it leases. */
  readonly holder = randomUUID();
  /** Retryable send errors: the next attempt waits firstMs, doubling up to maxMs (never dropped). */
  backoff = { firstMs: 5_000, maxMs: 5 * 60_000 };
  /**
   * How long a claimed send attempt keeps the message (a retry's wait comes on top). Longer than a
   * provider's send with its in-process retries (Graph: 15 s per request): a live attempt is never
   * taken over, and a dead process's message is resumed this long after its last claim.
   */
  leaseMs = 120_000;
  /** Time between the passes resuming pending messages whose lease ran out (read at start). */
  resumeMs = 30_000;
  /** The resume pass: at start, then every resumeMs, in every process. */
  private readonly resumeJob: BackgroundJob;

  constructor(private readonly deps: DeliveryDeps) {
    this.deliveries = new KeyedJobs({ log: deps.log, failureMessage: 'delivering a message', logFields: (messageId) => ({ messageId }) });
    this.resumeJob = new BackgroundJob({
      run: () => this.resumePending(),
      intervalMs: () => this.resumeMs,
      whileRunning: 'skip',
      log: deps.log,
      failureMessage: 'resuming pending deliveries',
    });
  }

  /** Resolves when the resume pass and the deliveries in progress have settled (scheduled retries are not waited for). */
  async settled(): Promise<void> {
    await this.resumeJob.settled();
    await this.deliveries.settled();
  }

  /** Start: the first resume pass, waited for (its deliveries are under way when the app is ready), then every resumeMs. */
  async start(): Promise<void> {
    this.resumeJob.start();
    await this.resumeJob.settled();
  }

  /**
   * Shutdown: no new retry is scheduled and the waiting ones are dropped; they stay pending and their
   * leases are let go, so the next start (or another process) takes them at once.
   */
  async close(): Promise<void> {
    this.resumeJob.stop();
    const dropped = this.deliveries.cancelScheduled();
    if (dropped.length === 0) return;
    try {
      await this.release(dropped);
    } catch (err) {
      this.deps.log?.error({ err }, 'releasing the deliveries at shutdown');
    }
  }

  /** Messages waiting for a retry in this process (tests). */
  get retriesScheduled(): number {
    return this.deliveries.waitingCount;
  }

  /**
   * Hands a pending message to its channel's provider in the background; statuses follow as
   * message_status. A retryable refusal (rate limit, outage) keeps it pending and tries again with
   * back-off; any other refusal marks it failed with the provider's message.
   */
  deliver(room: RoomRecord, message: Message, attempt = 0): void {
    void this.deliveries.run(message.id, () => this.attemptDelivery(room, message, attempt));
  }

  /** A new outgoing message is stored leased to this process: nobody else sends it before its first attempt. */
  newLease(): { deliveryHolder: string; deliveryLeaseUntil: Date } {
    return { deliveryHolder: this.holder, deliveryLeaseUntil: new Date(this.deps.clock.now().getTime() + this.leaseMs) };
  }

  /**
   * Claims a pending message's delivery for one attempt: it is this process's, or unleased, or its
   * lease ran out (the holder died). One statement, so two processes never both win: on PostgreSQL
   * the second waits for the first's row and re-checks the condition on it.
   */
  private async claimDelivery(messageId: number): Promise<boolean> {
    const now = this.deps.clock.now();
    const rows = await this.deps.db
      .update(messages)
      .set({ deliveryHolder: this.holder, deliveryLeaseUntil: new Date(now.getTime() + this.leaseMs) })
      .where(
        and(
          eq(messages.id, messageId),
          eq(messages.status, 'pending'),
          or(eq(messages.deliveryHolder, this.holder), isNull(messages.deliveryLeaseUntil), lte(messages.deliveryLeaseUntil, now)),
        ),
      )
      .returning({ id: messages.id });
    return rows.length > 0;
  }

  /** Lets this process's leases of these messages go (run out now): the next resume pass, here or elsewhere, takes them. */
  async release(messageIds: number[]): Promise<void> {
    await this.deps.db
      .update(messages)
      .set({ deliveryLeaseUntil: this.deps.clock.now() })
      .where(and(inArray(messages.id, messageIds), eq(messages.deliveryHolder, this.holder), eq(messages.status, 'pending')));
  }

  private async attemptDelivery(room: RoomRecord, message: Message, attempt: number): Promise<void> {
    // Sent or failed meanwhile, or another process's attempt or retry holds it (a live lease): not ours to send.
    if (!(await this.claimDelivery(message.id))) return;
    const provider = this.providers.get(room.platform);
    try {
      if (!provider) throw new Error(`No provider for the ${room.platform} channel.`);
      const result = await provider.send(room, message);
      await this.deps.applyStatus(message.id, 'sent', { externalId: result.external_id });
      if (result.status === 'delivered') await this.deps.applyStatus(message.id, 'delivered');
    } catch (err) {
      if (isRetryableSendError(err)) {
        if (this.deliveries.schedules) {
          await this.scheduleRetry(room.id, message.id, attempt, err instanceof GraphApiError ? err.retryAfterMs : null);
          this.deps.log?.warn({ err, messageId: message.id, attempt }, 'message delivery deferred');
        } else {
          // Shutting down: the message stays pending for the next start or another process.
          await this.release([message.id]).catch((e) => this.deps.log?.error({ err: e }, 'releasing a delivery'));
        }
        return;
      }
      const error = err instanceof Error ? err.message : String(err);
      await this.deps.applyStatus(message.id, 'failed', { error }).catch((e) => this.deps.log?.error({ err: e }, 'marking a message failed'));
    }
  }

  private async scheduleRetry(roomId: number, messageId: number, attempt: number, retryAfterMs: number | null): Promise<void> {
    // Meta's Retry-After, when given, is the earliest a retry makes sense.
    const delay = Math.max(backoffDelay(this.backoff, attempt), retryAfterMs ?? 0);
    // The lease covers the wait and the next attempt: no other process or restart sends it meanwhile.
    await this.deps.db
      .update(messages)
      .set({ deliveryLeaseUntil: new Date(this.deps.clock.now().getTime() + delay + this.leaseMs) })
      .where(and(eq(messages.id, messageId), eq(messages.deliveryHolder, this.holder)));
    this.deliveries.runAfter(messageId, delay, async () => {
      let row: MessageRow | undefined;
      let room: RoomRecord | null;
      try {
        [row] = await this.deps.db.select().from(messages).where(eq(messages.id, messageId));
        room = row?.status === 'pending' ? await this.deps.roomRecord(roomId) : null;
      } catch (err) {
        this.deps.log?.error({ err, messageId }, 'retrying a delivery');
        return;
      }
      // Sent or failed meanwhile (another process), or shutting down: nothing to retry here.
      if (!row || !room || !this.deliveries.schedules) return;
      await this.attemptDelivery(room, this.deps.message(row), attempt + 1);
    });
  }

  /**
   * The resume pass (at start and periodically): outgoing messages still pending whose lease ran out
   * (the process delivering them died, or let them go at shutdown) and whose platform has a provider
   * are handed to it again, each claimed before its send. A live lease (an attempt in flight, a retry
   * waiting in another process) is left alone; so is an unleased message younger than `olderThanMs`
   * (one stored without a lease, by an older version: its sender may be about to send it). Returns how
   * many were handed over.
   */
  async resumePending(olderThanMs = 10_000): Promise<number> {
    const platforms = [...this.providers.keys()] as Platform[];
    if (platforms.length === 0) return 0;
    const now = this.deps.clock.now();
    const before = new Date(now.getTime() - olderThanMs);
    const rows = await this.deps.db
      .select({ message: messages })
      .from(messages)
      .innerJoin(rooms, eq(rooms.id, messages.roomId))
      .innerJoin(channels, eq(channels.id, rooms.channelId))
      .where(
        and(
          eq(messages.status, 'pending'),
          ne(messages.origin, 'user'),
          or(lte(messages.deliveryLeaseUntil, now), and(isNull(messages.deliveryLeaseUntil), lt(messages.createdAt, before))),
          inArray(channels.platform, platforms),
        ),
      )
      .orderBy(asc(messages.id));
    let resumed = 0;
    for (const { message } of rows) {
      if (this.deliveries.has(message.id)) continue;
      const room = await this.deps.roomRecord(message.roomId);
      if (!room) continue;
      this.deliver(room, this.deps.message(message));
      resumed++;
    }
    return resumed;
  }
}
