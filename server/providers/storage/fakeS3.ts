/**
 * A local fake of S3 for tests: path-style buckets on 127.0.0.1 (PUT/GET/HEAD/DELETE objects,
 * ListObjectsV2), authenticating every request the way S3 does: SigV4 header auth (signed
 * x-amz-content-sha256 checked against the body, 15-minute clock skew) and presigned query auth
 * (X-Amz-Expires, signed headers such as Content-Type must match), with S3's XML error bodies
 * (SignatureDoesNotMatch, AccessDenied "Request has expired", NoSuchKey, NoSuchBucket, …), and
 * S3's conditional write: a PUT with `If-None-Match: *` onto an existing key is 412 PreconditionFailed.
 *
 * The request is canonicalised from the raw wire form (path, query, received headers), so a client
 * that signs something other than what it sends fails here as it would on AWS.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ALGORITHM,
  MAX_PRESIGN_SECONDS,
  UNSIGNED_PAYLOAD,
  amzDate,
  canonicalRequest,
  parseAmzDate,
  parseAuthorization,
  sha256Hex,
  signingKey,
  stringToSign,
} from './sigv4';

export interface FakeS3Object {
  bytes: Buffer;
  contentType: string;
  lastModified: Date;
  etag: string;
}

export interface FakeS3Options {
  accessKeyId?: string;
  secretAccessKey?: string;
  region?: string;
  buckets?: string[];
  /** Anonymous GETs of objects are allowed (a public bucket). */
  publicRead?: boolean;
  /** The server's time (expiry, clock skew, LastModified). */
  now?: () => Date;
  /** Largest accepted body. */
  maxBodyBytes?: number;
}

export interface FakeS3Request {
  method: string;
  path: string;
  status: number;
  code?: string;
  auth: 'header' | 'query' | 'anonymous';
}

export interface FakeS3 {
  /** `http://127.0.0.1:<port>`: the endpoint (path-style). */
  url: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** Objects by `bucket/key`. */
  objects: Map<string, FakeS3Object>;
  requests: FakeS3Request[];
  object(bucket: string, key: string): FakeS3Object | undefined;
  /** Ages an object (the sweeper's tests). */
  setLastModified(bucket: string, key: string, date: Date): void;
  close(): Promise<void>;
}

class S3Failure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, string> = {},
  ) {
    super(message);
  }
}

function xmlEscape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

