/**
 * Sign-up onboarding: a visitor submits an e-mail, receives a verification link, and once
 * verified may register (AccountService.register). Also answers the sign-up page's
 * "do you have an account / an invite?" check.
 */
import { and, eq, gt } from 'drizzle-orm';
import type { InviteCheck, OnboardingStatus } from '../../../contract/api';
import type { AppConfig } from '../../core/config';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { onboardingRequests, users } from '../../core/db/schema';
import type { EmailSender } from '../../core/email/types';
import { throttled } from '../../core/errors';
import { RATE_RULES, type RateLimiter } from '../../core/auth/rateLimiter';
import { randomToken, sha256 } from '../../core/auth/secrets';
import { verifyEmailEmail } from './emails';
import { pendingInvitesFor } from './invitesLookup';

export const VERIFY_LINK_INVALID = 'This verification link is invalid or has expired.';
const VERIFY_TTL_MS = 24 * 3600 * 1000;

export interface OnboardingDeps {
  db: Database;
  config: AppConfig;
  clock: Clock;
  email: EmailSender;
  rateLimiter: RateLimiter;
}

export class OnboardingService {
  constructor(private readonly deps: OnboardingDeps) {}

  /** Stores (or refreshes) the request with a new 24 h link and e-mails it. */
  async submit(email: string, needsWhatsappNumber: boolean): Promise<void> {
    const limit = this.deps.rateLimiter.hit(`onboarding:email:${email}`, RATE_RULES.onboardingPerEmail);
    if (limit.limited) throw throttled(limit.retryAfterSeconds);

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

  async status(email: string): Promise<OnboardingStatus> {
    const [row] = await this.deps.db
      .select({ verifiedAt: onboardingRequests.verifiedAt })
      .from(onboardingRequests)
      .where(eq(onboardingRequests.email, email));
    return { verified: Boolean(row?.verifiedAt) };
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
    return { email: row.email };
  }

  async checkEmail(email: string): Promise<InviteCheck> {
    const [user] = await this.deps.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const pending = await pendingInvitesFor(this.deps.db, email, this.deps.clock.now());
    const companies = [...new Set(pending.map((invite) => invite.companyName))];
    return { email, has_account: Boolean(user), invited: companies.length > 0, companies };
  }
}
