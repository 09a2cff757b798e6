/**
 * Signed media URLs for the local storages (local disk, memory), shaped like S3's presigned URLs:
 *
 * - uploads: PUT /media/upload/<key>?expires=…&max_bytes=…&signature=…, an HMAC-SHA256 over key,
 *   content type, expiry and size limit, so the upload needs no bearer token; routes.ts checks it
 *   and stores through MediaStorage.put (create-only: the URL uploads once).
 * - private reads: GET /media/<key>?exp=…&sig=…, an HMAC-SHA256 over key and expiry, so an <img>,
 *   <video> or link loads a chat attachment without headers while the URL is valid, and nobody
 *   holding only the path gets it (privateMedia.ts says which keys are private).
 *
 * Each kind has its own key derived from the server secret: neither signature is ever valid as
 * the other, nor as a token MAC.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../core/clock';
import type { PresignUploadInput, PresignedUploadTarget } from './types';

/** A signed read URL is valid for at least this long… */
export const READ_URL_TTL_SECONDS = 3600;
/**
 * …and at most this much longer: expiries are rounded up to a multiple of it, so the URL of an
 * object stays the same for this long and the browser's cache keeps working across re-renders.
 */
export const READ_URL_WINDOW_SECONDS = 900;

/** The expiry (Unix seconds) of a read URL signed at `now`. */
export function readUrlExpiry(now: Date): number {
  const earliest = Math.floor(now.getTime() / 1000) + READ_URL_TTL_SECONDS;
  return Math.ceil(earliest / READ_URL_WINDOW_SECONDS) * READ_URL_WINDOW_SECONDS;
}

export interface MediaSignerOptions {
  /** The server secret the signing keys are derived from (the JWT secret). */
  secret: string;
  /** Origin the URLs are built on (PUBLIC_URL). */
  publicUrl: string;
  clock: Clock;
  /** Where the storage serves objects (`/media`). */
  mediaPath?: string;
}

export type UploadCheck =
  | { ok: true; contentType: string; maxBytes: number }
  | { ok: false; reason: 'invalid_signature' | 'expired' };

export type ReadCheck = { ok: true; secondsLeft: number } | { ok: false; reason: 'invalid_signature' | 'expired' };

function hexEqual(expectedHex: string, given: unknown): boolean {
  if (typeof given !== 'string' || !/^[0-9a-f]{64}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(given, 'hex'));
}

export class MediaSigner {
  private readonly uploadKey: Buffer;
  private readonly readKey: Buffer;
  readonly publicUrl: string;
  readonly mediaPath: string;

  constructor(private readonly options: MediaSignerOptions) {
    this.uploadKey = createHmac('sha256', options.secret).update('media-upload-v1').digest();
    this.readKey = createHmac('sha256', options.secret).update('media-read-v1').digest();
    this.publicUrl = options.publicUrl.replace(/\/+$/, '');
    this.mediaPath = options.mediaPath ?? '/media';
  }

  private signature(key: string, contentType: string, expires: number, maxBytes: number): string {
    return createHmac('sha256', this.uploadKey).update(JSON.stringify([key, contentType, expires, maxBytes])).digest('hex');
  }

  private readSignature(key: string, expires: number): string {
    return createHmac('sha256', this.readKey).update(JSON.stringify([key, expires])).digest('hex');
  }

  fileUrl(key: string): string {
    return `${this.publicUrl}${this.mediaPath}/${key}`;
  }

  sign({ key, contentType, maxBytes, expiresInSeconds, origin }: PresignUploadInput): PresignedUploadTarget {
    const expires = Math.floor(this.options.clock.now().getTime() / 1000) + Math.max(1, Math.floor(expiresInSeconds));
    const query = new URLSearchParams({ expires: String(expires), max_bytes: String(maxBytes), signature: this.signature(key, contentType, expires, maxBytes) });
    return {
      // On the browser's own origin when the route names it (same path, same signature: the host is not signed).
      upload_url: `${origin ? origin.replace(/\/+$/, '') : this.publicUrl}${this.mediaPath}/upload/${key}?${query}`,
      method: 'PUT',
      headers: { 'Content-Type': contentType },
      file_url: this.fileUrl(key),
      expires_at: new Date(expires * 1000).toISOString(),
    };
  }

  /** Checks a PUT's query and Content-Type header against the signature (constant-time compare). */
  verify(key: string, query: Record<string, unknown>, contentTypeHeader: string | undefined): UploadCheck {
    const expires = Number(query.expires);
    const maxBytes = Number(query.max_bytes);
    if (!Number.isSafeInteger(expires) || !Number.isSafeInteger(maxBytes) || maxBytes <= 0) return { ok: false, reason: 'invalid_signature' };
    const contentType = (contentTypeHeader ?? '').split(';')[0].trim().toLowerCase();
    // The content type is part of the MAC: another Content-Type header fails the check (as on S3).
    if (!hexEqual(this.signature(key, contentType, expires, maxBytes), query.signature)) return { ok: false, reason: 'invalid_signature' };
    if (this.options.clock.now().getTime() / 1000 > expires) return { ok: false, reason: 'expired' };
    return { ok: true, contentType, maxBytes };
  }

  /** The query (`exp=…&sig=…`) that lets GET /media/<key> serve a private object until about an hour from now. */
  readQuery(key: string): string {
    const expires = readUrlExpiry(this.options.clock.now());
    return new URLSearchParams({ exp: String(expires), sig: this.readSignature(key, expires) }).toString();
  }

  /** Checks a GET's `exp` and `sig` for the key (constant-time compare; the signature before the expiry, so a forged URL never learns more). */
  verifyRead(key: string, query: Record<string, unknown>): ReadCheck {
    const raw = query.exp;
    const expires = typeof raw === 'string' && /^\d{1,12}$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(expires) || !hexEqual(this.readSignature(key, expires), query.sig)) return { ok: false, reason: 'invalid_signature' };
    const now = this.options.clock.now().getTime() / 1000;
    if (now > expires) return { ok: false, reason: 'expired' };
    return { ok: true, secondsLeft: Math.floor(expires - now) };
  }
}

/** Its name from when it signed uploads only (server/core/app.ts builds it as mediaUploadSigner). */
export { MediaSigner as UploadSigner };
