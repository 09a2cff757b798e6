/**
 * The sending engine: a durable claim loop over `broadcast_recipients` (the queue is the table).
 *
 * - A tick (every `tickMs`, and on every engine call) promotes due `scheduled` broadcasts and
 *   `waiting` ones whose limit window has moved, finds the channels with `sending` broadcasts and
 *   runs one loop per sending number in this process. Several processes may run: claims use
 *   FOR UPDATE SKIP LOCKED and the pacing counts live in a shared store (./pacer.ts).
 * - Per number, per slot of the pacer: take a grant, claim that many `queued` recipients of the
 *   number's `sending` broadcasts (oldest broadcast first), writing `sending`, `sending_at` and
 *   `attempts + 1` in the same statement (committed BEFORE any call: at most once), then call the
 *   Graph API for each, without waiting for the answers before the next slot.
 * - Answers are written in batches (one transaction per batch): the recipient's state and the
 *   broadcast's counters together, guarded by `state = 'sending'`.
 * - A recipient left in `sending` longer than `sendingLeaseMs` (its process died mid-call: longer
 *   than any call can take) becomes `unknown`: it may have been sent, so it is never sent again.
 * - A throttle (130429, HTTP 429…) holds the number's sends in every process: its end is written to the
 *   channel's `settings.broadcast_throttle_until` (epoch ms on the app clock, only ever moved later) and
 *   each number's loop reads it at most once a second (HOLD_CHECK_MS), so a back-off one process
 *   met stops the others' calls to that number within a second. The streak that lengthens consecutive
 *   back-offs stays per process.
 */
import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import { MESSAGING_LIMIT_TIERS, type RecipientState, type ResolvedVariables } from '../../../../contract/broadcasts';
import type { Clock } from '../../../core/clock';
import type { Database, Tx } from '../../../core/db/client';
import { prepared } from '../../../core/db/prepared';
import { rowsOf } from '../../../core/db/rows';
import { channels } from '../../../core/db/schema';
import type { MetaGraph, OutboundContent } from '../../../providers/meta/types';
import { templateOutbound } from '../audience/variables';
import { broadcasts, optOuts } from '../schema';
import { classifySendError, MAX_TRANSIENT_ATTEMPTS, PAIR_RATE_DELAY_MS, throttleBackoffMs, transientBackoffMs, type Classified } from './errors';
import { addDelta, deltaOf, isZero, ZERO_DELTA, type CounterDelta } from './funnel';
import { portfolioUsage, sendingNumberOf, DAY_MS, type SendingNumber } from './limits';
import { SLOTS_PER_SECOND, type SendPacer } from './pacer';

export interface WorkerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface WorkerDeps {
  db: Database;
  clock: Clock;
  pacer: SendPacer;
  graph: () => MetaGraph;
  /** The channel's decrypted token (null: none). */
  tokenOf: (row: { id: number; accessTokenEnc: string | null }) => string | null;
  log: WorkerLogger;
  /** A broadcast's counters or status changed (the progress publisher throttles). */
  changed: (broadcastId: number) => void;
  /** A media header stored as the company's private upload → a link Meta can fetch (signed); others unchanged. */
  mediaLink?: (storedUrl: string, companyId: number) => string;
  sleep?: (ms: number) => Promise<void>;
}

export interface WorkerTiming {
  /** How often a process with work in view (a broadcast sending, scheduled or waiting soon) looks again. */
  tickMs: number;
  /**
   * How often a process with nothing in view looks (for a broadcast another process started, or one left by a process
   * that died). A broadcast started here is looked at at once (`kick`), and a due time the last look saw wakes
   * the worker at that time, so an idle process asks the database a few statements every few seconds instead of four
   * a second.
   */
  idleTickMs: number;
  /** Results written at least this often. */
  flushMs: number;
  /** A `sending` recipient older than this was in flight in a process that died. */
  sendingLeaseMs: number;
  /** Calls in flight per number at most (besides the rate). */
  maxInFlight: number;
  /** Recipients claimed at once, in slots' worth: fewer statements at high rates; a crash leaves at most this many unknown besides those in flight. */
  claimSlots: number;
}

/** How often the watchdog looks, and how long one wait may last before it warns. */
const WATCHDOG_MS = 10_000;
const STUCK_MS = 30_000;

