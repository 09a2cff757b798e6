/**
 * Login throttling that slows guessing without locking out the rightful owner (OWASP's
 * "account lockout" advice): someone else's wrong passwords never refuse the owner's own client.
 *
 * - Per account + client address (the pair): 5 free failures, then waits that grow with the count
 *   (until the end of a 15-minute, then 1-hour, then 24-hour window). Only this pair waits; a
 *   successful login clears it.
 * - Per client address, across accounts: a password sprayer is stopped (30 failures in 15 minutes,
 *   100 a day), whatever account it tries next. Social sign-in's refused tokens count here too.
 * - Per account, across clients: never a lock-out. Once the account has many failures (20 in 15
 *   minutes: several addresses are guessing), every client that has itself failed on it gets a
 *   single free failure instead of five; a client that has not failed on the account is not slowed.
 * - A proven owner (a successful password reset or e-mail verification) lifts every block of the
 *   account: the account's counters are kept under a generation number, and lifting moves to the next.
 *
 * A throttled attempt is refused before the password is checked (a 429 whatever the password, so it
 * tells nothing) and is not counted again.
 */
import { throttled } from '../errors';
import type { RateLimiter, RateRule, RateStatus } from './rateLimiter';

const MINUTE = 60;
const HOUR = 3600;
const DAY = 24 * HOUR;

export const LOGIN_LIMITS = {
  /** One account from one client address: the growing waits, shortest first. */
  pair: [
    { limit: 5, windowSeconds: 15 * MINUTE },
    { limit: 10, windowSeconds: HOUR },
    { limit: 20, windowSeconds: DAY },
  ],
  /** One client address across every account (and social sign-in). */
  client: [
    { limit: 30, windowSeconds: 15 * MINUTE },
    { limit: 100, windowSeconds: DAY },
  ],
  /** One account across clients: at this many failures, failing clients get one free failure, not five. */
  accountUnderAttack: { limit: 20, windowSeconds: 15 * MINUTE },
  /**
   * Counts lifts of an account's blocks: the generation its counters are kept under. Seven days is
   * a multiple of every window above and windows are aligned on the epoch, so when this count starts
   * again from 0 every other counter starts afresh at the same instant: no old count comes back.
   */
  generation: { limit: Number.MAX_SAFE_INTEGER, windowSeconds: 7 * DAY },
} as const satisfies Record<string, RateRule | readonly RateRule[]>;

const part = (value: string) => encodeURIComponent(value);

function longestWait(statuses: RateStatus[]): number {
  return Math.max(0, ...statuses.filter((s) => s.limited).map((s) => s.retryAfterSeconds));
}

export class LoginThrottle {
  constructor(private readonly limiter: RateLimiter) {}

  private clientKey(client: string): string {
    return `login:client:${part(client)}`;
  }

  private async accountKeys(account: string, client: string): Promise<{ pair: string; account: string }> {
    const generation = (await this.limiter.check(`login:generation:${part(account)}`, LOGIN_LIMITS.generation)).count;
    return {
      pair: `login:pair:${generation}:${part(account)}:${part(client)}`,
      account: `login:account:${generation}:${part(account)}`,
    };
  }

  /**
   * Before a password (or a social token) is checked: throws the 429 `throttled` answer when this
   * client must wait. `account` is the lower-cased e-mail, null for social sign-in.
   */
  async admit(account: string | null, client: string): Promise<void> {
    const checks = LOGIN_LIMITS.client.map((rule) => this.limiter.check(this.clientKey(client), rule));
    let underAttack: Promise<RateStatus> | null = null;
    if (account !== null) {
      const keys = await this.accountKeys(account, client);
      checks.push(...LOGIN_LIMITS.pair.map((rule) => this.limiter.check(keys.pair, rule)));
      underAttack = this.limiter.check(keys.account, LOGIN_LIMITS.accountUnderAttack);
    }
    const statuses = await Promise.all(checks);
    let wait = longestWait(statuses);
    const attack = await underAttack;
    // statuses[client rules…, pair rules…]: the pair's shortest window says whether this client has been failing.
    const pairRecent = statuses[LOGIN_LIMITS.client.length];
    if (attack?.limited && pairRecent && pairRecent.count >= 1) wait = Math.max(wait, pairRecent.limited ? pairRecent.retryAfterSeconds : attack.retryAfterSeconds);
    if (wait > 0) throw throttled(wait);
  }

  /** A wrong password (or a refused social token): counted for the client, and for the pair and the account. */
  async failed(account: string | null, client: string): Promise<void> {
    const hits = LOGIN_LIMITS.client.map((rule) => this.limiter.hit(this.clientKey(client), rule));
    if (account !== null) {
      const keys = await this.accountKeys(account, client);
      hits.push(...LOGIN_LIMITS.pair.map((rule) => this.limiter.hit(keys.pair, rule)));
      hits.push(this.limiter.hit(keys.account, LOGIN_LIMITS.accountUnderAttack));
    }
    await Promise.all(hits);
  }

  /** The right password from this client: its pair starts afresh (the account and client counts stay). */
  async succeeded(account: string, client: string): Promise<void> {
    const keys = await this.accountKeys(account, client);
    await Promise.all(LOGIN_LIMITS.pair.map((rule) => this.limiter.reset(keys.pair, rule)));
  }

  /** The owner proved the address (password reset, e-mail verification): every block of the account is lifted. */
  async lift(account: string): Promise<void> {
    await this.limiter.hit(`login:generation:${part(account)}`, LOGIN_LIMITS.generation);
  }
}