function errorXml(failure: S3Failure, resource: string, requestId: string): string {
  const extra = Object.entries(failure.extra)
    .map(([tag, value]) => `<${tag}>${xmlEscape(value)}</${tag}>`)
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${failure.code}</Code><Message>${xmlEscape(failure.message)}</Message>${extra}` +
    `<Resource>${xmlEscape(resource)}</Resource><RequestId>${requestId}</RequestId></Error>`
  );
}

function signatureMatches(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The received headers by lower-case name (repeated headers joined by `,` as S3 does). */
function headerMap(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i].toLowerCase();
    const value = request.rawHeaders[i + 1];
    headers[name] = name in headers ? `${headers[name]},${value}` : value;
  }
  return headers;
}

function decodeQuery(raw: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const part of raw.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    };
    params.set(decode(eq < 0 ? part : part.slice(0, eq)), eq < 0 ? '' : decode(part.slice(eq + 1)));
  }
  return params;
}

export async function startFakeS3(options: FakeS3Options = {}): Promise<FakeS3> {
  const accessKeyId = options.accessKeyId ?? 'AKIAFAKES3EXAMPLE';
  const secretAccessKey = options.secretAccessKey ?? 'fake/s3/secret/key/for/tests/only/0123456789';
  const region = options.region ?? 'us-east-1';
  const buckets = new Set(options.buckets ?? ['media']);
  const now = options.now ?? (() => new Date());
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024 * 1024;
  const objects = new Map<string, FakeS3Object>();
  const requests: FakeS3Request[] = [];

  /** Checks a credential scope `AK/yyyymmdd/region/s3/aws4_request` against the request date. */
  function checkCredential(credential: string, date: Date, queryAuth: boolean): void {
    const [key, day, scopeRegion, service, terminal, ...rest] = credential.split('/');
    const malformed = queryAuth ? 'AuthorizationQueryParametersError' : 'AuthorizationHeaderMalformed';
    if (!key || !day || !scopeRegion || service !== 's3' || terminal !== 'aws4_request' || rest.length) {
      throw new S3Failure(400, malformed, 'Error parsing the Credential parameter.');
    }
    if (key !== accessKeyId) throw new S3Failure(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', { AWSAccessKeyId: key });
    if (scopeRegion !== region) throw new S3Failure(400, malformed, `The authorization header is malformed; the region '${scopeRegion}' is wrong; expecting '${region}'`, { Region: region });
    if (day !== amzDate(date).slice(0, 8)) throw new S3Failure(400, malformed, `Invalid credential date. Date is not the same as X-Amz-Date: "${day}".`);
  }

  function verify(method: string, rawPath: string, rawQuery: string, headers: Record<string, string>, signedHeaders: string[], payloadHash: string, date: Date, given: string, omitQuery?: string): void {
    if (!signedHeaders.includes('host')) throw new S3Failure(403, 'AccessDenied', 'The host header must be signed.');
    for (const name of signedHeaders) {
      if (!(name in headers)) throw new S3Failure(403, 'SignatureDoesNotMatch', `The signed header ${name} is missing from the request.`);
    }
    const canonical = canonicalRequest({ method, path: rawPath, query: rawQuery, headers, signedHeaders: [...signedHeaders].sort(), payloadHash, omitQuery });
    const scope = `${amzDate(date).slice(0, 8)}/${region}/s3/aws4_request`;
    const toSign = stringToSign(date, scope, canonical);
    const expected = createHmac('sha256', signingKey(secretAccessKey, date, region)).update(toSign, 'utf8').digest('hex');
    if (!signatureMatches(expected, given)) {
      throw new S3Failure(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.', {
        AWSAccessKeyId: accessKeyId,
        StringToSign: toSign,
        SignatureProvided: given,
        CanonicalRequest: canonical,
      });
    }
  }

  /** Authenticates the request; returns how. */
  function authenticate(request: IncomingMessage, rawPath: string, rawQuery: string, body: Buffer, anonymousAllowed: boolean): FakeS3Request['auth'] {
    const method = request.method ?? 'GET';
    const headers = headerMap(request);
    const query = decodeQuery(rawQuery);
    const current = now();

    if (query.has('X-Amz-Algorithm') || query.has('X-Amz-Signature')) {
      if (query.get('X-Amz-Algorithm') !== ALGORITHM) throw new S3Failure(400, 'AuthorizationQueryParametersError', 'X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"');
      const credential = query.get('X-Amz-Credential');
      const date = parseAmzDate(query.get('X-Amz-Date') ?? '');
      const expiresRaw = query.get('X-Amz-Expires') ?? '';
      const signedHeaders = query.get('X-Amz-SignedHeaders');
      const given = query.get('X-Amz-Signature');
      if (!credential || !date || !signedHeaders || !given || !/^\d+$/.test(expiresRaw)) {
        throw new S3Failure(400, 'AuthorizationQueryParametersError', 'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.');
      }
      const expires = Number(expiresRaw);
      if (expires > MAX_PRESIGN_SECONDS) throw new S3Failure(400, 'AuthorizationQueryParametersError', 'X-Amz-Expires must be less than a week (in seconds) that is 604800');
      checkCredential(credential, date, true);
      const payloadHash = headers['x-amz-content-sha256'] ?? UNSIGNED_PAYLOAD;
      verify(method, rawPath, rawQuery, headers, signedHeaders.split(';'), payloadHash, date, given, 'X-Amz-Signature');
      if (current.getTime() > date.getTime() + expires * 1000) {
        throw new S3Failure(403, 'AccessDenied', 'Request has expired', { 'X-Amz-Expires': String(expires), Expires: new Date(date.getTime() + expires * 1000).toISOString(), ServerTime: current.toISOString() });
      }
      if (date.getTime() - current.getTime() > 15 * 60_000) throw new S3Failure(403, 'AccessDenied', 'Request is not valid yet');
      return 'query';
    }

    const authorization = headers.authorization;
    if (authorization) {
      const parsed = parseAuthorization(authorization);
      if (!parsed) throw new S3Failure(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
      const date = parseAmzDate(headers['x-amz-date'] ?? '');
      if (!date) throw new S3Failure(403, 'AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header');
      checkCredential(parsed.credential, date, false);
      const payloadHash = headers['x-amz-content-sha256'];
      if (!payloadHash) throw new S3Failure(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
      if (payloadHash !== UNSIGNED_PAYLOAD && !/^[0-9a-f]{64}$/.test(payloadHash)) throw new S3Failure(400, 'InvalidArgument', 'x-amz-content-sha256 must be UNSIGNED-PAYLOAD or a valid sha256 value.');
      const unsigned = Object.keys(headers).filter((name) => name.startsWith('x-amz-') && !parsed.signedHeaders.includes(name));
      if (unsigned.length) throw new S3Failure(403, 'AccessDenied', 'There were headers present in the request which were not signed', { HeadersNotSigned: unsigned.join(', ') });
      verify(method, rawPath, rawQuery, headers, parsed.signedHeaders, payloadHash, date, parsed.signature);
      if (Math.abs(current.getTime() - date.getTime()) > 15 * 60_000) {
        throw new S3Failure(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.', { RequestTime: amzDate(date), ServerTime: current.toISOString() });
      }
      if (payloadHash !== UNSIGNED_PAYLOAD && payloadHash !== sha256Hex(body)) {
        throw new S3Failure(400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.", { ClientComputedContentSHA256: payloadHash, S3ComputedContentSHA256: sha256Hex(body) });
      }
      return 'header';
    }

    if (anonymousAllowed) return 'anonymous';
    throw new S3Failure(403, 'AccessDenied', 'Access Denied');
  }

  function listObjectsV2(bucket: string, query: Map<string, string>): string {
    const prefix = query.get('prefix') ?? '';
    const maxKeys = Math.min(1000, Math.max(0, Number(query.get('max-keys') ?? 1000) || 0));
    const token = query.get('continuation-token');
    let after = query.get('start-after') ?? '';
    if (token) {
      after = Buffer.from(token, 'base64url').toString('utf8');
      if (!after) throw new S3Failure(400, 'InvalidArgument', 'The continuation token provided is incorrect');
    }
    const keys = [...objects.keys()]
      .filter((id) => id.startsWith(`${bucket}/`))
      .map((id) => id.slice(bucket.length + 1))
      .filter((key) => key.startsWith(prefix) && key > after)
      .sort();
    const page = keys.slice(0, maxKeys);
    const truncated = keys.length > page.length;
    const contents = page
      .map((key) => {
        const object = objects.get(`${bucket}/${key}`)!;
        return (
          `<Contents><Key>${xmlEscape(key)}</Key><LastModified>${object.lastModified.toISOString()}</LastModified>` +
          `<ETag>&quot;${object.etag}&quot;</ETag><Size>${object.bytes.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`
        );
      })
      .join('');
    const next = truncated ? `<NextContinuationToken>${Buffer.from(page[page.length - 1], 'utf8').toString('base64url')}</NextContinuationToken>` : '';
    return (
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${xmlEscape(bucket)}</Name><Prefix>${xmlEscape(prefix)}</Prefix>` +
      `<KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>` +
      (token ? `<ContinuationToken>${xmlEscape(token)}</ContinuationToken>` : '') +
      `${contents}${next}</ListBucketResult>`
    );
  }

  async function readBody(request: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size > maxBodyBytes) throw new S3Failure(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed object size.');
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const requestId = randomBytes(8).toString('hex').toUpperCase();
    const raw = request.url ?? '/';
    const q = raw.indexOf('?');
    const rawPath = q < 0 ? raw : raw.slice(0, q);
    const rawQuery = q < 0 ? '' : raw.slice(q + 1);
    const method = request.method ?? 'GET';
    const log: FakeS3Request = { method, path: rawPath, status: 200, auth: 'anonymous' };
    requests.push(log);
    let resource = rawPath;
    try {
      const segments = rawPath.split('/').slice(1);
      const bucket = decodeURIComponent(segments[0] ?? '');
      const key = segments.slice(1).map(decodeURIComponent).join('/');
      resource = key ? `/${bucket}/${key}` : `/${bucket}`;
      const body = await readBody(request);
      log.auth = authenticate(request, rawPath, rawQuery, body, !!options.publicRead && key !== '' && (method === 'GET' || method === 'HEAD'));
      if (!bucket) throw new S3Failure(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
      if (!buckets.has(bucket)) throw new S3Failure(404, 'NoSuchBucket', 'The specified bucket does not exist', { BucketName: bucket });
      const id = `${bucket}/${key}`;

      if (!key) {
        const query = decodeQuery(rawQuery);
        if (method !== 'GET') throw new S3Failure(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
        if (query.get('list-type') !== '2') throw new S3Failure(501, 'NotImplemented', 'Only ListObjectsV2 (list-type=2) is implemented by this fake.');
        response.writeHead(200, { 'content-type': 'application/xml', 'x-amz-request-id': requestId });
        response.end(listObjectsV2(bucket, query));
        return;
      }

      if (method === 'PUT') {
        const ifNoneMatch = request.headers['if-none-match'];
        if (ifNoneMatch !== undefined) {
          // S3 supports only `*` here (create if absent); anything else is NotImplemented.
          if (ifNoneMatch.trim() !== '*') throw new S3Failure(501, 'NotImplemented', 'A header you provided implies functionality that is not implemented', { Header: 'If-None-Match' });
          if (objects.has(id)) throw new S3Failure(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', { Condition: 'If-None-Match' });
        }
        const object: FakeS3Object = {
          bytes: body,
          contentType: (request.headers['content-type'] ?? 'binary/octet-stream').trim(),
          lastModified: now(),
          etag: createHash('md5').update(body).digest('hex'),
        };
        objects.set(id, object);
        response.writeHead(200, { etag: `"${object.etag}"`, 'x-amz-request-id': requestId });
        response.end();
        return;
      }
      if (method === 'GET' || method === 'HEAD') {
        const object = objects.get(id);
        if (!object) throw new S3Failure(404, 'NoSuchKey', 'The specified key does not exist.', { Key: key });
        response.writeHead(200, {
          'content-type': object.contentType,
          'content-length': object.bytes.length,
          etag: `"${object.etag}"`,
          'last-modified': object.lastModified.toUTCString(),
          'x-amz-request-id': requestId,
        });
        response.end(method === 'HEAD' ? undefined : object.bytes);
        return;
      }
      if (method === 'DELETE') {
        objects.delete(id);
        response.writeHead(204, { 'x-amz-request-id': requestId });
        response.end();
        return;
      }
      throw new S3Failure(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    } catch (err) {
      const failure = err instanceof S3Failure ? err : new S3Failure(500, 'InternalError', String(err));
      log.status = failure.status;
      log.code = failure.code;
      const xml = errorXml(failure, resource, requestId);
      response.writeHead(failure.status, { 'content-type': 'application/xml', 'x-amz-request-id': requestId });
      response.end(method === 'HEAD' ? undefined : xml);
      return;
    } finally {
      if (log.status === 200 && response.statusCode !== 200) log.status = response.statusCode;
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((err) => {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    accessKeyId,
    secretAccessKey,
    region,
    objects,
    requests,
    object: (bucket, key) => objects.get(`${bucket}/${key}`),
    setLastModified(bucket, key, date) {
      const object = objects.get(`${bucket}/${key}`);
      if (!object) throw new Error(`no object ${bucket}/${key}`);
      object.lastModified = date;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