export const DEFAULT_TIMING: WorkerTiming = { tickMs: 500, idleTickMs: 5_000, flushMs: 100, sendingLeaseMs: 30_000, maxInFlight: 2_000, claimSlots: 5 };

interface Claimed {
  id: number;
  broadcastId: number;
  phone: string;
  variables: ResolvedVariables;
  attempts: number;
}

interface Outcome {
  id: number;
  broadcastId: number;
  phone: string;
  companyId: number;
  channelId: number;
  state: Extract<RecipientState, 'sent' | 'failed' | 'unknown' | 'queued'>;
  waMessageId?: string;
  errorCode?: number | null;
  errorTitle?: string | null;
  errorDetail?: string | null;
  nextAttemptAt?: Date | null;
  optOut?: boolean;
  /** When the call was made (the pacer's slot). */
  sentAt?: Date;
}

interface BroadcastInfo {
  id: number;
  companyId: number;
  templateName: string;
  templateLanguage: string;
  templateComponents: unknown[];
  headerMediaUrl: string | null;
}

/** How often a number's loop reads the back-off other processes may have written for it. */
export const HOLD_CHECK_MS = 1_000;
const HOLD_SETTING = 'broadcast_throttle_until';

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Meta's `to`: the E.164 digits. */
export function waIdOf(phone: string): string {
  return phone.replace(/\D/g, '');
}

export class BroadcastWorker {
  timing: WorkerTiming = { ...DEFAULT_TIMING };
  private readonly loops = new Map<number, Promise<void>>();
  private readonly pending: Outcome[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private flushing: Promise<void> | null = null;
  private tickTimer: ReturnType<typeof setTimeout> | null = null;
  /** When the next look is due after this tick (ms from its end), decided by what it saw. */
  private nextTickMs = 0;
  private ticking: Promise<void> | null = null;
  private stopped = false;
  private started = false;
  /** A kick came while a tick ran (it may not have seen what the kick was for): look again at once. */
  private kickedWhileTicking = false;
  private lastExpiry = 0;
  /** Recipients this process claimed and has not written a result for yet. */
  private readonly mine = new Set<number>();
  private readonly sleep: (ms: number) => Promise<void>;
  /** Per number: no call before this time (130429 back-off), and the streak of throttles. */
  private readonly throttled = new Map<number, { until: number; streak: number }>();
  /** What the tick and each number's loop are doing, since when (the watchdog's warnings say where the engine stands). */
  private readonly phases = new Map<string, { phase: string; since: number }>();
  private watchdogTimer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly deps: WorkerDeps) {
    this.sleep = deps.sleep ?? realSleep;
  }

  private get db() {
    return this.deps.db;
  }

  private now(): Date {
    return this.deps.clock.now();
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.kick();
    this.watchdogTimer = setInterval(() => this.watchdog(), WATCHDOG_MS);
    this.watchdogTimer.unref?.();
  }

  /** Marks what `who` (the tick, or a number's loop) waits on now. */
  private phase(who: string, phase: string | null): void {
    if (phase === null) this.phases.delete(who);
    else this.phases.set(who, { phase, since: Date.now() });
  }

