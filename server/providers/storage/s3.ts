/**
 * MediaStorage on an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2), spoken over plain HTTP with
 * our own SigV4 signer (sigv4.ts): PutObject, GetObject, DeleteObject, ListObjectsV2, and presigned
 * PUT URLs the browser uploads chat attachments to directly. Path-style (`endpoint/bucket/key`, MinIO
 * and most self-hosted stores) or virtual-hosted (`bucket.endpoint/key`, AWS's default) addressing.
 *
 * Object URLs handed to the console are `S3_PUBLIC_URL/key` when set (a CDN, a public bucket domain),
 * else the bucket's own URL; public objects (avatars) must be readable there. Private objects (chat
 * attachments, privateMedia.ts) are handed out as presigned GET URLs of the bucket, valid about an
 * hour: the bucket must not let anonymous readers get `chats/`.
 *
 * Writes are create-only when asked (`If-None-Match: *`, S3's conditional write: 412 when the key
 * exists), and presigned uploads always are: the header is signed into the URL, so it uploads once.
 */
import type { Clock } from '../../core/clock';
import { READ_URL_WINDOW_SECONDS, readUrlExpiry } from './presign';
import { isPrivateMediaKey } from './privateMedia';
import { EMPTY_SHA256, presignUrl, sha256Hex, signRequest, uriEncode } from './sigv4';
import {
  InvalidMediaKeyError,
  MediaExistsError,
  contentTypeOfKey,
  isValidMediaKey,
  keyUnderBase,
  type ListedMedia,
  type MediaObject,
  type MediaStorage,
  type PresignUploadInput,
  type PresignedUploadTarget,
  type PutOptions,
  type StoredMedia,
} from './types';

export interface S3Settings {
  bucket: string;
  region: string;
  /** `https://s3.{region}.amazonaws.com`, `http://minio:9000`, `https://<account>.r2.cloudflarestorage.com`. */
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `endpoint/bucket/key` rather than `bucket.endpoint-host/key`. */
  forcePathStyle: boolean;
  /** Base URL objects are read from (no trailing slash); null = the bucket URL. */
  publicUrl: string | null;
}

/** An error answer of the bucket (its XML `<Code>` and `<Message>`). */
export class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`S3 ${status} ${code}: ${message}`);
    this.name = 'S3Error';
  }
}

/** Decodes the five XML entities and numeric character references. */
export function xmlDecode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_m, entity: string) => {
    if (entity[0] === '#') return String.fromCodePoint(entity[1] === 'x' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[entity as 'amp']!;
  });
}

