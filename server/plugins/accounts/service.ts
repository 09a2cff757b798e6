/**
 * Account logic: registration, login, token refresh, logout, password change and reset.
 * Answers never reveal more than the spec's messages do (e.g. login and reset answer the
 * same whether or not the e-mail has an account).
 */
import { and, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import type { LoginResponse, TokenPair, User } from '../../../contract/api';
import type { FieldErrors } from '../../../contract/errors';
import type { PasswordChangeRequest, RegistrationBody } from '../../../contract/validation';
import type { InviteRegistrationBody } from '../../../contract/team';
import type { AppConfig } from '../../core/config';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { onboardingRequests, passwordResets, users } from '../../core/db/schema';
import type { EmailSender } from '../../core/email/types';
import { ApiError, fieldError, notFound, throttled, validationError } from '../../core/errors';
import { hashCost, hashPassword, isUsablePasswordHash, verifyAgainstDummy, verifyPassword } from '../../core/auth/passwords';
import { PASSWORD_MESSAGES, passwordProblems } from '../../core/auth/passwordPolicy';
import { RATE_RULES, type RateLimiter } from '../../core/auth/rateLimiter';
import { randomToken, sha256 } from '../../core/auth/secrets';
import type { SessionService } from '../../core/auth/sessions';
import { InvalidTokenError } from '../../core/auth/tokens';
import type { AuthUser } from '../../core/fastifyTypes';
import { passwordResetEmail } from './emails';
import { acceptPendingInvites, isValidInviteToken, pendingInvitesFor } from './invitesLookup';
import { loadUserView } from './userView';

export const ACCOUNT_MESSAGES = {
  registrationNotVerified: 'Verify this e-mail address before creating an account.',
  inviteInvalid: 'This invitation link is invalid or has expired.',
  userExists: 'A user with this e-mail address already exists.',
  badCredentials: 'Unable to log in with provided credentials.',
  wrongOldPassword: 'Your old password was entered incorrectly. Please enter it again.',
  resetLinkInvalid: 'This reset link is invalid or has expired.',
  refreshInvalid: 'Token is invalid or expired',
} as const;

const RESET_TTL_MS = 3600 * 1000;

export interface AccountDeps {
  db: Database;
  config: AppConfig;
  clock: Clock;
  sessions: SessionService;
  email: EmailSender;
  rateLimiter: RateLimiter;
}

function isUniqueViolation(err: unknown): boolean {
  // PostgreSQL's unique_violation, whichever driver raised it (drizzle may wrap it as `cause`).
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

export class AccountService {
  constructor(private readonly deps: AccountDeps) {}

  private get db() {
    return this.deps.db;
  }

  private async findUserByEmail(email: string) {
    const [user] = await this.db.select().from(users).where(eq(users.email, email));
    return user;
  }

  private hash(password: string): Promise<string> {
    return hashPassword(password, this.deps.config.passwordHashCost);
  }

  /**
   * Registration is open to an e-mail that was verified through onboarding, or to the holder
   * of a valid invite token for that e-mail (the invitation link proves the address). A mere
   * pending invite is not enough: anyone could otherwise claim an invited address.
   * On success every pending invite of the e-mail is accepted.
   */
  async register(body: Required<RegistrationBody> & Pick<InviteRegistrationBody, 'invite'>): Promise<void> {
    const now = this.deps.clock.now();
    const errors: FieldErrors = {};
    const add = (field: string, message: string) => (errors[field] ??= []).push(message);

    if (await this.findUserByEmail(body.email)) {
      add('email', ACCOUNT_MESSAGES.userExists);
    } else {
      const [verified] = await this.db
        .select({ id: onboardingRequests.id })
        .from(onboardingRequests)
        .where(and(eq(onboardingRequests.email, body.email), isNotNull(onboardingRequests.verifiedAt)));
      const invited = body.invite ? await isValidInviteToken(this.db, body.invite, body.email, now) : false;
      if (!verified && !invited) {
        if (body.invite) add('invite', ACCOUNT_MESSAGES.inviteInvalid);
        else add('email', ACCOUNT_MESSAGES.registrationNotVerified);
      }
    }
    for (const problem of passwordProblems(body.password1)) add('password1', problem);
    if (body.password1 !== body.password2) add('password2', PASSWORD_MESSAGES.mismatch);
    if (Object.keys(errors).length > 0) throw validationError(errors);

    const passwordHash = await this.hash(body.password1);
    try {
      await this.db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({ email: body.email, firstName: body.first_name, lastName: body.last_name ?? '', passwordHash, createdAt: now })
          .returning({ id: users.id });
        // Accepting the invites makes the new user a member with the invited role.
        await acceptPendingInvites(tx, user.id, body.email, now);
      });
    } catch (err) {
      // Two registrations raced for the same e-mail: the loser sees the usual message.
      if (isUniqueViolation(err)) throw fieldError('email', ACCOUNT_MESSAGES.userExists);
      throw err;
    }
  }

  async login(email: string, password: string, ip: string): Promise<LoginResponse> {
    const limiter = this.deps.rateLimiter;
    const emailKey = `login:email:${email}`;
    const ipKey = `login:ip:${ip}`;
    const byEmail = limiter.check(emailKey, RATE_RULES.loginPerEmail);
    const byIp = limiter.check(ipKey, RATE_RULES.loginPerIp);
    if (byEmail.limited || byIp.limited) throw throttled(Math.max(byEmail.retryAfterSeconds, byIp.retryAfterSeconds));

    const user = await this.findUserByEmail(email);
    // An account without a password (social sign-in) answers like an unknown e-mail, in the same time.
    const valid = user && isUsablePasswordHash(user.passwordHash)
      ? await verifyPassword(password, user.passwordHash)
      : await verifyAgainstDummy(password, this.deps.config.passwordHashCost);
    if (!user || !valid) {
      limiter.hit(emailKey, RATE_RULES.loginPerEmail);
      limiter.hit(ipKey, RATE_RULES.loginPerIp);
      throw fieldError('non_field_errors', ACCOUNT_MESSAGES.badCredentials);
    }
    limiter.reset(emailKey);

    // Hashes made with an older cost are upgraded while the plain password is at hand.
    if (hashCost(user.passwordHash) !== this.deps.config.passwordHashCost) {
      await this.db.update(users).set({ passwordHash: await this.hash(password) }).where(eq(users.id, user.id));
    }
    return this.signIn(user);
  }

  /** What every successful sign-in does (password or social): pending invites accepted, a session started. */
  async signIn(user: { id: number; email: string }): Promise<LoginResponse> {
    await this.joinInvitedCompanies(user.id, user.email);
    const { access, refresh } = await this.deps.sessions.start(user.id);
    return { access, refresh, user: (await this.userView(user.id))! };
  }

  /**
   * Invites sent to this (proven) address since it was last seen: join those companies now. Runs at login
   * and on GET /account/user/, so a signed-in user sees a new company on the next account reload.
   */
  async joinInvitedCompanies(userId: number, email: string): Promise<void> {
    const now = this.deps.clock.now();
    if ((await pendingInvitesFor(this.db, email, now)).length > 0) {
      await this.db.transaction((tx) => acceptPendingInvites(tx, userId, email, now));
    }
  }

  async refresh(refreshToken: string): Promise<TokenPair> {
    try {
      return await this.deps.sessions.rotate(refreshToken);
    } catch (err) {
      if (err instanceof InvalidTokenError) throw new ApiError(401, { detail: ACCOUNT_MESSAGES.refreshInvalid, code: 'token_not_valid' });
      throw err;
    }
  }

  /** Logout ends every session of the user, on every device. */
  async logout(user: AuthUser): Promise<void> {
    await this.deps.sessions.revokeAllForUser(user.id);
  }

  async userView(userId: number): Promise<User> {
    const view = await loadUserView(this.db, userId);
    if (!view) throw notFound();
    return view;
  }

  /** Changes the password and ends the user's other sessions; the current one stays signed in. */
  async changePassword(user: AuthUser, body: PasswordChangeRequest): Promise<void> {
    const [row] = await this.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.id));
    const errors: FieldErrors = {};
    if (!row || !(await verifyPassword(body.old_password, row.passwordHash))) errors.old_password = [ACCOUNT_MESSAGES.wrongOldPassword];
    const newProblems =
      body.new_password1 !== body.new_password2 ? [PASSWORD_MESSAGES.mismatch] : passwordProblems(body.new_password2);
    if (newProblems.length > 0) errors.new_password2 = newProblems;
    if (Object.keys(errors).length > 0) throw validationError(errors);

    await this.db.update(users).set({ passwordHash: await this.hash(body.new_password1) }).where(eq(users.id, user.id));
    await this.deps.sessions.revokeAllForUser(user.id, user.sessionId);
  }

  /** Always the same answer; only an existing account gets an e-mail. */
  async requestPasswordReset(email: string, ip: string): Promise<void> {
    const limiter = this.deps.rateLimiter;
    const byEmail = limiter.hit(`reset:email:${email}`, RATE_RULES.resetPerEmail);
    const byIp = limiter.hit(`reset:ip:${ip}`, RATE_RULES.resetPerIp);
    if (byEmail.limited || byIp.limited) throw throttled(Math.max(byEmail.retryAfterSeconds, byIp.retryAfterSeconds));

    const user = await this.findUserByEmail(email);
    if (!user) return;
    const token = randomToken();
    const now = this.deps.clock.now();
    await this.db.insert(passwordResets).values({
      userId: user.id,
      tokenHash: sha256(token),
      expiresAt: new Date(now.getTime() + RESET_TTL_MS),
      createdAt: now,
    });
    const link = `${this.deps.config.publicUrl}/auth/reset-password/${encodeURIComponent(token)}`;
    await this.deps.email.send(passwordResetEmail(user.email, link));
  }

  /** Sets a new password from a reset link (single use) and ends every session of the user. */
  async confirmPasswordReset(token: string, password: string): Promise<void> {
    const now = this.deps.clock.now();
    const tokenHash = sha256(token);
    const [reset] = await this.db
      .select({ id: passwordResets.id, userId: passwordResets.userId })
      .from(passwordResets)
      .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)));

    const errors: FieldErrors = {};
    if (!reset) errors.token = [ACCOUNT_MESSAGES.resetLinkInvalid];
    const problems = passwordProblems(password);
    if (problems.length > 0) errors.password = problems;
    if (Object.keys(errors).length > 0 || !reset) throw validationError(errors);

    // Consume the token atomically: of two concurrent confirmations only one succeeds.
    const claimed = await this.db
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.id, reset.id), isNull(passwordResets.usedAt)))
      .returning({ id: passwordResets.id });
    if (claimed.length === 0) throw fieldError('token', ACCOUNT_MESSAGES.resetLinkInvalid);

    await this.db.update(users).set({ passwordHash: await this.hash(password) }).where(eq(users.id, reset.userId));
    // Other outstanding links for this user die with the old password.
    await this.db
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, reset.userId), isNull(passwordResets.usedAt)));
    await this.deps.sessions.revokeAllForUser(reset.userId);
  }
}
