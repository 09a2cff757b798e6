/**
 * The owner's known device (issue #25): a successful password sign-in leaves a signed cookie in that
 * browser, one per account. When an account is under attack from many addresses (its own cap in
 * loginThrottle.ts), a sign-in that carries the account's cookie is still let through to the password
 * check, so the owner keeps signing in from the browser they use while the guessers wait.
 *
 * The cookie proves only "this browser signed in to this account before": the password is still
 * required and the device's own failures are counted as any client's. It is HttpOnly, SameSite=Strict
 * and sent to the login route only; its value is `<issued at, epoch seconds>.<HMAC-SHA256>` over the
 * lower-cased e-mail and that time, with a key derived from JWT_SECRET. It is good for 180 days.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock';
import { sha256 } from './secrets';

export const KNOWN_DEVICE_LIFETIME_SECONDS = 180 * 24 * 3600;
/** The only path the browser sends the cookie to. */
export const KNOWN_DEVICE_COOKIE_PATH = '/account/login/';

export class KnownDevices {
  private readonly key: Buffer;

  constructor(
    jwtSecret: string,
    private readonly clock: Clock,
    private readonly secure: boolean,
  ) {
    this.key = createHmac('sha256', jwtSecret).update('known-device').digest();
  }

  /** One cookie per account, named after a hash of the e-mail (several accounts can share a browser). */
  cookieName(email: string): string {
    return `known_device_${sha256(email).slice(0, 16)}`;
  }

  private signature(email: string, issuedAt: number): Buffer {
    return createHmac('sha256', this.key).update(`${email}\n${issuedAt}`).digest();
  }

  /** The Set-Cookie header a successful sign-in answers with. */
  setCookieHeader(email: string): string {
    const issuedAt = Math.floor(this.clock.now().getTime() / 1000);
    const value = `${issuedAt}.${this.signature(email, issuedAt).toString('base64url')}`;
    const attributes = [`Path=${KNOWN_DEVICE_COOKIE_PATH}`, `Max-Age=${KNOWN_DEVICE_LIFETIME_SECONDS}`, 'HttpOnly', 'SameSite=Strict'];
    if (this.secure) attributes.push('Secure');
    return [`${this.cookieName(email)}=${value}`, ...attributes].join('; ');
  }

  /** Whether the request's Cookie header carries a valid, unexpired known-device cookie for this account. */
  recognises(email: string, cookieHeader: string | undefined): boolean {
    if (!cookieHeader) return false;
    const name = `${this.cookieName(email)}=`;
    const value = cookieHeader
      .split(';')
      .map((part) => part.trim())
      .find((part) => part.startsWith(name))
      ?.slice(name.length);
    const match = value ? /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value) : null;
    if (!match) return false;
    const issuedAt = Number(match[1]);
    const age = this.clock.now().getTime() / 1000 - issuedAt;
    if (age < 0 || age > KNOWN_DEVICE_LIFETIME_SECONDS) return false;
    return timingSafeEqual(Buffer.from(match[2], 'base64url'), this.signature(email, issuedAt));
  }
}
