/**
 * Sign-up onboarding: a visitor submits an e-mail, receives a verification link, and once
 * verified may register (AccountService.register). Also answers the invitation page's
 * "which company invited this address?" check for the holder of the invitation link.
 *
 * None of these public answers tells whether an address has an account: submit answers the
 * same and e-mails the owner of a known address instead of a link, status is never `verified`
 * for a known address, and check_email says nothing without the invitation's token.
 */
import { and, eq, gt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { InviteCheck, OnboardingStatus } from '../../../contract/api';
import type { AppConfig } from '../../core/config';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { onboardingRequests, users } from '../../core/db/schema';
import type { EmailSender } from '../../providers/email/types';
import { throttled } from '../../core/errors';
import { RATE_RULES, type RateLimiter } from '../../core/auth/rateLimiter';
import { LoginThrottle } from '../../core/auth/loginThrottle';
import { randomToken, sha256 } from '../../core/auth/secrets';
import { signupAttemptEmail, verifyEmailEmail } from './emails';
import { openInviteByToken } from './invitesLookup';

export const VERIFY_LINK_INVALID = 'This verification link is invalid or has expired.';
const VERIFY_TTL_MS = 24 * 3600 * 1000;

export interface OnboardingDeps {
  db: Database;
  config: AppConfig;
  clock: Clock;
  email: EmailSender;
  rateLimiter: RateLimiter;
  log?: Pick<FastifyBaseLogger, 'error'>;
}

export class OnboardingService {
  constructor(private readonly deps: OnboardingDeps) {}

  private async hasAccount(email: string): Promise<boolean> {
    const [user] = await this.deps.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    return Boolean(user);
  }

  /**
   * Stores (or refreshes) the request with a new 24 h link and e-mails it. For an address that
   * already has an account nothing is stored and its owner is told instead (same answer).
   */
  async submit(email: string, needsWhatsappNumber: boolean): Promise<void> {
    const limit = await this.deps.rateLimiter.hit(`onboarding:email:${email}`, RATE_RULES.onboardingPerEmail);
    if (limit.limited) throw throttled(limit.retryAfterSeconds);

    if (await this.hasAccount(email)) {
      await this.deps.email.send(signupAttemptEmail(email, this.deps.config.publicUrl));
      return;
    }

    const token = randomToken();
    const now = this.deps.clock.now();
    const fields = { needsWhatsappNumber, tokenHash: sha256(token), tokenExpiresAt: new Date(now.getTime() + VERIFY_TTL_MS), updatedAt: now };
    await this.deps.db
      .insert(onboardingRequests)
      .values({ email, createdAt: now, ...fields })
      .onConflictDoUpdate({ target: onboardingRequests.email, set: fields });

    const link = `${this.deps.config.publicUrl}/auth/signup/verify-account-email?token=${encodeURIComponent(token)}`;
    await this.deps.email.send(verifyEmailEmail(email, link));
  }

  /** Registration consumes the request; a request left over for a known address still answers false. */
  async status(email: string): Promise<OnboardingStatus> {
    const [row] = await this.deps.db
      .select({ verifiedAt: onboardingRequests.verifiedAt })
      .from(onboardingRequests)
      .where(eq(onboardingRequests.email, email));
    const known = await this.hasAccount(email);
    return { verified: Boolean(row?.verifiedAt) && !known };
  }

  /**
   * Marks the e-mail verified. The link stays usable until it expires so that opening it
   * twice (mail scanners, a reload) does not show an error; it proves the same thing each time.
   */
  async verify(token: string): Promise<{ email: string } | null> {
    const now = this.deps.clock.now();
    const [row] = await this.deps.db
      .select({ id: onboardingRequests.id, email: onboardingRequests.email, verifiedAt: onboardingRequests.verifiedAt })
      .from(onboardingRequests)
      .where(and(eq(onboardingRequests.tokenHash, sha256(token)), gt(onboardingRequests.tokenExpiresAt, now)));
    if (!row) return null;
    if (!row.verifiedAt) {
      await this.deps.db.update(onboardingRequests).set({ verifiedAt: now, updatedAt: now }).where(eq(onboardingRequests.id, row.id));
    }
    // The link's holder owns the address: login blocks others' guesses caused on it are lifted.
    await new LoginThrottle(this.deps.rateLimiter).lift(row.email);
    return { email: row.email };
  }

  /**
   * Only the holder of an open invitation's token (sent to this very address) learns something:
   * the inviting company, and whether the address has an account (to offer sign-in instead of
   * sign-up; the holder owns the address). Any other question gets the same answer.
   */
  async checkEmail(email: string, token?: string): Promise<InviteCheck> {
    const invite = token ? await openInviteByToken(this.deps.db, token, email, this.deps.clock.now()) : null;
    if (!invite) return { email, invited: false, companies: [] };
    return { email, invited: true, companies: [invite.companyName], has_account: await this.hasAccount(email) };
  }
}
