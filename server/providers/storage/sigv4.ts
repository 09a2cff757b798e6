/**
 * AWS Signature Version 4 for S3 (and S3-compatible stores: MinIO, Cloudflare R2), on node:crypto:
 * header auth (Authorization: AWS4-HMAC-SHA256 …, x-amz-content-sha256, x-amz-date) and presigned
 * URLs (query auth, X-Amz-*). The canonical request follows S3's rules: the path is URI-encoded
 * once per segment (not twice as for other services), the query sorted by encoded name then value,
 * header values trimmed with inner spaces collapsed.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-authenticating-requests.html
 */
import { createHash, createHmac } from 'node:crypto';

export const ALGORITHM = 'AWS4-HMAC-SHA256';
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
/** The longest validity of a presigned URL (7 days). */
export const MAX_PRESIGN_SECONDS = 604_800;

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface SigningScope extends Credentials {
  region: string;
  /** `s3` for S3 and its look-alikes. */
  service?: string;
}

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

/** RFC 3986 encoding as SigV4 wants it: unreserved characters as they are, everything else %XX (upper case), `/` kept in paths. */
export function uriEncode(value: string, encodeSlash = true): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(c) || (c === '/' && !encodeSlash)) out += c;
    else out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** Decodes %XX escapes, leaving a malformed escape as it is (S3 then fails the signature, not the server). */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** `20130524T000000Z` */
export function amzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/** Parses an `X-Amz-Date`; null when malformed. */
export function parseAmzDate(value: string): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!m) return null;
  const date = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The canonical URI of a raw (possibly percent-encoded) path: each segment decoded, then encoded once. */
export function canonicalUri(rawPath: string): string {
  const path = rawPath || '/';
  return path
    .split('/')
    .map((segment) => uriEncode(safeDecode(segment)))
    .join('/');
}

/** The canonical query string of a raw query (without `?`), optionally leaving one parameter out (X-Amz-Signature). */
export function canonicalQuery(rawQuery: string, omit?: string): string {
  const pairs: [string, string][] = [];
  for (const part of rawQuery.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const name = safeDecode(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : safeDecode(part.slice(eq + 1));
    if (name === omit) continue;
    pairs.push([uriEncode(name), uriEncode(value)]);
  }
  pairs.sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return pairs.map(([n, v]) => `${n}=${v}`).join('&');
}

function canonicalHeaderValue(value: string): string {
  return value.trim().replace(/\s+/g, ' ');
}

export interface CanonicalRequestInput {
  method: string;
  /** Raw path as sent on the wire (percent-encoded or not). */
  path: string;
  /** Raw query without `?`. */
  query: string;
  /** Header values by lower-case name; must hold every signed header. */
  headers: Record<string, string>;
  /** Lower-case names, sorted. */
  signedHeaders: string[];
  payloadHash: string;
  /** A query parameter left out of the canonical query (X-Amz-Signature when verifying a presigned URL). */
  omitQuery?: string;
}

export function canonicalRequest(input: CanonicalRequestInput): string {
  const headers = input.signedHeaders.map((name) => `${name}:${canonicalHeaderValue(input.headers[name] ?? '')}\n`).join('');
  return [
    input.method.toUpperCase(),
    canonicalUri(input.path),
    canonicalQuery(input.query, input.omitQuery),
    headers,
    input.signedHeaders.join(';'),
    input.payloadHash,
  ].join('\n');
}

/** `20130524/us-east-1/s3/aws4_request` */
export function credentialScope(date: Date, region: string, service = 's3'): string {
  return `${amzDate(date).slice(0, 8)}/${region}/${service}/aws4_request`;
}

export function stringToSign(date: Date, scope: string, canonical: string): string {
  return [ALGORITHM, amzDate(date), scope, sha256Hex(canonical)].join('\n');
}

export function signingKey(secretAccessKey: string, date: Date, region: string, service = 's3'): Buffer {
  const day = hmac(`AWS4${secretAccessKey}`, amzDate(date).slice(0, 8));
  return hmac(hmac(hmac(day, region), service), 'aws4_request');
}

/** The hex signature of a canonical request. */
export function signature(scope: SigningScope, date: Date, canonical: string): string {
  const service = scope.service ?? 's3';
  const toSign = stringToSign(date, credentialScope(date, scope.region, service), canonical);
  return createHmac('sha256', signingKey(scope.secretAccessKey, date, scope.region, service)).update(toSign, 'utf8').digest('hex');
}

function splitUrl(url: URL): { path: string; query: string } {
  return { path: url.pathname, query: url.search.replace(/^\?/, '') };
}

export interface SignRequestInput extends SigningScope {
  method: string;
  url: string | URL;
  /** Further headers to send and sign (content-type, range, …). */
  headers?: Record<string, string>;
  /** Hex SHA-256 of the body, or UNSIGNED_PAYLOAD. */
  payloadHash: string;
  now: Date;
}

/**
 * Header auth: returns the headers to send (the given ones, host, x-amz-date, x-amz-content-sha256
 * and authorization), every one of them signed.
 */
export function signRequest(input: SignRequestInput): Record<string, string> {
  const url = new URL(input.url);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers ?? {})) headers[name.toLowerCase()] = value;
  headers.host = url.host;
  headers['x-amz-date'] = amzDate(input.now);
  headers['x-amz-content-sha256'] = input.payloadHash;
  const signedHeaders = Object.keys(headers).sort();
  const canonical = canonicalRequest({ method: input.method, ...splitUrl(url), headers, signedHeaders, payloadHash: input.payloadHash });
  const scope = credentialScope(input.now, input.region, input.service);
  headers.authorization =
    `${ALGORITHM} Credential=${input.accessKeyId}/${scope}, SignedHeaders=${signedHeaders.join(';')}, ` +
    `Signature=${signature(input, input.now, canonical)}`;
  return headers;
}

