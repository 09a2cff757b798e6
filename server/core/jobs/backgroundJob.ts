/**
 * The one shape of the server's background work (issue #20): webhook events, outgoing message
 * deliveries, embedded signups, template syncs and the media sweeper all run through these two.
 *
 * - BackgroundJob: one repeated pass over the work that is due (at start, every interval, when
 *   triggered, after a back-off). Passes never overlap; a trigger during a pass either runs one more
 *   pass after it ('rerun') or is dropped ('skip').
 * - KeyedJobs: one run per item (a message, a signup, an account), at most one at a time per key,
 *   with runs scheduled later for retries.
 *
 * Neither holds a database claim itself: the work claims its rows (FOR UPDATE SKIP LOCKED, a lease
 * column) so that several processes can run the same job; KeyedJobs.stopWithin hands back the keys
 * whose runs outlived shutdown so their leases can be released. Timers never keep the process alive
 * (unref), and stop() is final: nothing starts afterwards, settled() still waits for what runs.
 * Delays are relative timer delays, so tests drive them with vi.useFakeTimers; the due-time of the
 * work itself (what a pass claims) is the injected Clock's business, inside the work.
 */

/** Where a job reports the failure of a run (the app's logger). */
export interface JobLogger {
  error(obj: unknown, msg?: string): void;
}

/**
 * A run that cannot be done yet for an expected reason: what it depends on is not written yet, e.g. a message
 * status that arrives before its send's answer. Not a failure: the webhook processor tries it again shortly,
 * without counting an attempt or warning (server/plugins/channels/webhooks.ts).
 */
export class NotYetError extends Error {}

/** Exponential back-off: the first retry waits firstMs, each next one twice as long, up to maxMs. */
export interface Backoff {
  firstMs: number;
  maxMs: number;
}

/** The wait before retry number `retry` (0 for the first retry). */
export function backoffDelay(backoff: Backoff, retry: number): number {
  return Math.min(backoff.firstMs * 2 ** retry, backoff.maxMs);
}

type Timer = ReturnType<typeof setTimeout>;

/** A timer that does not keep the process alive. */
function unrefTimeout(fn: () => void, ms: number): Timer {
  const timer = setTimeout(fn, ms);
  timer.unref?.();
  return timer;
}

export interface BackgroundJobOptions {
  /** One pass over the work that is due; a throw is logged and the job goes on. */
  run: () => Promise<unknown>;
  /** Time between the passes the job starts itself, read at start() (tests tune it before); none or 0: no timer. */
  intervalMs?: () => number;
  /** Called at each interval tick besides the pass (work that shares the job's period); a throw is logged with tickFailureMessage. */
  onTick?: () => Promise<unknown>;
  /** A trigger while a pass runs: 'rerun' runs one more pass after it (new work arrived), 'skip' drops it. */
  whileRunning: 'rerun' | 'skip';
  log: JobLogger | undefined;
  failureMessage: string;
  tickFailureMessage?: string;
}

/** A repeated pass: start() runs one at once and then every interval; stop() is final. */
export class BackgroundJob {
  private started = false;
  private stopped = false;
  private running: Promise<void> | null = null;
  private rerun = false;
  private interval: ReturnType<typeof setInterval> | null = null;
  private readonly delayed = new Set<Timer>();