/** The decoded text of the first `<tag>` in `xml`, or null. */
export function xmlText(xml: string, tag: string): string | null {
  const m = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`).exec(xml);
  return m ? xmlDecode(m[1]) : null;
}

/** Every `<tag>…</tag>` body in `xml`. */
function xmlBlocks(xml: string, tag: string): string[] {
  return [...xml.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1]);
}

export interface ListPage {
  objects: ListedMedia[];
  nextContinuationToken: string | null;
}

/** Parses a ListObjectsV2 answer (ListBucketResult). */
export function parseListObjectsV2(xml: string): ListPage {
  const objects = xmlBlocks(xml, 'Contents').map((block) => ({
    key: xmlText(block, 'Key') ?? '',
    lastModified: new Date(xmlText(block, 'LastModified') ?? 0),
    size: Number(xmlText(block, 'Size') ?? 0),
  }));
  const truncated = xmlText(xml, 'IsTruncated') === 'true';
  return { objects, nextContinuationToken: truncated ? xmlText(xml, 'NextContinuationToken') : null };
}

export class S3MediaStorage implements MediaStorage {
  private readonly endpoint: URL;
  private readonly publicUrl: string | null;
  /** Keys per ListObjectsV2 page (S3's maximum is 1000). */
  listPageSize = 1000;

  constructor(
    private readonly settings: S3Settings,
    private readonly clock: Clock,
    private readonly fetchImpl: typeof fetch = (...args) => fetch(...args),
  ) {
    this.endpoint = new URL(settings.endpoint);
    this.publicUrl = settings.publicUrl ? settings.publicUrl.replace(/\/+$/, '') : null;
  }

  /** The bucket's base URL, without a trailing slash. */
  bucketUrl(): string {
    const base = this.endpoint.toString().replace(/\/+$/, '');
    if (this.settings.forcePathStyle) return `${base}/${uriEncode(this.settings.bucket)}`;
    const url = new URL(base);
    url.hostname = `${this.settings.bucket}.${url.hostname}`;
    return url.toString().replace(/\/+$/, '');
  }

  /** Origin the browser uploads to (for the console's connect-src). */
  uploadOrigin(): string {
    return new URL(this.bucketUrl()).origin;
  }

  /** Origin objects are read from (for the console's img-src/media-src). */
  fileOrigin(): string {
    return new URL(this.publicUrl ?? this.bucketUrl()).origin;
  }

  private objectUrl(key: string): string {
    return `${this.bucketUrl()}/${uriEncode(key, false)}`;
  }

  url(key: string): string {
    return this.publicUrl ? `${this.publicUrl}/${key}` : this.objectUrl(key);
  }

  /**
   * A private key: a presigned GET of the bucket, signed as of the start of the current window and
   * expiring at readUrlExpiry, so the URL stays the same (and cacheable) through the window.
   */
  readUrl(key: string): string {
    if (!isPrivateMediaKey(key)) return this.url(key);
    const now = this.clock.now();
    const windowMs = READ_URL_WINDOW_SECONDS * 1000;
    const signedAt = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
    const expiresInSeconds = readUrlExpiry(now) - signedAt.getTime() / 1000;
    return presignUrl({ ...this.settings, method: 'GET', url: this.objectUrl(key), expiresInSeconds, now: signedAt });
  }

  keyOfUrl(url: string): string | null {
    return keyUnderBase(url, [this.bucketUrl(), this.publicUrl]);
  }

  private async send(method: string, url: string, body?: Buffer, headers: Record<string, string> = {}): Promise<Response> {
    const signed = signRequest({
      ...this.settings,
      method,
      url,
      headers,
      payloadHash: body ? sha256Hex(body) : EMPTY_SHA256,
      now: this.clock.now(),
    });
    delete signed.host; // fetch sets it from the URL (the same value)
    return this.fetchImpl(url, { method, headers: signed, body: body ? new Uint8Array(body) : undefined, signal: AbortSignal.timeout(30_000) });
  }

  private async fail(response: Response): Promise<never> {
    const text = await response.text().catch(() => '');
    throw new S3Error(response.status, xmlText(text, 'Code') ?? String(response.status), xmlText(text, 'Message') ?? response.statusText);
  }

  async put(key: string, bytes: Buffer, contentType: string, options: PutOptions = {}): Promise<StoredMedia> {
    if (!isValidMediaKey(key)) throw new InvalidMediaKeyError(key);
    const headers: Record<string, string> = { 'content-type': contentType };
    if (options.createOnly) headers['if-none-match'] = '*';
    const response = await this.send('PUT', this.objectUrl(key), bytes, headers);
    // 412 PreconditionFailed: the key exists; 409 ConditionalRequestConflict: another write of it is under way.
    if (options.createOnly && (response.status === 412 || response.status === 409)) {
      await response.body?.cancel();
      throw new MediaExistsError(key);
    }
    if (!response.ok) await this.fail(response);
    await response.body?.cancel();
    return { key, url: this.url(key) };
  }

  async get(key: string): Promise<MediaObject | null> {
    if (!isValidMediaKey(key)) return null;
    const response = await this.send('GET', this.objectUrl(key));
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) await this.fail(response);
    const bytes = Buffer.from(await response.arrayBuffer());
    return { bytes, contentType: response.headers.get('content-type')?.split(';')[0].trim() || contentTypeOfKey(key) };
  }

  async delete(key: string): Promise<void> {
    if (!isValidMediaKey(key)) return;
    const response = await this.send('DELETE', this.objectUrl(key));
    // S3 answers 204 for a missing key too; some look-alikes answer 404.
    if (!response.ok && response.status !== 404) await this.fail(response);
    await response.body?.cancel();
  }

  async presignUpload({ key, contentType, expiresInSeconds }: PresignUploadInput): Promise<PresignedUploadTarget> {
    if (!isValidMediaKey(key)) throw new InvalidMediaKeyError(key);
    // A presigned PUT cannot cap the size (only a POST policy can); the Content-Type is signed, and
    // so is `If-None-Match: *`: the URL creates the object once and can never replace it.
    const now = this.clock.now();
    const upload = presignUrl({
      ...this.settings,
      method: 'PUT',
      url: this.objectUrl(key),
      headers: { 'content-type': contentType, 'if-none-match': '*' },
      expiresInSeconds,
      now,
    });
    const expires = Number(new URL(upload).searchParams.get('X-Amz-Expires'));
    return {
      upload_url: upload,
      method: 'PUT',
      headers: { 'Content-Type': contentType, 'If-None-Match': '*' },
      file_url: this.url(key),
      expires_at: new Date(Math.floor(now.getTime() / 1000) * 1000 + expires * 1000).toISOString(),
    };
  }

  /** The bucket answers a signed request with these credentials: a ListObjectsV2 of one key (what the sweeper already needs). */
  async check(): Promise<void> {
    await this.listPage('', null, 1);
  }

  /** One ListObjectsV2 page. */
  async listPage(prefix: string, continuationToken: string | null, maxKeys = 1000): Promise<ListPage> {
    const query = new URLSearchParams({ 'list-type': '2', prefix, 'max-keys': String(maxKeys) });
    if (continuationToken) query.set('continuation-token', continuationToken);
    // URLSearchParams writes spaces as `+`; SigV4 and S3 want %20.
    const url = `${this.bucketUrl()}?${[...query].map(([n, v]) => `${uriEncode(n)}=${uriEncode(v)}`).join('&')}`;
    const response = await this.send('GET', url);
    if (!response.ok) await this.fail(response);
    return parseListObjectsV2(await response.text());
  }

  async *list(prefix: string, olderThan: Date): AsyncIterable<ListedMedia> {
    let token: string | null = null;
    do {
      const page: ListPage = await this.listPage(prefix, token, this.listPageSize);
      for (const object of page.objects) if (object.lastModified < olderThan && object.key.startsWith(prefix)) yield object;
      token = page.nextContinuationToken;
    } while (token);
  }
}
