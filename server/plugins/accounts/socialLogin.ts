/**
 * Social sign-in (spec §7): POST /account/facebook/ and POST /account/google/ with the access
 * token the console got from the provider's SDK. The token is checked with the provider, the
 * user found by identity (provider, subject), else by e-mail (the provider verified it) and the
 * identity linked, else created without a usable password; then everything a password login
 * does (tokens issued, same response; invites wait for the user to answer them).
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { LoginResponse } from '../../../contract/api';
import { SocialLoginBody } from '../../../contract/channels';
import type { AppConfig } from '../../core/config';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { userIdentities, users } from '../../core/db/schema';
import { ApiError, fieldError, NON_FIELD_ERRORS } from '../../core/errors';
import { unusablePasswordHash } from '../../core/auth/passwords';
import type { RateLimiter } from '../../core/auth/rateLimiter';
import { LoginThrottle } from '../../core/auth/loginThrottle';
import { GraphApiError, SocialTokenError, type GoogleIdentity, type MetaGraph } from '../../providers/meta/types';
import { providerNotConfigured } from '../../providers/meta/notConfigured';
import type { AccountService } from './service';
import { access } from '../../core/access';

export type SocialProvider = 'facebook' | 'google';

export const SOCIAL_MESSAGES = {
  invalidToken: 'Invalid or expired access token.',
  facebookNoEmail: 'Your Facebook account has no e-mail address. Sign up with your e-mail instead.',
  googleEmailUnverified: 'Your Google account’s e-mail address is not verified. Sign up with your e-mail instead.',
  unavailable: { facebook: 'Facebook sign-in is unavailable right now. Please try again later.', google: 'Google sign-in is unavailable right now. Please try again later.' },
} as const;

/** Names longer than the registration form allows are cut (contract/validation.ts: 150). */
const NAME_MAX = 150;

/** What a provider vouches for once the token checks out. */
export interface SocialProfile {
  provider: SocialProvider;
  /** The provider's stable user id (Facebook app-scoped id, Google `sub`). */
  subject: string;
  /** Lower-cased, verified by the provider. */
  email: string;
  firstName: string;
  lastName: string;
}

export interface SocialLoginDeps {
  db: Database;
  config: AppConfig;
  clock: Clock;
  rateLimiter: RateLimiter;
  accounts: AccountService;
  /** Resolved per call: the adapters are registered by the Meta/Google wiring (or a test's overrides). */
  metaGraph: () => MetaGraph;
  googleIdentity: () => GoogleIdentity;
}

/** Same shape as the login route's bad-credentials answer, with 401. */
function invalidToken(): ApiError {
  return new ApiError(401, { [NON_FIELD_ERRORS]: [SOCIAL_MESSAGES.invalidToken] });
}

/** A provider refusal of the token itself (as opposed to the provider being unreachable or failing). */
function isTokenRefusal(err: unknown): boolean {
  if (err instanceof SocialTokenError) return true;
  // Graph API: 190 invalid OAuth token, 102 session key invalid; any other non-retryable 4xx refuses the token too.
  return err instanceof GraphApiError && !err.retryable && err.httpStatus >= 400 && err.httpStatus < 500;
}

/** The provider failed or could not be reached (not the user's token): a 503 the console can show, not a 500. */
function isProviderOutage(err: unknown): boolean {
  if (err instanceof GraphApiError) return err.retryable || err.httpStatus === 0 || err.httpStatus >= 500;
  return err instanceof Error && err.name === 'GoogleUnavailableError';
}

