/**
 * Where uploaded media (avatars, chat attachments) is kept. One interface: a local-disk
 * implementation serves files at GET /media/<key>; the S3 adapter (s3.ts, with S3_BUCKET) keeps
 * them in a bucket and returns the bucket's (or S3_PUBLIC_URL's) URLs.
 *
 * Chat attachments are private (keys `chats/<company>/…`, privateMedia.ts): stored rows keep the
 * plain URL, and what the server hands out is a short-lived signed URL minted at read time
 * (readUrl). Avatars and logos are public.
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

/** What a presigned upload is for (spec §7 GET /api/chats/presigned_url/). */
export interface PresignUploadInput {
  key: string;
  contentType: string;
  maxBytes: number;
  expiresInSeconds: number;
  /**
   * The origin the browser asking is on (server/core/browserOrigin.ts), for storages this server serves:
   * the console PUTs to upload_url, which its CSP (connect-src 'self') allows only on that origin.
   * file_url stays on PUBLIC_URL: it is stored and handed to Meta. A bucket ignores it.
   */
  origin?: string;
}

/**
 * Like S3's presigned PUT: send the bytes with `method` and `headers` to `upload_url`, then load them from `file_url`.
 * The URL uploads once: it never replaces a stored object (409 on the local disk; on S3 `If-None-Match: *` is signed in).
 */
export interface PresignedUploadTarget {
  upload_url: string;
  method: 'PUT';
  headers: { 'Content-Type': string; 'If-None-Match'?: '*' };
  file_url: string;
  /** ISO 8601. */
  expires_at: string;
}

export interface PutOptions {
  /** Refuse (MediaExistsError) rather than replace an object stored under the key; atomic. */
  createOnly?: boolean;
}

export interface MediaStorage {
  put(key: string, bytes: Buffer, contentType: string, options?: PutOptions): Promise<StoredMedia>;
  /** The plain URL of a key (what rows store; a private key's plain URL serves nothing). */
  url(key: string): string;
  /**
   * A URL a browser loads the object from without credentials (an <img>, a link): a private key's
   * (privateMedia.ts) carries a signature valid for about an hour; any other key's is the plain URL.
   */
  readUrl(key: string): string;
  /** The key of the object a URL this storage handed out names (url, file_url, readUrl; a query is ignored), or null for any other URL. */
  keyOfUrl(url: string): string | null;
  /** A URL the browser can PUT the object to directly, without its bearer token (the signature authorises it). */
  presignUpload(input: PresignUploadInput): Promise<PresignedUploadTarget>;
  /** null when there is no such object. */
  get(key: string): Promise<MediaObject | null>;
  /** Removes the object; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** The objects whose key starts with `prefix` and that were last written before `olderThan` (the unreferenced-upload sweeper). */
  list?(prefix: string, olderThan: Date): AsyncIterable<ListedMedia>;
  /** Rejects when the store cannot be reached or written (GET /api/ready/); absent = always reachable. */
  check?(): Promise<void>;
}

export interface ListedMedia {
  key: string;
  lastModified: Date;
  size: number;
}

/** The content types media may be stored and served with (never HTML, SVG or scripts). */
export const MEDIA_CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/**
 * Chat attachments: images, video, audio, PDF and common office documents. One extension per type
 * (the local disk derives the served type from the extension). Never HTML, SVG, XML or scripts.
 */
export const ATTACHMENT_CONTENT_TYPES: Record<string, string> = {
  ...MEDIA_CONTENT_TYPES,
  mp4: 'video/mp4',
  '3gp': 'video/3gpp',
  webm: 'video/webm',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  aac: 'audio/aac',
  m4a: 'audio/mp4',
  amr: 'audio/amr',
  wav: 'audio/wav',
  weba: 'audio/webm',
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  txt: 'text/plain',
  csv: 'text/csv',
};

export function extensionFor(contentType: string): string | undefined {
  return Object.entries(ATTACHMENT_CONTENT_TYPES).find(([, type]) => type === contentType)?.[0];
}

/**
 * Keys are relative paths of lower-case letters, digits, `-`, `_` and `.` segments ending in a
 * known extension (ATTACHMENT_CONTENT_TYPES), e.g. `avatars/12/3f9c….png`; no `..`, no leading `/`, no empty segment.
 */
const KEY_PATTERN = new RegExp(
  `^(?:[a-z0-9_-][a-z0-9._-]*\\/)*[a-z0-9_-][a-z0-9._-]*\\.(${Object.keys(ATTACHMENT_CONTENT_TYPES).join('|')})$`,
);

export function isValidMediaKey(key: string): boolean {
  return key.length <= 200 && KEY_PATTERN.test(key) && !key.split('/').some((segment) => segment === '.' || segment === '..' || segment.includes('..'));
}

export class InvalidMediaKeyError extends Error {
  constructor(key: string) {
    super(`invalid media key: ${JSON.stringify(key)}`);
    this.name = 'InvalidMediaKeyError';
  }
}

/** A create-only put found the key taken. */
export class MediaExistsError extends Error {
  constructor(key: string) {
    super(`media already stored under ${JSON.stringify(key)}`);
    this.name = 'MediaExistsError';
  }
}

/**
 * The key named by `url` when it is `base/<key>` (a query or fragment ignored) for one of `bases`
 * (absolute, or a same-origin path such as `/media`); null otherwise.
 */
export function keyUnderBase(url: string, bases: (string | null | undefined)[]): string | null {
  const path = url.replace(/[?#].*$/s, '');
  for (const base of bases) {
    if (!base) continue;
    const prefix = `${base.replace(/\/+$/, '')}/`;
    if (!path.startsWith(prefix)) continue;
    const key = path.slice(prefix.length);
    if (isValidMediaKey(key)) return key;
  }
  return null;
}

export function contentTypeOfKey(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1);
  return ATTACHMENT_CONTENT_TYPES[ext] ?? 'application/octet-stream';
}
