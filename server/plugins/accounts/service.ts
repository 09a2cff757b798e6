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
import type { FastifyBaseLogger } from 'fastify';
import type { EmailSender } from '../../providers/email/types';
import { ApiError, fieldError, notFound, throttled, validationError } from '../../core/errors';
import { hashCost, hashPassword, isUsablePasswordHash, verifyAgainstDummy, verifyPassword } from '../../core/auth/passwords';
import { PASSWORD_MESSAGES, passwordProblems } from '../../core/auth/passwordPolicy';
import { RATE_RULES, type RateLimiter } from '../../core/auth/rateLimiter';
import { KnownDevices } from '../../core/auth/knownDevice';
import { LoginThrottle } from '../../core/auth/loginThrottle';
import { randomToken, sha256 } from '../../core/auth/secrets';
import type { SessionService } from '../../core/auth/sessions';
import { InvalidTokenError } from '../../core/auth/tokens';
import type { AuthUser } from '../../core/fastifyTypes';
import { passwordResetEmail, signupAttemptEmail } from './emails';
import { acceptInvite, openInviteByToken } from './invitesLookup';
import { loadUserView } from './userView';

export const ACCOUNT_MESSAGES = {
  registrationNotVerified: 'Verify this e-mail address before creating an account.',
  inviteInvalid: 'This invitation link is invalid or has expired.',
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
  /** Where a failed background e-mail (the "you already have an account" notice) is reported. */
  log?: Pick<FastifyBaseLogger, 'error'>;
}

