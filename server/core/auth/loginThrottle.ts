/**
 * Login throttling that slows guessing without locking out the rightful owner (OWASP's
 * "account lockout" advice): someone else's wrong passwords never refuse the owner's own client.
 *
 * - Per account + client address (the pair): 5 free failures, then waits that grow with the count
 *   (until the end of a 15-minute, then 1-hour, then 24-hour window). Only this pair waits; a
 *   successful login clears it.
 * - Per client address, across accounts (30 failures in 15 minutes, 100 a day): a sprayer past
 *   this limit gets no second guess on any account it has already failed on in the last 15 minutes
 *   (refused before the password), however many addresses share it. It does not refuse a first
 *   attempt on another account (issue #25): behind an office's or a proxy's single address, everyone
 *   else's correct password still gets in. Social sign-in (no account known beforehand) is refused
 *   outright past this limit, as before; its refused tokens count here too.
 * - Per account, across clients (20 failures in 15 minutes, 100 a day; issue #25): once reached, a
 *   password attempt from a client that is not a known device of the account (knownDevice.ts: a
 *   browser that signed in to it before) is refused before the password is checked, whatever its
 *   address, so guessers who take a fresh address per guess (TRUST_PROXY, botnets) are capped too.
 *   The owner still gets in from their known device, or by e-mail: a password reset proves the
 *   address and lifts every block (below).
 * - A known device of the account is not held by the address or account limits (only by its pair's).
 * - A proven owner (a successful password reset or e-mail verification) lifts every block of the
 *   account: the account's counters are kept under a generation number, and lifting moves to the next.
 *
 * A throttled attempt is refused before the password is checked (a 429 whatever the password, so it
 * tells nothing) and is not counted again.
 */
import { ApiError, throttled } from '../errors';
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
  /** One account across every client: past these, only the account's known devices are let through. */
  account: [
    { limit: 20, windowSeconds: 15 * MINUTE },
    { limit: 100, windowSeconds: DAY },
  ],
  /**
   * Counts lifts of an account's blocks: the generation its counters are kept under. Seven days is
   * a multiple of every window above and windows are aligned on the epoch, so when this count starts
   * again from 0 every other counter starts afresh at the same instant: no old count comes back.
   */
  generation: { limit: Number.MAX_SAFE_INTEGER, windowSeconds: 7 * DAY },
} as const satisfies Record<string, RateRule | readonly RateRule[]>;

const part = (value: string) => encodeURIComponent(value);

/** The account's own cap refuses: the words say how the owner still gets in. */
export const ACCOUNT_THROTTLED_MESSAGE =
  'Too many failed sign-ins on this account. Sign in from a device you have used before, or reset your password by e-mail.';

function accountThrottled(retryAfterSeconds: number): ApiError {
  return new ApiError(
    429,
    { detail: ACCOUNT_THROTTLED_MESSAGE, code: 'account_throttled' },
    { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  );
}

/** What is known about the client beyond its address. */
export interface LoginClient {
  address: string;
  /** It carries the account's known-device cookie (knownDevice.ts). */
  knownDevice?: boolean;
}

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
   * Before a password (or a social token) is checked: throws a 429 when this client must wait.
   * `account` is the lower-cased e-mail, null for social sign-in.
   */
  async admit(account: string | null, client: LoginClient): Promise<void> {
    const clientChecks = Promise.all(LOGIN_LIMITS.client.map((rule) => this.limiter.check(this.clientKey(client.address), rule)));
    if (account === null) {
      const wait = longestWait(await clientChecks);
      if (wait > 0) throw throttled(wait);
      return;
    }
    const keys = await this.accountKeys(account, client.address);
    const [clientStatuses, pair, accountStatuses] = await Promise.all([
      clientChecks,
      Promise.all(LOGIN_LIMITS.pair.map((rule) => this.limiter.check(keys.pair, rule))),
      Promise.all(LOGIN_LIMITS.account.map((rule) => this.limiter.check(keys.account, rule))),
    ]);
    const pairWait = longestWait(pair);
    if (pairWait > 0) throw throttled(pairWait);
    if (client.knownDevice) return;
    const accountWait = longestWait(accountStatuses);
    if (accountWait > 0) throw accountThrottled(accountWait);
    // The address's limit holds back only a client that has already failed on this account lately.
    const [pairRecent] = pair;
    const clientWait = longestWait(clientStatuses);
    if (clientWait > 0 && pairRecent.count >= 1) throw throttled(clientWait);
  }

  /** A wrong password (or a refused social token): counted for the client, and for the pair and the account. */
  async failed(account: string | null, client: string): Promise<void> {
    const hits = LOGIN_LIMITS.client.map((rule) => this.limiter.hit(this.clientKey(client), rule));
    if (account !== null) {
      const keys = await this.accountKeys(account, client);
      hits.push(...LOGIN_LIMITS.pair.map((rule) => this.limiter.hit(keys.pair, rule)));
      hits.push(...LOGIN_LIMITS.account.map((rule) => this.limiter.hit(keys.account, rule)));
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