export interface PresignInput extends SigningScope {
  method: string;
  url: string | URL;
  /** Headers the request must carry with exactly these values (content-type); host is always signed. */
  headers?: Record<string, string>;
  expiresInSeconds: number;
  now: Date;
}

/** Query auth: the URL with X-Amz-Algorithm, -Credential, -Date, -Expires, -SignedHeaders and -Signature; the payload is UNSIGNED-PAYLOAD. */
export function presignUrl(input: PresignInput): string {
  const url = new URL(input.url);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers ?? {})) headers[name.toLowerCase()] = value;
  headers.host = url.host;
  const signedHeaders = Object.keys(headers).sort();
  const expires = Math.min(MAX_PRESIGN_SECONDS, Math.max(1, Math.floor(input.expiresInSeconds)));
  const params: [string, string][] = [
    ['X-Amz-Algorithm', ALGORITHM],
    ['X-Amz-Credential', `${input.accessKeyId}/${credentialScope(input.now, input.region, input.service)}`],
    ['X-Amz-Date', amzDate(input.now)],
    ['X-Amz-Expires', String(expires)],
    ['X-Amz-SignedHeaders', signedHeaders.join(';')],
  ];
  const existing = url.search.replace(/^\?/, '');
  const query = [existing, ...params.map(([n, v]) => `${uriEncode(n)}=${uriEncode(v)}`)].filter(Boolean).join('&');
  const canonical = canonicalRequest({ method: input.method, path: url.pathname, query, headers, signedHeaders, payloadHash: UNSIGNED_PAYLOAD });
  url.search = `${query}&X-Amz-Signature=${signature(input, input.now, canonical)}`;
  return url.toString();
}

/** The parts of an `Authorization: AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…` header; null when malformed. */
export function parseAuthorization(value: string): { credential: string; signedHeaders: string[]; signature: string } | null {
  if (!value.startsWith(`${ALGORITHM} `)) return null;
  const fields = new Map<string, string>();
  for (const part of value.slice(ALGORITHM.length + 1).split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) fields.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const credential = fields.get('Credential');
  const signedHeaders = fields.get('SignedHeaders');
  const sig = fields.get('Signature');
  if (!credential || !signedHeaders || !sig) return null;
  return { credential, signedHeaders: signedHeaders.split(';'), signature: sig };
}
