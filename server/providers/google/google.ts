/**
 * Google sign-in with an access token from Google Identity Services' token client. The token
 * alone proves nothing about *our* app, so its audience is checked at the tokeninfo endpoint
 * (a token issued to another client id is refused) before the profile is read from userinfo.
 */
import type { GoogleConfig } from '../../core/config';
import { SocialTokenError, type GoogleIdentity, type GoogleProfile } from '../meta/types';
import { parseJsonSafely, stripNul } from '../../core/input';

export interface HttpGoogleIdentityDeps {
  fetch?: typeof fetch;
  timeoutMs?: number;
}

interface TokenInfoAnswer {
  aud?: string;
  azp?: string;
  sub?: string;
  expires_in?: string | number;
  error?: string;
}

interface UserInfoAnswer {
  sub?: string;
  email?: string;
  email_verified?: boolean | string;
  given_name?: string;
  family_name?: string;
  name?: string;
}

/** Google itself failed (5xx, unreachable): not the user's fault, so not a SocialTokenError. */
export class GoogleUnavailableError extends Error {
  constructor(reason: string) {
    super(`Google sign-in is unavailable right now (${reason}); try again later.`);
    this.name = 'GoogleUnavailableError';
  }
}

export class HttpGoogleIdentity implements GoogleIdentity {
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(
    private readonly config: GoogleConfig,
    deps: HttpGoogleIdentityDeps = {},
  ) {
    this.fetch = deps.fetch ?? globalThis.fetch;
    this.timeoutMs = deps.timeoutMs ?? 15_000;
  }

  async verifyAccessToken(accessToken: string): Promise<GoogleProfile> {
    const tokenInfoUrl = new URL(this.config.tokenInfoUrl);
    tokenInfoUrl.searchParams.set('access_token', accessToken);
    const info = await this.getJson<TokenInfoAnswer>(tokenInfoUrl, {});
    if (info.aud !== this.config.clientId && info.azp !== this.config.clientId) {
      throw new SocialTokenError('This Google access token was issued to another application.');
    }
    if (!(Number(info.expires_in) > 0)) throw new SocialTokenError('The Google access token has expired.');

    const user = await this.getJson<UserInfoAnswer>(new URL(this.config.userInfoUrl), { authorization: `Bearer ${accessToken}` });
    if (!user.sub || (info.sub && user.sub !== info.sub)) throw new SocialTokenError('Google returned a profile for another account.');
    if (!user.email) throw new SocialTokenError('The Google account did not share its e-mail address.');
    return {
      sub: user.sub,
      email: user.email.toLowerCase(),
      // userinfo sends a boolean, tokeninfo-style answers the string "true".
      emailVerified: user.email_verified === true || user.email_verified === 'true',
      firstName: user.given_name ?? user.name ?? '',
      lastName: user.family_name ?? '',
    };
  }

  /** 4xx → the token is bad (SocialTokenError); 5xx or no answer → GoogleUnavailableError. */
  private async getJson<T>(url: URL, headers: Record<string, string>): Promise<T> {
    let response: Response;
    try {
      response = await this.fetch(url, { headers: { accept: 'application/json', ...headers }, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      throw new GoogleUnavailableError(err instanceof Error && err.name === 'TimeoutError' ? 'timed out' : 'unreachable');
    }
    if (response.status >= 500) throw new GoogleUnavailableError(`HTTP ${response.status}`);
    let body: unknown = null;
    try {
      // Names and e-mails go to our tables: never with NULs (PostgreSQL cannot store them).
      body = stripNul(parseJsonSafely(await response.text()));
    } catch {
      // A non-JSON answer is handled below like any unusable one.
    }
    if (!response.ok || !body || typeof body !== 'object') throw new SocialTokenError();
    return body as T;
  }
}