function unique(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

const clip = (value: string | null | undefined) => (value ?? '').trim().slice(0, NAME_MAX);

export class SocialLoginService {
  constructor(private readonly deps: SocialLoginDeps) {}

  private get db() {
    return this.deps.db;
  }

  async login(provider: SocialProvider, accessToken: string, ip: string): Promise<LoginResponse> {
    // Neither configured nor faked (outside demo mode): say so rather than fail on a fake that is not there.
    if ((provider === 'facebook' ? this.deps.config.meta : this.deps.config.google).mode === 'off') throw providerNotConfigured(provider);
    // The per-client budget of /account/login/: refused social tokens and wrong passwords count together.
    const throttle = new LoginThrottle(this.deps.rateLimiter);
    await throttle.admit(null, { address: ip });

    let profile: SocialProfile;
    try {
      profile = provider === 'facebook' ? await this.facebookProfile(accessToken) : await this.googleProfile(accessToken);
    } catch (err) {
      if (isProviderOutage(err)) throw new ApiError(503, { detail: SOCIAL_MESSAGES.unavailable[provider], code: 'provider_unavailable' });
      if (!isTokenRefusal(err)) throw err;
      await throttle.failed(null, ip);
      throw invalidToken();
    }

    const user = await this.findOrCreateUser(profile);
    return this.deps.accounts.signIn(user);
  }

  private async facebookProfile(accessToken: string): Promise<SocialProfile> {
    const graph = this.deps.metaGraph();
    const info = await graph.debugToken(accessToken);
    if (!info.isValid || info.appId !== this.deps.config.meta.appId) throw new SocialTokenError();
    const me = await graph.profile(accessToken);
    if (!me.id || (info.userId && info.userId !== me.id)) throw new SocialTokenError();
    const email = me.email?.trim().toLowerCase();
    if (!email) throw fieldError('email', SOCIAL_MESSAGES.facebookNoEmail);
    return { provider: 'facebook', subject: me.id, email, firstName: clip(me.first_name), lastName: clip(me.last_name) };
  }

  private async googleProfile(accessToken: string): Promise<SocialProfile> {
    const google = await this.deps.googleIdentity().verifyAccessToken(accessToken);
    if (!google.sub) throw new SocialTokenError();
    const email = google.email?.trim().toLowerCase();
    if (!email || !google.emailVerified) throw fieldError('email', SOCIAL_MESSAGES.googleEmailUnverified);
    return { provider: 'google', subject: google.sub, email, firstName: clip(google.firstName), lastName: clip(google.lastName) };
  }

  private async userByIdentity(provider: SocialProvider, subject: string) {
    const [row] = await this.db
      .select({ id: users.id, email: users.email })
      .from(userIdentities)
      .innerJoin(users, eq(users.id, userIdentities.userId))
      .where(and(eq(userIdentities.provider, provider), eq(userIdentities.subject, subject)));
    return row;
  }

  /** Identity first, then e-mail (linking the identity), else a new user; concurrent first sign-ins end on one user. */
  async findOrCreateUser(profile: SocialProfile): Promise<{ id: number; email: string }> {
    const known = await this.userByIdentity(profile.provider, profile.subject);
    if (known) return known;

    const now = this.deps.clock.now();
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.db.transaction(async (tx) => {
          let [user] = await tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, profile.email));
          if (!user) {
            [user] = await tx
              .insert(users)
              .values({
                email: profile.email,
                firstName: profile.firstName,
                lastName: profile.lastName,
                passwordHash: unusablePasswordHash(),
                createdAt: now,
              })
              .returning({ id: users.id, email: users.email });
          }
          await tx
            .insert(userIdentities)
            .values({ userId: user.id, provider: profile.provider, subject: profile.subject, email: profile.email, createdAt: now });
          return user;
        });
      } catch (err) {
        // Another request created the user or linked the identity meanwhile: look again.
        if (!unique(err) || attempt >= 2) throw err;
        const linked = await this.userByIdentity(profile.provider, profile.subject);
        if (linked) return linked;
      }
    }
  }
}

type Body<S extends z.ZodType> = { Body: z.infer<S> };

/** Registered by accountRoutes: unauthenticated, like /account/login/. */
export function socialLoginRoutes(app: FastifyInstance, accounts: AccountService): void {
  const services = app.services;
  const social = new SocialLoginService({
    db: services.get('Database'),
    config: services.get('Config'),
    clock: services.get('Clock'),
    rateLimiter: services.get('RateLimiter'),
    accounts,
    metaGraph: () => services.get('MetaGraph'),
    googleIdentity: () => services.get('GoogleIdentity'),
  });

  app.post<Body<typeof SocialLoginBody>>('/account/facebook/', { config: { access: access.public('sign-in with a Facebook token, checked with Meta') }, schema: { body: SocialLoginBody } }, async (request) => {
    return social.login('facebook', request.body.access_token, request.ip);
  });

  app.post<Body<typeof SocialLoginBody>>('/account/google/', { config: { access: access.public('sign-in with a Google token, checked with Google') }, schema: { body: SocialLoginBody } }, async (request) => {
    return social.login('google', request.body.access_token, request.ip);
  });
}
