/**
 * Where uploaded media (avatars, later chat attachments) is kept. One interface: a local-disk
 * implementation serves files at GET /media/<key>; an S3-style adapter can replace it by
 * registering another `MediaStorage` in services.ts and returning its own URLs.
 */
export interface StoredMedia {
  key: string;
  /** Where a browser loads it from (same-origin path for the local disk, absolute for a bucket). */
  url: string;
}

export interface MediaObject {
  bytes: Buffer;
  contentType: string;
}

export interface MediaStorage {
  put(key: string, bytes: Buffer, contentType: string): Promise<StoredMedia>;
  /** null when there is no such object. */
  get(key: string): Promise<MediaObject | null>;
  /** Removes the object; a missing key is not an error. */
  delete(key: string): Promise<void>;
}

/** The content types media may be stored and served with (never HTML, SVG or scripts). */
export const MEDIA_CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

export function extensionFor(contentType: string): string | undefined {
  return Object.entries(MEDIA_CONTENT_TYPES).find(([, type]) => type === contentType)?.[0];
}

/**
 * Keys are relative paths of lower-case letters, digits, `-`, `_` and `.` segments ending in a
 * known extension, e.g. `avatars/12/3f9c….png`; no `..`, no leading `/`, no empty segment.
 */
const KEY_PATTERN = /^(?:[a-z0-9_-][a-z0-9._-]*\/)*[a-z0-9_-][a-z0-9._-]*\.(png|jpg|gif|webp)$/;

export function isValidMediaKey(key: string): boolean {
  return key.length <= 200 && KEY_PATTERN.test(key) && !key.split('/').some((segment) => segment === '.' || segment === '..' || segment.includes('..'));
}

export class InvalidMediaKeyError extends Error {
  constructor(key: string) {
    super(`invalid media key: ${JSON.stringify(key)}`);
    this.name = 'InvalidMediaKeyError';
  }
}

export function contentTypeOfKey(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1);
  return MEDIA_CONTENT_TYPES[ext] ?? 'application/octet-stream';
}