function isUniqueViolation(err: unknown): boolean {
  // PostgreSQL's unique_violation, whichever driver raised it (drizzle may wrap it as `cause`).
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

export class AccountService {
  private readonly throttle: LoginThrottle;

  private readonly knownDevices: KnownDevices;

  constructor(private readonly deps: AccountDeps) {
    this.throttle = new LoginThrottle(deps.rateLimiter);
    this.knownDevices = new KnownDevices(deps.config.jwtSecret, deps.clock, deps.config.publicUrl.startsWith('https:'));
  }

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
   *
   * The answer never tells whether the address already has an account: it depends only on what
   * the request proves (token, verified onboarding, valid passwords), the password is hashed
   * either way, and for a known address the owner gets an e-mail instead of a second account.
   * Registering with the link's token accepts that one invite (its holder consented); other
   * invites of the address wait for the user to answer them after signing in.
   */
  async register(body: Required<RegistrationBody> & Pick<InviteRegistrationBody, 'invite'>): Promise<void> {
    const now = this.deps.clock.now();
    const errors: FieldErrors = {};
    const add = (field: string, message: string) => (errors[field] ??= []).push(message);

    const existing = await this.findUserByEmail(body.email);
    const invite = body.invite ? await openInviteByToken(this.db, body.invite, body.email, now) : null;
    const [verifiedRequest] = await this.db
      .select({ id: onboardingRequests.id })
      .from(onboardingRequests)
      .where(and(eq(onboardingRequests.email, body.email), isNotNull(onboardingRequests.verifiedAt)));
    // A verified request left over for an address that has an account proves nothing new, and must
    // not let a stranger tell that address from one nobody verified.
    const verified = Boolean(verifiedRequest) && !existing;
    if (!verified && !invite) {
      if (body.invite) add('invite', ACCOUNT_MESSAGES.inviteInvalid);
      else add('email', ACCOUNT_MESSAGES.registrationNotVerified);
    }
    for (const problem of passwordProblems(body.password1)) add('password1', problem);
    if (body.password1 !== body.password2) add('password2', PASSWORD_MESSAGES.mismatch);
    if (Object.keys(errors).length > 0) throw validationError(errors);

    // Hashed whether or not the account exists, so both answers take about as long.
    const passwordHash = await this.hash(body.password1);
    if (existing) return this.tellOwnerOfSignupAttempt(existing.email);
    try {
      await this.db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({ email: body.email, firstName: body.first_name, lastName: body.last_name ?? '', passwordHash, createdAt: now })
          .returning({ id: users.id });
        // The link's holder consented to this invite: the new user is a member with the invited role.
        if (invite) await acceptInvite(tx, invite.id, user.id, body.email, now);
        // The verification is used up: a later question about this address finds nothing.
        await tx.delete(onboardingRequests).where(eq(onboardingRequests.email, body.email));
      });
    } catch (err) {
      // Two registrations raced for the same e-mail: the loser answers like any known address.
      if (isUniqueViolation(err)) return this.tellOwnerOfSignupAttempt(body.email);
      throw err;
    }
  }

  /**
   * "Someone tried to sign up with your address" to an existing account's owner. Sent in the
   * background, so the answer is not slower than a real registration (which sends nothing).
   */
  tellOwnerOfSignupAttempt(email: string): void {
    this.deps.email
      .send(signupAttemptEmail(email, this.deps.config.publicUrl))
      .catch((err: unknown) => this.deps.log?.error({ err }, 'sending the signup-attempt e-mail failed'));
  }

  /**
   * `ip` is the client's address (request.ip: the proxy's client with TRUST_PROXY), `cookies` the
   * request's Cookie header (a known-device cookie of the account). Throttled as loginThrottle.ts says.
   * A success answers with the known-device cookie to set (renewed at each sign-in).
   */
  async login(email: string, password: string, ip: string, cookies?: string): Promise<{ response: LoginResponse; knownDeviceCookie: string }> {
    await this.throttle.admit(email, { address: ip, knownDevice: this.knownDevices.recognises(email, cookies) });

    const user = await this.findUserByEmail(email);
    // An account without a password (social sign-in) answers like an unknown e-mail, in the same time.
    const valid = user && isUsablePasswordHash(user.passwordHash)
      ? await verifyPassword(password, user.passwordHash)
      : await verifyAgainstDummy(password, this.deps.config.passwordHashCost);
    if (!user || !valid) {
      await this.throttle.failed(email, ip);
      throw fieldError('non_field_errors', ACCOUNT_MESSAGES.badCredentials);
    }
    await this.throttle.succeeded(email, ip);

    // Hashes made with an older cost are upgraded while the plain password is at hand.
    if (hashCost(user.passwordHash) !== this.deps.config.passwordHashCost) {
      await this.db.update(users).set({ passwordHash: await this.hash(password) }).where(eq(users.id, user.id));
    }
    return { response: await this.signIn(user), knownDeviceCookie: this.knownDevices.setCookieHeader(email) };
  }

  /**
   * What every successful sign-in does (password or social): a session started. Invites are not
   * accepted here: the user answers them (GET /api/invitations/).
   */
  async signIn(user: { id: number; email: string }): Promise<LoginResponse> {
    const { access, refresh } = await this.deps.sessions.start(user.id);
    return { access, refresh, user: (await this.userView(user.id))! };
  }

  async refresh(refreshToken: string): Promise<TokenPair> {
    try {
      return await this.deps.sessions.rotate(refreshToken);
    } catch (err) {
      if (err instanceof InvalidTokenError) throw new ApiError(401, { detail: ACCOUNT_MESSAGES.refreshInvalid, code: 'token_not_valid' });
      throw err;
    }
  }

  /**
   * Logout ends this session (its refresh token and its sockets), as signing out of one device does in
   * any inbox: the user's other devices stay signed in. (Ending them all is what a password change or
   * reset does.) It used to end every session, which also signed a teammate's other browser out.
   */
  async logout(user: AuthUser): Promise<void> {
    await this.deps.sessions.revokeSession(user.sessionId);
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
    const [byEmail, byIp] = await Promise.all([
      limiter.hit(`reset:email:${email}`, RATE_RULES.resetPerEmail),
      limiter.hit(`reset:ip:${ip}`, RATE_RULES.resetPerIp),
    ]);
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
    // The owner proved the address: guesses made by others (or by them) no longer hold the account back.
    const [owner] = await this.db.select({ email: users.email }).from(users).where(eq(users.id, reset.userId));
    if (owner) await this.throttle.lift(owner.email);
  }
}