  constructor(private readonly options: BackgroundJobOptions) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  /** A pass now, then one every interval (an unref'd timer). Once only; nothing after stop(). */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.trigger();
    const every = this.options.intervalMs?.() ?? 0;
    if (every > 0) {
      this.interval = setInterval(() => this.tick(), every);
      this.interval.unref?.();
    }
  }

  private tick(): void {
    this.trigger();
    this.options.onTick?.().catch((err) => this.options.log?.error({ err }, this.options.tickFailureMessage ?? this.options.failureMessage));
  }

  /** Asks for a pass now (only between start() and stop()). */
  trigger(): void {
    if (!this.started || this.stopped) return;
    if (this.running) {
      if (this.options.whileRunning === 'rerun') this.rerun = true;
      return;
    }
    this.running = (async () => {
      do {
        this.rerun = false;
        try {
          await this.options.run();
        } catch (err) {
          this.options.log?.error({ err }, this.options.failureMessage);
        }
      } while (this.rerun && !this.stopped);
    })().finally(() => {
      this.running = null;
    });
  }

  /** Asks for a pass after `ms` (a retry's back-off); dropped by stop(). */
  triggerAfter(ms: number): void {
    if (this.stopped) return;
    const timer = unrefTimeout(() => {
      this.delayed.delete(timer);
      this.trigger();
    }, ms);
    this.delayed.add(timer);
  }

  /** Final: no pass starts any more and the timers are cleared; a pass in progress goes on (see settled()). */
  stop(): void {
    this.stopped = true;
    if (this.interval) clearInterval(this.interval);
    this.interval = null;
    for (const timer of this.delayed) clearTimeout(timer);
    this.delayed.clear();
  }

  /** Resolves when the pass in progress (and any pass it runs after it) is over. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }
}

export interface KeyedJobsOptions<K> {
  log: JobLogger | undefined;
  /** Logged when a run throws, with logFields(key). */
  failureMessage: string;
  logFields: (key: K) => Record<string, unknown>;
}

/** Runs per item: at most one at a time per key, retries scheduled per key; stop() is final. */
export class KeyedJobs<K> {
  private readonly running = new Map<K, Promise<void>>();
  private readonly waiting = new Map<K, Timer>();
  private stopped = false;
  private scheduling = true;

  constructor(private readonly options: KeyedJobsOptions<K>) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  /** False after stop() or cancelScheduled(): a retry would not run. */
  get schedules(): boolean {
    return this.scheduling;
  }

  /** Whether the key has a run in progress or one scheduled. */
  has(key: K): boolean {
    return this.running.has(key) || this.waiting.has(key);
  }

  isRunning(key: K): boolean {
    return this.running.has(key);
  }

  /** Runs scheduled for later (tests). */
  get waitingCount(): number {
    return this.waiting.size;
  }

  /** Runs `task` for the key now, unless a run of the key is in progress (its promise is returned then) or the jobs are stopped. */
  run(key: K, task: () => Promise<void>): Promise<void> {
    const existing = this.running.get(key);
    if (existing) return existing;
    if (this.stopped) return Promise.resolve();
    return this.launch(key, task);
  }

  /** Runs `task` for the key after `ms` (an unref'd timer; a retry's back-off), replacing one scheduled before; dropped by stop(). */
  runAfter(key: K, ms: number, task: () => Promise<void>): void {
    if (!this.scheduling) return;
    const before = this.waiting.get(key);
    if (before) clearTimeout(before);
    const timer = unrefTimeout(() => {
      this.waiting.delete(key);
      if (this.scheduling) void this.launch(key, task);
    }, ms);
    this.waiting.set(key, timer);
  }

  private launch(key: K, task: () => Promise<void>): Promise<void> {
    const run: Promise<void> = task()
      .catch((err) => this.options.log?.error({ err, ...this.options.logFields(key) }, this.options.failureMessage))
      .finally(() => {
        if (this.running.get(key) === run) this.running.delete(key);
      });
    this.running.set(key, run);
    return run;
  }

  /** Final: no run starts any more and the scheduled ones are dropped; runs in progress go on (see settled()). */
  stop(): void {
    this.stopped = true;
    this.cancelScheduled();
  }

  /**
   * Final for scheduled runs only: they are dropped and none is scheduled any more, while run() still
   * starts runs (the chat deliveries at shutdown: a message sent meanwhile is still handed over once).
   * Returns the keys whose scheduled runs were dropped (the caller releases their leases).
   */
  cancelScheduled(): K[] {
    this.scheduling = false;
    const dropped = [...this.waiting.keys()];
    for (const timer of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
    return dropped;
  }

  /**
   * stop(), then waits for the runs in progress at most `graceMs`; resolves with the keys whose runs
   * are still going (the caller releases their leases so that the next start can take them over).
   */
  async stopWithin(graceMs: number): Promise<K[]> {
    this.stop();
    if (this.running.size === 0) return [];
    let timer: Timer | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([Promise.allSettled([...this.running.values()]), grace]);
    clearTimeout(timer);
    return [...this.running.keys()];
  }

  /** Resolves when no run is in progress (runs scheduled for later are not waited for). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }
}
