/**
 * Presigned uploads for the local storages, shaped like S3's presigned PUT: the URL carries its
 * expiry and an HMAC-SHA256 over key, content type, expiry and size limit, so the upload needs no
 * bearer token; PUT /media/upload/<key> (routes.ts) checks it and stores through MediaStorage.put.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock';
import type { PresignUploadInput, PresignedUploadTarget } from './types';

export interface UploadSignerOptions {
  /** The server secret the upload secret is derived from (the JWT secret). */
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

export class UploadSigner {
  private readonly key: Buffer;
  private readonly publicUrl: string;
  private readonly mediaPath: string;

  constructor(private readonly options: UploadSignerOptions) {
    // A dedicated key, derived from the JWT secret: an upload signature is never a valid token MAC.
    this.key = createHmac('sha256', options.secret).update('media-upload-v1').digest();
    this.publicUrl = options.publicUrl.replace(/\/+$/, '');
    this.mediaPath = options.mediaPath ?? '/media';
  }

  private signature(key: string, contentType: string, expires: number, maxBytes: number): string {
    return createHmac('sha256', this.key).update(JSON.stringify([key, contentType, expires, maxBytes])).digest('hex');
  }

  fileUrl(key: string): string {
    return `${this.publicUrl}${this.mediaPath}/${key}`;
  }

  sign({ key, contentType, maxBytes, expiresInSeconds }: PresignUploadInput): PresignedUploadTarget {
    const expires = Math.floor(this.options.clock.now().getTime() / 1000) + Math.max(1, Math.floor(expiresInSeconds));
    const query = new URLSearchParams({ expires: String(expires), max_bytes: String(maxBytes), signature: this.signature(key, contentType, expires, maxBytes) });
    return {
      upload_url: `${this.publicUrl}${this.mediaPath}/upload/${key}?${query}`,
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
    const given = typeof query.signature === 'string' ? query.signature : '';
    if (!Number.isSafeInteger(expires) || !Number.isSafeInteger(maxBytes) || maxBytes <= 0 || !/^[0-9a-f]{64}$/.test(given)) {
      return { ok: false, reason: 'invalid_signature' };
    }
    const contentType = (contentTypeHeader ?? '').split(';')[0].trim().toLowerCase();
    // The content type is part of the MAC: another Content-Type header fails the check (as on S3).
    const expected = Buffer.from(this.signature(key, contentType, expires, maxBytes), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(given, 'hex'))) return { ok: false, reason: 'invalid_signature' };
    if (this.options.clock.now().getTime() / 1000 > expires) return { ok: false, reason: 'expired' };
    return { ok: true, contentType, maxBytes };
  }
}