  /** Warns when the tick or a loop has waited on one thing far longer than it should (wall clock, not the test clock). */
  watchdog(now = Date.now()): string[] {
    const stuck: string[] = [];
    for (const [who, { phase, since }] of this.phases) {
      const seconds = Math.round((now - since) / 1000);
      // A loop sleeping through a throttle back-off may legitimately wait up to a minute.
      if (seconds * 1000 >= (phase === 'throttled' ? 90_000 : STUCK_MS)) stuck.push(`${who}: ${phase} for ${seconds} s`);
    }
    if (stuck.length) this.deps.log.warn({ stuck, loops: [...this.loops.keys()], inFlight: this.inFlight.size, pending: this.pending.length }, 'broadcasts: the engine waits longer than expected');
    return stuck;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.tickTimer) clearTimeout(this.tickTimer);
    this.tickTimer = null;
    if (this.watchdogTimer) clearInterval(this.watchdogTimer);
    this.watchdogTimer = null;
    await this.ticking;
    await Promise.all(this.loops.values());
    await Promise.all(this.inFlight);
    await this.flush();
  }

  /** Looks for work now (coalesced with a tick in progress). */
  kick(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.kickedWhileTicking = true;
      return;
    }
    this.ticking = this.tick()
      .catch((err) => this.deps.log.error({ err }, 'broadcasts: engine tick'))
      .finally(() => {
        this.phase('tick', null);
        this.ticking = null;
        if (this.kickedWhileTicking) {
          this.kickedWhileTicking = false;
          this.nextTickMs = 0;
        }
        this.scheduleTick();
      });
  }

  /** The next look, once `start` ran: soon with work in view, at the next due time or the idle cadence without. */
  private scheduleTick(): void {
    if (!this.started || this.stopped) return;
    if (this.tickTimer) clearTimeout(this.tickTimer);
    this.tickTimer = setTimeout(() => {
      this.tickTimer = null;
      this.kick();
    }, this.nextTickMs);
    this.tickTimer.unref?.();
  }

  /** Resolves when no loop runs and every answer is written (tests). */
  async idle(): Promise<void> {
    for (;;) {
      await this.ticking;
      await Promise.all(this.loops.values());
      await Promise.all(this.inFlight);
      await this.flush();
      if (!this.ticking && this.loops.size === 0 && this.inFlight.size === 0 && this.pending.length === 0) return;
    }
  }

  /** One pass: orphaned calls → unknown, due broadcasts promoted, a loop per number with work. */
  async tick(): Promise<void> {
    const now = this.now();
    // A tick that fails is tried again soon.
    this.nextTickMs = this.timing.tickMs;
    // A scan of the sending rows: every few seconds is enough for a 30-second lease.
    if (now.getTime() - this.lastExpiry >= Math.min(5_000, this.timing.sendingLeaseMs / 4)) {
      this.lastExpiry = now.getTime();
      this.phase('tick', 'expiring orphans');
      await this.expireOrphans(now);
    }
    this.phase('tick', 'promoting due broadcasts');
    // Both statements run twice a second in every process, busy or not: prepared, so an idle engine costs only their calls.
    const promote = prepared(this.db, 'broadcasts_promote_due', (db, name) => {
      const at = sql`${sql.placeholder('now')}::timestamptz`;
      return db
        .update(broadcasts)
        .set({ status: 'sending', statusReason: null, waitingUntil: null, startedAt: sql`coalesce(${broadcasts.startedAt}, ${at})`, updatedAt: at })
        .where(
          or(
            and(eq(broadcasts.status, 'scheduled'), or(isNull(broadcasts.scheduledAt), lte(broadcasts.scheduledAt, at))),
            and(eq(broadcasts.status, 'waiting'), or(isNull(broadcasts.waitingUntil), lte(broadcasts.waitingUntil, at))),
          ),
        )
        .returning({ id: broadcasts.id })
        .prepare(name);
    });
    const promoted = await promote.execute({ now: now.toISOString() });
    for (const row of promoted) this.deps.changed(row.id);
    this.phase('tick', 'finding sending numbers');
    const sendingNumbers = prepared(this.db, 'broadcasts_sending_numbers', (db, name) =>
      db.selectDistinct({ channelId: broadcasts.channelId }).from(broadcasts).where(eq(broadcasts.status, 'sending')).prepare(name),
    );
    const active = await sendingNumbers.execute({});
    for (const { channelId } of active) {
      if (this.stopped || this.loops.has(channelId)) continue;
      const loop = this.runNumber(channelId)
        .catch((err) => this.deps.log.error({ err, channelId }, 'broadcasts: sending loop'))
        .finally(() => {
          this.phase(`number ${channelId}`, null);
          this.loops.delete(channelId);
        });
      this.loops.set(channelId, loop);
    }
    this.nextTickMs = active.length > 0 || this.loops.size > 0 ? this.timing.tickMs : await this.idleWait(now);
  }

  /** With nothing sending: until the next scheduled or waiting broadcast is due, within [tickMs, idleTickMs]. */
  private async idleWait(now: Date): Promise<number> {
    const { tickMs, idleTickMs } = this.timing;
    if (idleTickMs <= tickMs) return tickMs;
    this.phase('tick', 'reading the next due time');
    const nextDue = prepared(this.db, 'broadcasts_next_due', (db, name) =>
      db
        .select({ at: sql<string | Date | null>`min(case when ${broadcasts.status} = 'scheduled' then ${broadcasts.scheduledAt} else ${broadcasts.waitingUntil} end)` })
        .from(broadcasts)
        .where(sql`${broadcasts.status} in ('scheduled', 'waiting')`)
        .prepare(name),
    );
    const [row] = await nextDue.execute({});
    const dueAt = row?.at ? new Date(row.at).getTime() : NaN;
    // An unreadable time waits the idle cadence (a NaN delay would be a timer of 1 ms: a look after look).
    if (!Number.isFinite(dueAt)) return idleTickMs;
    return Math.min(idleTickMs, Math.max(tickMs, dueAt - now.getTime()));
  }

  /** Recipients whose call outlived any process that could still answer it: `unknown`, counted. */
  async expireOrphans(now: Date): Promise<number> {
    const before = new Date(now.getTime() - this.timing.sendingLeaseMs).toISOString();
    // This process's own claims (held for a slot, or called and not written yet) are alive, however old.
    const ownIds = [...this.mine];
    const mine = ownIds.length ? sql`and not (id = any(${`{${ownIds.join(',')}}`}::int[]))` : sql``;
    const rows = await this.db.execute<{ broadcast_id: number; n: number }>(sql`
      with expired as (
        update broadcast_recipients set state = 'unknown', error_title = 'Unknown',
          error_detail = 'The server stopped while this message was being sent: it may or may not have been sent, and is not sent again.'
        where state = 'sending' and sending_at < ${before}::timestamptz ${mine}
        returning broadcast_id
      ), counted as (select broadcast_id, count(*)::int as n from expired group by broadcast_id)
      update broadcasts b set unknown_count = b.unknown_count + c.n, queued_count = greatest(0, b.queued_count - c.n), updated_at = ${now.toISOString()}::timestamptz
      from counted c where b.id = c.broadcast_id
      returning b.id as broadcast_id, c.n`);
    let total = 0;
    for (const row of rowsOf<{ broadcast_id: number; n: number }>(rows)) {
      total += Number(row.n);
      this.deps.changed(Number(row.broadcast_id));
      this.deps.log.warn({ broadcastId: row.broadcast_id, recipients: row.n }, 'broadcasts: calls in flight when a process stopped are reported unknown');
    }
    return total;
  }

  private async numberOf(channelId: number): Promise<{ number: SendingNumber; token: string | null } | null> {
    const [row] = await this.db.select().from(channels).where(eq(channels.id, channelId));
    if (!row) return null;
    return { number: sendingNumberOf(row), token: row.platform === 'whatsapp' && row.status === 'active' ? this.deps.tokenOf(row) : null };
  }

  /** Sends for one number until none of its broadcasts is `sending` with recipients due. */
  private async runNumber(channelId: number): Promise<void> {
    const found = await this.numberOf(channelId);
    if (!found || !found.token) {
      await this.haltChannel(channelId, found ? 'The WhatsApp channel is disconnected or has no access token.' : 'The channel was removed.');
      return;
    }
    const { number, token } = found;
    const who = `number ${channelId}`;
    this.deps.log.info({ channelId, rate: number.rate, tier: number.tier }, 'broadcast sending loop');
    const infos = new Map<number, BroadcastInfo>();
    const limit = MESSAGING_LIMIT_TIERS[number.tier];
    let allowance = Number.POSITIVE_INFINITY;
    let allowanceCheckedAt = 0;

    // Recipients claimed (state `sending`, committed) and not called yet: called only inside a slot the pacer granted.
    let held: Claimed[] = [];
    const numberCalls = new Set<Promise<void>>();
    let holdCheckedAt = Number.NEGATIVE_INFINITY;
    try {
      while (!this.stopped) {
        if (this.now().getTime() - holdCheckedAt >= HOLD_CHECK_MS) {
          this.phase(who, 'reading the shared back-off');
          holdCheckedAt = this.now().getTime();
          const shared = await this.sharedHold(channelId);
          const local = this.throttled.get(channelId);
          if (shared > holdCheckedAt && shared > (local?.until ?? 0)) this.throttled.set(channelId, { until: shared, streak: local?.streak ?? 0 });
        }
        const throttle = this.throttled.get(channelId);
        const nowMs = this.now().getTime();
        if (throttle && throttle.until > nowMs) {
          // Not called: back to the queue rather than held through a long back-off.
          this.phase(who, 'throttled');
          held = await this.release(held);
          await this.sleep(throttle.until - nowMs);
          continue;
        }
        // At most two seconds' worth of calls outstanding per number: when Meta answers slower, sending slows
        // down with it instead of piling up calls that would time out (and be reported unknown).
        if (numberCalls.size >= Math.min(this.timing.maxInFlight, number.rate * 2)) {
          this.phase(who, 'waiting for calls in flight');
          await Promise.race(numberCalls);
          continue;
        }
        if (held.length === 0) {
          // The messaging limit: recounted at most once a second (sends of this process counted down meanwhile).
          if (Number.isFinite(limit) && nowMs - allowanceCheckedAt >= 1000) {
            this.phase(who, 'counting the messaging limit');
            const usage = await portfolioUsage(this.db, number, this.now());
            allowance = limit - usage.used;
            allowanceCheckedAt = nowMs;
            if (allowance <= 0) {
              const until = new Date((usage.oldest ?? this.now()).getTime() + DAY_MS);
              await this.waitForLimit(channelId, until, number);
              return;
            }
          }
          this.phase(who, 'claiming recipients');
          held = await this.claim(channelId, Math.min(allowance, Math.ceil(number.rate / SLOTS_PER_SECOND) * this.timing.claimSlots));
          if (held.length === 0) {
            this.phase(who, 'finishing (waiting for answers)');
            if (await this.finishIdle(channelId)) return;
            await this.sleep(Math.max(this.timing.flushMs, 200));
            continue;
          }
          allowance -= held.length;
          // Everything a call needs is at hand before the grant: nothing awaited between a grant and its calls.
          for (const recipient of held) {
            if (!infos.has(recipient.broadcastId)) infos.set(recipient.broadcastId, await this.broadcastInfo(recipient.broadcastId));
          }
        }
        this.phase(who, 'pacing');
        const grant = await this.deps.pacer.take(number.externalId, number.rate, held.length);
        // A grant is good only inside its second (its points are counted there): one that came back after
        // the second ended is not used (its points are lost, never exceeded). Within the second a late
        // grant still goes: on a starved event loop every take may come back after its 100-ms slot, and
        // refusing those would stop sending altogether.
        if (grant.granted <= 0 || this.now().getTime() >= grant.usableUntil) {
          await this.sleep(grant.retryAt - this.now().getTime());
          continue;
        }
        const going = held.splice(0, grant.granted);
        const startedAt = this.now();
        for (let i = 0; i < going.length; i++) {
          // Starting many calls takes time: one that would leave after the grant's second waits for a later
          // grant (its point is lost, never moved into the next second).
          if (this.now().getTime() >= grant.usableUntil) {
            held.unshift(...going.slice(i));
            break;
          }
          const recipient = going[i];
          const info = infos.get(recipient.broadcastId)!;
          const call: Promise<void> = this.send(number, token, info, recipient, startedAt).finally(() => {
            this.inFlight.delete(call);
            numberCalls.delete(call);
          });
          this.inFlight.add(call);
          numberCalls.add(call);
        }
        // Until the next slot: its grant is taken when it begins.
        const wait = grant.retryAt - this.now().getTime();
        if (wait > 0) await this.sleep(wait);
      }
    } finally {
      await this.release(held).catch((err) => this.deps.log.error({ err, channelId }, 'broadcasts: releasing claimed recipients'));
    }
  }

  /** Claimed recipients never called: back to `queued` (no call was made, so sending them later is still once). */
  private async release(held: Claimed[]): Promise<Claimed[]> {
    if (held.length === 0) return [];
    const ids = held.map((r) => r.id);
    await this.db.execute(sql`
      update broadcast_recipients set state = 'queued', attempts = greatest(0, attempts - 1), sending_at = null
      where state = 'sending' and id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
    for (const id of ids) this.mine.delete(id);
    return [];
  }

  /** The end of the number's back-off as any process wrote it (0: none). */
  private async sharedHold(channelId: number): Promise<number> {
    const [row] = await this.db
      .select({ until: sql<string | null>`${channels.settings}->>${HOLD_SETTING}` })
      .from(channels)
      .where(eq(channels.id, channelId));
    const until = Number(row?.until ?? 0);
    return Number.isFinite(until) ? until : 0;
  }

  /** Publishes a back-off to the other processes; one statement, never moving an end earlier. */
  private async shareHold(channelId: number, until: number): Promise<void> {
    await this.db.execute(sql`
      update channels set settings = coalesce(settings, '{}'::jsonb) || jsonb_build_object(${HOLD_SETTING}::text,
        greatest(coalesce((settings->>${HOLD_SETTING})::bigint, 0), ${Math.round(until)}::bigint))
      where id = ${channelId}`);
  }

  private async broadcastInfo(id: number): Promise<BroadcastInfo> {
    const [row] = await this.db
      .select({ id: broadcasts.id, companyId: broadcasts.companyId, templateName: broadcasts.templateName, templateLanguage: broadcasts.templateLanguage, templateComponents: broadcasts.templateComponents, headerMediaUrl: broadcasts.headerMediaUrl })
      .from(broadcasts)
      .where(eq(broadcasts.id, id));
    return row;
  }

  /** Up to `n` due recipients of the number's `sending` broadcasts (oldest broadcast first), marked `sending` before any call (committed). */
  async claim(channelId: number, n: number): Promise<Claimed[]> {
    const active = await this.db
      .select({ id: broadcasts.id })
      .from(broadcasts)
      .where(and(eq(broadcasts.channelId, channelId), eq(broadcasts.status, 'sending')))
      .orderBy(broadcasts.id);
    const claimed: Claimed[] = [];
    for (const { id } of active) {
      if (claimed.length >= n) break;
      claimed.push(...(await this.claimOf(id, n - claimed.length)));
    }
    for (const r of claimed) this.mine.add(r.id);
    return claimed;
  }

  /** One broadcast's due recipients: equality on (broadcast_id, state) and order by id follow its index, whatever the statistics. */
  private async claimOf(broadcastId: number, n: number): Promise<Claimed[]> {
    const now = this.now().toISOString();
    const rows = await this.db.execute(sql`
      with picked as materialized (
        select q.id from broadcast_recipients q
        where q.broadcast_id = ${broadcastId} and q.state = 'queued'
          and (q.next_attempt_at is null or q.next_attempt_at <= ${now}::timestamptz)
        order by q.id
        limit ${n}
        for update skip locked
      )
      update broadcast_recipients r set state = 'sending', sending_at = ${now}::timestamptz, attempts = r.attempts + 1
      from picked where r.id = picked.id and r.state = 'queued'
      returning r.id, r.broadcast_id, r.phone, r.variables, r.attempts`);
    return rowsOf<{ id: number; broadcast_id: number; phone: string; variables: unknown; attempts: number }>(rows)
      .map((r) => ({ id: Number(r.id), broadcastId: Number(r.broadcast_id), phone: r.phone, variables: parseJson<ResolvedVariables>(r.variables), attempts: Number(r.attempts) }))
      .sort((a, b) => a.id - b.id);
  }

  /** Nothing due: broadcasts with nothing queued or sending are completed; true when the number has nothing left to wait for. */
  private async finishIdle(channelId: number): Promise<boolean> {
    await Promise.all(this.inFlight);
    await this.flush();
    const now = this.now();
    const done = await this.db.execute<{ id: number }>(sql`
      update broadcasts b set status = 'completed', completed_at = ${now.toISOString()}::timestamptz, status_reason = null, updated_at = ${now.toISOString()}::timestamptz
      where b.channel_id = ${channelId} and b.status = 'sending'
        and not exists (select 1 from broadcast_recipients r where r.broadcast_id = b.id and r.state in ('queued', 'sending'))
      returning b.id`);
    for (const row of rowsOf<{ id: number }>(done)) {
      this.deps.changed(Number(row.id));
      this.deps.log.info({ broadcastId: Number(row.id) }, 'broadcast completed');
    }
    const [left] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(broadcasts)
      .where(and(eq(broadcasts.channelId, channelId), eq(broadcasts.status, 'sending')));
    return Number(left?.n ?? 0) === 0;
  }

  /** The portfolio's 24-hour limit is used up: the number's sending broadcasts wait (visible status) until `until`. */
  private async waitForLimit(channelId: number, until: Date, number: SendingNumber): Promise<void> {
    const now = this.now();
    const reason = `Meta's messaging limit (${number.tier.replace('TIER_', '')} unique customers in 24 hours) is reached; sending resumes at ${until.toISOString()}.`;
    const rows = await this.db
      .update(broadcasts)
      .set({ status: 'waiting', statusReason: reason, waitingUntil: until, updatedAt: now })
      .where(and(eq(broadcasts.channelId, channelId), eq(broadcasts.status, 'sending')))
      .returning({ id: broadcasts.id });
    for (const row of rows) this.deps.changed(row.id);
  }

  /** Nothing of this number can be sent (token, template, account): its sending broadcasts fail with the reason. */
  private async haltChannel(channelId: number, reason: string, broadcastId?: number): Promise<void> {
    const now = this.now();
    const rows = await this.db
      .update(broadcasts)
      .set({ status: 'failed', statusReason: reason, updatedAt: now })
      .where(and(eq(broadcasts.channelId, channelId), eq(broadcasts.status, 'sending'), broadcastId ? eq(broadcasts.id, broadcastId) : undefined))
      .returning({ id: broadcasts.id });
    for (const row of rows) {
      this.deps.changed(row.id);
      this.deps.log.warn({ broadcastId: row.id, reason }, 'broadcast failed');
    }
  }

  private content(info: BroadcastInfo, recipient: Claimed): OutboundContent {
    const link = this.deps.mediaLink;
    return templateOutbound(info, recipient.variables ?? { body: [] }, link ? (url) => link(url, info.companyId) : undefined);
  }

  /** One Graph API call and its outcome (queued for the next batch write). */
  private async send(number: SendingNumber, token: string, info: BroadcastInfo, recipient: Claimed, startedAt: Date): Promise<void> {
    const base = { id: recipient.id, broadcastId: recipient.broadcastId, phone: recipient.phone, companyId: number.companyId, channelId: number.channelId };
    try {
      const { messageId } = await this.deps.graph().sendWhatsApp(number.externalId, token, waIdOf(recipient.phone), this.content(info, recipient));
      this.throttled.delete(number.channelId);
      this.record({ ...base, state: 'sent', waMessageId: messageId, sentAt: startedAt });
    } catch (err) {
      const classified = classifySendError(err);
      this.record(this.outcomeOf(base, recipient, classified, err));
      const hold = classified.kind === 'throttle' ? this.throttled.get(number.channelId) : undefined;
      if (hold) await this.shareHold(number.channelId, hold.until).catch((e) => this.deps.log.error({ err: e, channelId: number.channelId }, 'broadcasts: sharing a back-off'));
      if (classified.kind === 'halt') await this.haltChannel(number.channelId, classified.reason, recipient.broadcastId);
    }
  }

  private outcomeOf(base: Omit<Outcome, 'state'>, recipient: Claimed, c: Classified, err: unknown): Outcome {
    const now = this.now().getTime();
    const error = { errorCode: c.code, errorTitle: titleOf(c), errorDetail: c.reason };
    switch (c.kind) {
      case 'throttle': {
        const streak = (this.throttled.get(base.channelId)?.streak ?? 0) + 1;
        const retryAfter = (err as { retryAfterMs?: number | null }).retryAfterMs ?? null;
        this.throttled.set(base.channelId, { until: now + throttleBackoffMs(streak, retryAfter), streak });
        return { ...base, state: 'queued', nextAttemptAt: null };
      }
      case 'pair':
        return { ...base, state: 'queued', nextAttemptAt: new Date(now + PAIR_RATE_DELAY_MS) };
      case 'transient':
        if (recipient.attempts >= MAX_TRANSIENT_ATTEMPTS) return { ...base, state: 'failed', ...error };
        return { ...base, state: 'queued', nextAttemptAt: new Date(now + transientBackoffMs(recipient.attempts)) };
      case 'halt':
        // Refused before sending (token, template): the recipient waits for a retry of the broadcast.
        return { ...base, state: 'queued', nextAttemptAt: null };
      case 'unknown':
        return { ...base, state: 'unknown', ...error };
      case 'opt_out':
        return { ...base, state: 'failed', ...error, optOut: true };
      case 'final':
        return { ...base, state: 'failed', ...error };
    }
  }

  private record(outcome: Outcome): void {
    this.pending.push(outcome);
    if (!this.flushTimer && !this.stopped) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = null;
        void this.flush().catch((err) => this.deps.log.error({ err }, 'broadcasts: writing results'));
      }, this.timing.flushMs);
    }
  }

  /** Writes the answers gathered so far: recipients and counters in one transaction. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.pending.length === 0) return;
    const batch = this.pending.splice(0, this.pending.length);
    this.flushing = this.write(batch)
      .catch((err) => {
        // Kept for the next flush: the rows stay `sending` until written (or become unknown after the lease).
        this.pending.unshift(...batch);
        throw err;
      })
      .finally(() => {
        this.flushing = null;
      });
    await this.flushing;
  }

  private async write(batch: Outcome[]): Promise<void> {
    const now = this.now();
    const values = sql.join(
      batch.map(
        (o) =>
          sql`(${o.id}::int, ${o.state}::text, ${o.waMessageId ?? null}::text, ${o.errorCode ?? null}::int, ${o.errorTitle ?? null}::text, ${o.errorDetail ?? null}::text, ${o.nextAttemptAt ? o.nextAttemptAt.toISOString() : null}::timestamptz, ${o.sentAt ? o.sentAt.toISOString() : null}::timestamptz)`,
      ),
      sql`, `,
    );
    const at = now.toISOString();
    // The recipients' states and the broadcasts' counters in one transaction: a process killed between the two
    // statements left a batch `sent` with its counters still `queued` for good (the SIGKILL test, crash.test.ts, saw
    // 25 of them once), and a failed counter update retried found no recipient left to count.
    const changedIds = await this.db.transaction(async (tx) => {
      const rows = await tx.execute<{ broadcast_id: number; state: string }>(sql`
        with v(id, state, wa_message_id, error_code, error_title, error_detail, next_attempt_at, sent_at) as (values ${values})
        update broadcast_recipients r set
          state = v.state,
          wa_message_id = coalesce(v.wa_message_id, r.wa_message_id),
          error_code = v.error_code, error_title = v.error_title, error_detail = v.error_detail,
          next_attempt_at = v.next_attempt_at,
          sent_at = case when v.state = 'sent' then coalesce(v.sent_at, ${at}::timestamptz) else r.sent_at end,
          failed_at = case when v.state = 'failed' then ${at}::timestamptz else r.failed_at end
        from v where r.id = v.id and r.state = 'sending'
        returning r.broadcast_id, r.state`);
      const deltas = new Map<number, CounterDelta>();
      for (const row of rowsOf<{ broadcast_id: number; state: string }>(rows)) {
        const id = Number(row.broadcast_id);
        deltas.set(id, addDelta(deltas.get(id) ?? ZERO_DELTA, deltaOf('sending', row.state as RecipientState)));
      }
      const optOutRows = batch.filter((o) => o.optOut);
      if (optOutRows.length) {
        await tx
          .insert(optOuts)
          .values(optOutRows.map((o) => ({ companyId: o.companyId, channelId: null, phone: o.phone, reason: 'marketing_opt_out' as const, source: 'error_131050' as const, detail: `broadcast ${o.broadcastId}` })))
          .onConflictDoNothing();
      }
      return this.applyDeltas(deltas, now, tx);
    });
    for (const o of batch) this.mine.delete(o.id);
    for (const id of changedIds) this.deps.changed(id);
  }

  /** Adds each broadcast's counter changes inside the caller's transaction; returns the broadcasts changed. */
  private async applyDeltas(deltas: Map<number, CounterDelta>, now: Date, tx: Tx): Promise<number[]> {
    const changed: number[] = [];
    for (const [id, d] of deltas) {
      if (isZero(d)) continue;
      await tx
        .update(broadcasts)
        .set({
          queuedCount: sql`greatest(0, ${broadcasts.queuedCount} + ${d.queued})`,
          sentCount: sql`${broadcasts.sentCount} + ${d.sent}`,
          deliveredCount: sql`${broadcasts.deliveredCount} + ${d.delivered}`,
          readCount: sql`${broadcasts.readCount} + ${d.read}`,
          repliedCount: sql`${broadcasts.repliedCount} + ${d.replied}`,
          failedCount: sql`${broadcasts.failedCount} + ${d.failed}`,
          unknownCount: sql`${broadcasts.unknownCount} + ${d.unknown}`,
          updatedAt: now,
        })
        .where(eq(broadcasts.id, id));
      changed.push(id);
    }
    return changed;
  }

  /** Drops the loops' knowledge of a broadcast's channel being throttled etc. (cancel/pause take effect at the next claim). */
  forget(channelId: number): void {
    this.throttled.delete(channelId);
  }
}

function titleOf(c: Classified): string {
  switch (c.kind) {
    case 'opt_out':
      return 'Opted out of marketing messages';
    case 'unknown':
      return 'Unknown';
    case 'transient':
      return 'Meta was unavailable';
    default:
      return c.code !== null ? `Meta error ${c.code}` : 'Send failed';
  }
}

function parseJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

