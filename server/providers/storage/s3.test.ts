import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PresignedUpload } from '../../../contract/chats';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { ManualClock } from '../../core/clock';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { contentSecurityPolicy } from '../../core/app';
import { loadConfig, s3Config, type AppConfig, type S3Config } from '../../core/config';
import { startFakeS3, type FakeS3 } from './fakeS3';
import { S3Error, S3MediaStorage, parseListObjectsV2, xmlText } from './s3';
import { MediaExistsError } from './types';
import { EMPTY_SHA256, amzDate, canonicalRequest, presignUrl, sha256Hex, signRequest, uriEncode } from './sigv4';

/** AWS's documented example credentials and time (Signature V4 for S3, "Examples"). */
const AWS_EXAMPLE = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
  now: new Date('2013-05-24T00:00:00Z'),
};

describe('SigV4 signer against AWS documented examples', () => {
  it('GET Object with header auth (Range)', () => {
    const headers = signRequest({
      ...AWS_EXAMPLE,
      method: 'GET',
      url: 'https://examplebucket.s3.amazonaws.com/test.txt',
      headers: { Range: 'bytes=0-9' },
      payloadHash: EMPTY_SHA256,
    });
    const canonical = canonicalRequest({
      method: 'GET',
      path: '/test.txt',
      query: '',
      headers,
      signedHeaders: ['host', 'range', 'x-amz-content-sha256', 'x-amz-date'],
      payloadHash: EMPTY_SHA256,
    });
    expect(canonical).toBe(
      [
        'GET',
        '/test.txt',
        '',
        'host:examplebucket.s3.amazonaws.com',
        'range:bytes=0-9',
        `x-amz-content-sha256:${EMPTY_SHA256}`,
        'x-amz-date:20130524T000000Z',
        '',
        'host;range;x-amz-content-sha256;x-amz-date',
        EMPTY_SHA256,
      ].join('\n'),
    );
    expect(sha256Hex(canonical)).toBe('7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972');
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, ' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
    expect(headers['x-amz-date']).toBe('20130524T000000Z');
  });

  it('PUT Object with a signed payload and a `$` in the key', () => {
    const headers = signRequest({
      ...AWS_EXAMPLE,
      method: 'PUT',
      url: 'https://examplebucket.s3.amazonaws.com/test$file.text',
      headers: { Date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY' },
      payloadHash: sha256Hex('Welcome to Amazon S3.'),
    });
    expect(headers['x-amz-content-sha256']).toBe('44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072');
    expect(headers.authorization).toContain('SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,');
    expect(headers.authorization).toMatch(/Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd$/);
  });

  it('GET Bucket (List Objects) with a sorted query', () => {
    const headers = signRequest({ ...AWS_EXAMPLE, method: 'GET', url: 'https://examplebucket.s3.amazonaws.com/?max-keys=2&prefix=J', payloadHash: EMPTY_SHA256 });
    expect(headers.authorization).toMatch(/Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7$/);
  });

  it('a presigned GET URL', () => {
    const url = presignUrl({ ...AWS_EXAMPLE, method: 'GET', url: 'https://examplebucket.s3.amazonaws.com/test.txt', expiresInSeconds: 86400 });
    expect(url).toBe(
      'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256' +
        '&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z' +
        '&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    );
  });

  it('encodes like S3 (RFC 3986, slashes kept in paths)', () => {
    expect(uriEncode('chats/1/a b/ü+x.png', false)).toBe('chats/1/a%20b/%C3%BC%2Bx.png');
    expect(uriEncode('a/b~c_d-e.f')).toBe('a%2Fb~c_d-e.f');
    expect(amzDate(new Date('2026-01-02T03:04:05.678Z'))).toBe('20260102T030405Z');
  });
});

describe('ListObjectsV2 XML', () => {
  it('parses keys (entities decoded), dates, sizes and the continuation token', () => {
    const page = parseListObjectsV2(`<?xml version="1.0" encoding="UTF-8"?>
      <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix>chats/</Prefix><KeyCount>2</KeyCount>
      <MaxKeys>2</MaxKeys><IsTruncated>true</IsTruncated>
      <Contents><Key>chats/1/a&amp;b.png</Key><LastModified>2026-01-02T03:04:05.000Z</LastModified><ETag>&quot;x&quot;</ETag><Size>12</Size></Contents>
      <Contents><Key>chats/2/c.png</Key><LastModified>2026-01-03T00:00:00.000Z</LastModified><Size>3</Size></Contents>
      <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken></ListBucketResult>`);
    expect(page).toEqual({
      objects: [
        { key: 'chats/1/a&b.png', lastModified: new Date('2026-01-02T03:04:05.000Z'), size: 12 },
        { key: 'chats/2/c.png', lastModified: new Date('2026-01-03T00:00:00.000Z'), size: 3 },
      ],
      nextContinuationToken: '1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=',
    });
    expect(parseListObjectsV2('<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>')).toEqual({ objects: [], nextContinuationToken: null });
  });
});

describe('S3 configuration', () => {
  const creds = { S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'AK', S3_SECRET_ACCESS_KEY: 'SK' };
  it('is off without S3_BUCKET and fails fast without credentials', () => {
    expect(s3Config({})).toBeNull();
    expect(() => s3Config({ S3_BUCKET: 'media' })).toThrow('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required with S3_BUCKET');
    expect(() => s3Config({ S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'AK' })).toThrow(/S3_SECRET_ACCESS_KEY/);
  });
  it('defaults to AWS, virtual-hosted', () => {
    expect(s3Config(creds)).toEqual({
      bucket: 'media',
      region: 'us-east-1',
      endpoint: 'https://s3.us-east-1.amazonaws.com',
      accessKeyId: 'AK',
      secretAccessKey: 'SK',
      forcePathStyle: false,
      publicUrl: null,
    });
    expect(s3Config({ ...creds, S3_REGION: 'eu-west-3' })?.endpoint).toBe('https://s3.eu-west-3.amazonaws.com');
  });
  it('is read by loadConfig, with the sweeper interval', () => {
    const env = { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'console-s3-')), JWT_SECRET: 'x'.repeat(40) };
    expect(loadConfig(env)).toMatchObject({ s3: null, mediaSweepIntervalMs: 3600_000 });
    expect(loadConfig({ ...env, ...creds, MEDIA_SWEEP_INTERVAL_MS: '0' })).toMatchObject({ s3: { bucket: 'media' }, mediaSweepIntervalMs: 0 });
    expect(() => loadConfig({ ...env, S3_BUCKET: 'media' })).toThrow(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required/);
    expect(() => loadConfig({ ...env, MEDIA_SWEEP_INTERVAL_MS: '-1' })).toThrow(/MEDIA_SWEEP_INTERVAL_MS/);
  });
  it('uses path style with a custom endpoint unless told otherwise', () => {
    const minio = s3Config({ ...creds, S3_ENDPOINT: 'http://minio:9000/', S3_PUBLIC_URL: 'https://cdn.example.com/media/' });
    expect(minio).toMatchObject({ endpoint: 'http://minio:9000', forcePathStyle: true, publicUrl: 'https://cdn.example.com/media' });
    expect(s3Config({ ...creds, S3_ENDPOINT: 'https://acc.r2.cloudflarestorage.com', S3_REGION: 'auto', S3_FORCE_PATH_STYLE: 'false' })).toMatchObject({ forcePathStyle: false, region: 'auto' });
    expect(() => s3Config({ ...creds, S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT/);
    expect(() => s3Config({ ...creds, S3_PUBLIC_URL: 'ftp://x' })).toThrow(/S3_PUBLIC_URL/);
  });
});

describe('S3MediaStorage URLs', () => {
  const base: S3Config = { bucket: 'media', region: 'eu-west-1', endpoint: 'https://s3.eu-west-1.amazonaws.com', accessKeyId: 'AK', secretAccessKey: 'SK', forcePathStyle: false, publicUrl: null };
  const clock = new ManualClock(new Date('2026-03-01T12:00:00Z'));

  it('virtual-hosted by default, path style when forced, S3_PUBLIC_URL for reading', async () => {
    const aws = new S3MediaStorage(base, clock);
    expect(aws.url('chats/1/ab/x.y.png')).toBe('https://media.s3.eu-west-1.amazonaws.com/chats/1/ab/x.y.png');
    expect(aws.uploadOrigin()).toBe('https://media.s3.eu-west-1.amazonaws.com');
    const target = await aws.presignUpload({ key: 'chats/1/ab/x.y.png', contentType: 'image/png', maxBytes: 10, expiresInSeconds: 900 });
    const url = new URL(target.upload_url);
    expect(url.origin + url.pathname).toBe('https://media.s3.eu-west-1.amazonaws.com/chats/1/ab/x.y.png');
    expect(Object.fromEntries([...url.searchParams].filter(([n]) => n !== 'X-Amz-Signature'))).toEqual({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': 'AK/20260301/eu-west-1/s3/aws4_request',
      'X-Amz-Date': '20260301T120000Z',
      'X-Amz-Expires': '900',
      'X-Amz-SignedHeaders': 'content-type;host;if-none-match',
    });
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(target).toMatchObject({ method: 'PUT', headers: { 'Content-Type': 'image/png', 'If-None-Match': '*' }, expires_at: '2026-03-01T12:15:00.000Z' });

    // A chat attachment is read through a presigned GET, signed as of the window start (a stable URL), valid 1 h to 1 h 15.
    const read = new URL(aws.readUrl('chats/1/ab/x.y.png'));
    expect(read.origin + read.pathname).toBe('https://media.s3.eu-west-1.amazonaws.com/chats/1/ab/x.y.png');
    expect(read.searchParams.get('X-Amz-Date')).toBe('20260301T120000Z');
    expect(read.searchParams.get('X-Amz-Expires')).toBe('3600');
    expect(read.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    clock.advance(7 * 60_000);
    const later = new URL(aws.readUrl('chats/1/ab/x.y.png'));
    expect(later.searchParams.get('X-Amz-Date')).toBe('20260301T120000Z');
    expect(later.searchParams.get('X-Amz-Expires')).toBe('4500');
    expect(aws.readUrl('chats/1/ab/x.y.png')).toBe(later.toString());
    clock.advance(-7 * 60_000);
    // Public objects (avatars) are read at their plain URL.
    expect(aws.readUrl('avatars/1/a.png')).toBe('https://media.s3.eu-west-1.amazonaws.com/avatars/1/a.png');
    expect(aws.keyOfUrl('https://media.s3.eu-west-1.amazonaws.com/chats/1/ab/x.y.png?X-Amz-Signature=0')).toBe('chats/1/ab/x.y.png');
    expect(aws.keyOfUrl('https://elsewhere.example.com/chats/1/ab/x.y.png')).toBeNull();
    expect(aws.keyOfUrl('/media/chats/1/ab/x.y.png')).toBeNull();

    const minio = new S3MediaStorage({ ...base, endpoint: 'http://minio:9000', forcePathStyle: true }, clock);
    expect(minio.url('a/b.png')).toBe('http://minio:9000/media/a/b.png');
    expect(minio.uploadOrigin()).toBe('http://minio:9000');

    const cdn = new S3MediaStorage({ ...base, publicUrl: 'https://cdn.example.com/m/' }, clock);
    expect(cdn.url('a/b.png')).toBe('https://cdn.example.com/m/a/b.png');
    expect(cdn.fileOrigin()).toBe('https://cdn.example.com');
    expect((await cdn.presignUpload({ key: 'a/b.png', contentType: 'image/png', maxBytes: 1, expiresInSeconds: 60 })).file_url).toBe('https://cdn.example.com/m/a/b.png');
    // Private objects are read from the bucket itself (a CDN URL cannot carry the bucket's signature).
    expect(cdn.readUrl('chats/1/ab/c.png').startsWith('https://media.s3.eu-west-1.amazonaws.com/chats/1/ab/c.png?X-Amz-')).toBe(true);
    expect(cdn.keyOfUrl('https://cdn.example.com/m/chats/1/ab/c.png')).toBe('chats/1/ab/c.png');
    expect(cdn.keyOfUrl('https://media.s3.eu-west-1.amazonaws.com/chats/1/ab/c.png')).toBe('chats/1/ab/c.png');
  });
});

describe('the CSP with a bucket', () => {
  it('allows media from S3_PUBLIC_URL (public objects) and from the bucket (signed chat attachments)', () => {
    const s3: S3Config = { bucket: 'media', region: 'eu-west-1', endpoint: 'https://s3.eu-west-1.amazonaws.com', accessKeyId: 'AK', secretAccessKey: 'SK', forcePathStyle: false, publicUrl: 'https://cdn.example.com' };
    const csp = contentSecurityPolicy({ s3 } as AppConfig);
    expect(csp.mediaSrc).toEqual(["'self'", 'https://cdn.example.com', 'https://media.s3.eu-west-1.amazonaws.com']);
    expect(csp.imgSrc).toContain('https://media.s3.eu-west-1.amazonaws.com');
    expect(contentSecurityPolicy({ s3: { ...s3, publicUrl: null } } as AppConfig).mediaSrc).toEqual(["'self'", 'https://media.s3.eu-west-1.amazonaws.com']);
  });
});

describe('S3MediaStorage against the fake S3', () => {
  let fake: FakeS3;
  let serverNow = new Date();
  const clock = new ManualClock();
  const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('image bytes')]);

  function settings(overrides: Partial<S3Config> = {}): S3Config {
    return { bucket: 'media', region: fake.region, endpoint: fake.url, accessKeyId: fake.accessKeyId, secretAccessKey: fake.secretAccessKey, forcePathStyle: true, publicUrl: null, ...overrides };
  }

  beforeAll(async () => {
    fake = await startFakeS3({ buckets: ['media', 'other'], now: () => serverNow });
  });
  afterAll(() => fake.close());
  afterEach(() => {
    serverNow = new Date();
    fake.objects.clear();
  });

  it('puts, gets and deletes objects, keys with slashes and dots included', async () => {
    const storage = new S3MediaStorage(settings(), clock);
    for (const key of ['avatars/7/k.png', 'chats/12/0f0e/my.holiday.photo-1_2.jpg', 'x.pdf']) {
      const contentType = key.endsWith('.pdf') ? 'application/pdf' : key.endsWith('.jpg') ? 'image/jpeg' : 'image/png';
      expect(await storage.put(key, PNG, contentType)).toEqual({ key, url: `${fake.url}/media/${key}` });
      expect(fake.object('media', key)).toMatchObject({ bytes: PNG, contentType });
      expect(await storage.get(key)).toEqual({ bytes: PNG, contentType });
      await storage.delete(key);
      await storage.delete(key); // missing: no error
      expect(await storage.get(key)).toBeNull();
    }
    expect(fake.requests.every((r) => r.auth === 'header')).toBe(true);
    expect(fake.requests.filter((r) => r.status >= 400).map((r) => r.code)).toEqual(['NoSuchKey', 'NoSuchKey', 'NoSuchKey']);
    await expect(storage.put('../escape.png', PNG, 'image/png')).rejects.toThrow(/invalid media key/);
    expect(await storage.get('../escape.png')).toBeNull();
  });

  it('refuses a wrong secret, an unknown key id, a wrong region and a skewed clock', async () => {
    const cases: [Partial<S3Config>, string][] = [
      [{ secretAccessKey: 'not-the-secret' }, 'SignatureDoesNotMatch'],
      [{ accessKeyId: 'AKIAUNKNOWN' }, 'InvalidAccessKeyId'],
      [{ region: 'eu-central-1' }, 'AuthorizationHeaderMalformed'],
    ];
    for (const [overrides, code] of cases) {
      const storage = new S3MediaStorage(settings(overrides), clock);
      const err = await storage.put('a/b.png', PNG, 'image/png').catch((e: unknown) => e);
      expect(err, code).toBeInstanceOf(S3Error);
      expect((err as S3Error).code).toBe(code);
      // A refused GET is an error, not a missing object.
      await expect(storage.get('a/b.png')).rejects.toThrow(code);
    }
    serverNow = new Date(Date.now() + 20 * 60_000);
    await expect(new S3MediaStorage(settings(), clock).put('a/b.png', PNG, 'image/png')).rejects.toThrow(/RequestTimeTooSkewed/);
    expect(fake.objects.size).toBe(0);
  });

  it('checks the signed payload hash and refuses unsigned x-amz headers', async () => {
    const url = `${fake.url}/media/a/b.png`;
    const headers = signRequest({ ...settings(), method: 'PUT', url, headers: { 'content-type': 'image/png' }, payloadHash: sha256Hex(PNG), now: new Date() });
    delete headers.host;
    const swapped = await fetch(url, { method: 'PUT', headers, body: Buffer.from('other bytes') });
    expect(swapped.status).toBe(400);
    expect(xmlText(await swapped.text(), 'Code')).toBe('XAmzContentSHA256Mismatch');
    const extra = await fetch(url, { method: 'PUT', headers: { ...headers, 'x-amz-acl': 'public-read' }, body: PNG });
    expect(extra.status).toBe(403);
    expect(xmlText(await extra.text(), 'Code')).toBe('AccessDenied');
    const anonymous = await fetch(url, { method: 'PUT', body: PNG });
    expect(anonymous.status).toBe(403);
    expect(fake.objects.size).toBe(0);
    const ok = await fetch(url, { method: 'PUT', headers, body: PNG });
    expect(ok.status).toBe(200);
  });

  it('a presigned PUT from a plain fetch stores the bytes, then GET returns them', async () => {
    const storage = new S3MediaStorage(settings(), clock);
    const key = 'chats/3/0123456789abcdef/report.v2.final.pdf';
    const target = await storage.presignUpload({ key, contentType: 'application/pdf', maxBytes: 1024, expiresInSeconds: 900 });
    expect(target.upload_url.startsWith(`${fake.url}/media/${key}?`)).toBe(true);
    expect(target.file_url).toBe(`${fake.url}/media/${key}`);
    const put = await fetch(target.upload_url, { method: target.method, headers: target.headers, body: PNG });
    expect(put.status, await put.clone().text()).toBe(200);
    expect(fake.requests.at(-1)?.auth).toBe('query');
    expect(await storage.get(key)).toEqual({ bytes: PNG, contentType: 'application/pdf' });
  });

  it('refuses a presigned PUT with another content type, expired, or tampered, and stores nothing', async () => {
    const storage = new S3MediaStorage(settings(), clock);
    const key = 'chats/3/aa/photo.png';
    const target = await storage.presignUpload({ key, contentType: 'image/png', maxBytes: 1024, expiresInSeconds: 900 });
    const put = async (url: string, headers: Record<string, string> = target.headers) => {
      const res = await fetch(url, { method: 'PUT', headers, body: PNG });
      const text = await res.text();
      return { status: res.status, code: xmlText(text, 'Code'), message: xmlText(text, 'Message') };
    };

    for (const headers of [{ 'Content-Type': 'text/html' }, { 'Content-Type': 'image/jpeg' }, {}] as Record<string, string>[]) {
      expect(await put(target.upload_url, headers), JSON.stringify(headers)).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    }
    const sig = new URL(target.upload_url).searchParams.get('X-Amz-Signature')!;
    const tampered = [
      target.upload_url.replace(sig, (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1)),
      target.upload_url.replace('X-Amz-Expires=900', 'X-Amz-Expires=3600'),
      target.upload_url.replace('/photo.png', '/other.png'),
      target.upload_url.replace('/media/', '/other/'),
      target.upload_url.replace(/X-Amz-Date=\d{8}T\d{6}Z/, `X-Amz-Date=${amzDate(new Date(Date.now() + 60_000))}`),
    ];
    for (const url of tampered) expect(await put(url), url).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(await put(target.upload_url.replace(/&X-Amz-Signature=[0-9a-f]+/, ''))).toMatchObject({ status: 400, code: 'AuthorizationQueryParametersError' });

    serverNow = new Date(Date.now() + 901_000);
    expect(await put(target.upload_url)).toEqual({ status: 403, code: 'AccessDenied', message: 'Request has expired' });
    expect(fake.objects.size).toBe(0);

    serverNow = new Date();
    expect((await put(target.upload_url)).status).toBe(200);
    expect(fake.object('media', key)?.contentType).toBe('image/png');
  });

  it('a presigned PUT uploads once: replayed, or without its If-None-Match, it changes nothing', async () => {
    const storage = new S3MediaStorage(settings(), clock);
    const key = 'chats/3/bb/once.png';
    const target = await storage.presignUpload({ key, contentType: 'image/png', maxBytes: 1024, expiresInSeconds: 900 });
    expect((await fetch(target.upload_url, { method: 'PUT', headers: target.headers, body: PNG })).status).toBe(200);
    const again = await fetch(target.upload_url, { method: 'PUT', headers: target.headers, body: Buffer.from('replaced') });
    const text = await again.text();
    expect({ status: again.status, code: xmlText(text, 'Code') }).toEqual({ status: 412, code: 'PreconditionFailed' });
    // The condition is signed: leaving the header out fails the signature instead of overwriting.
    const unconditional = await fetch(target.upload_url, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: Buffer.from('replaced') });
    expect(unconditional.status).toBe(403);
    expect(xmlText(await unconditional.text(), 'Code')).toBe('SignatureDoesNotMatch');
    expect(fake.object('media', key)?.bytes.equals(PNG)).toBe(true);
  });

  it('put with createOnly refuses an existing key (MediaExistsError); a plain put replaces it', async () => {
    const storage = new S3MediaStorage(settings(), clock);
    await storage.put('avatars/1/k.png', PNG, 'image/png', { createOnly: true });
    await expect(storage.put('avatars/1/k.png', Buffer.from('other'), 'image/png', { createOnly: true })).rejects.toBeInstanceOf(MediaExistsError);
    expect(fake.object('media', 'avatars/1/k.png')?.bytes.equals(PNG)).toBe(true);
    await storage.put('avatars/1/k.png', Buffer.from('other'), 'image/png');
    expect(fake.object('media', 'avatars/1/k.png')?.bytes.toString()).toBe('other');
  });

  it('a private object is read with its presigned GET only, until it expires', async () => {
    const storage = new S3MediaStorage(settings(), clock);
    const key = 'chats/3/cc/secret.png';
    await storage.put(key, PNG, 'image/png');
    const signed = storage.readUrl(key);
    const got = await fetch(signed);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await fetch(storage.url(key))).status).toBe(403);
    const sig = new URL(signed).searchParams.get('X-Amz-Signature')!;
    expect((await fetch(signed.replace(sig, (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1)))).status).toBe(403);
    expect((await fetch(signed.replace('/secret.png', '/other.png'))).status).toBe(403);
    serverNow = new Date(clock.now().getTime() + 76 * 60_000);
    const expired = await fetch(signed);
    expect(expired.status).toBe(403);
    expect(xmlText(await expired.text(), 'Message')).toBe('Request has expired');
  });

  it('lists by prefix and age across continuation pages', async () => {
    const storage = new S3MediaStorage(settings(), clock);
    storage.listPageSize = 2;
    const keys = ['chats/1/a/1.png', 'chats/1/b/2.png', 'chats/2/c/3.png', 'chats/2/d/4.png', 'chats/3/e/5.png', 'avatars/1/f.png'];
    for (const key of keys) await storage.put(key, PNG, 'image/png');
    const old = new Date(Date.now() - 48 * 3600_000);
    for (const key of keys.filter((k) => !k.startsWith('chats/2/d'))) fake.setLastModified('media', key, old);
    const listed = [];
    for await (const object of storage.list('chats/', new Date(Date.now() - 24 * 3600_000))) listed.push(object);
    expect(listed).toEqual(['chats/1/a/1.png', 'chats/1/b/2.png', 'chats/2/c/3.png', 'chats/3/e/5.png'].map((key) => ({ key, lastModified: old, size: PNG.length })));
    expect(fake.requests.filter((r) => r.path === '/media' && r.method === 'GET')).toHaveLength(3);
    const page = await storage.listPage('avatars/', null);
    expect(page.objects.map((o) => o.key)).toEqual(['avatars/1/f.png']);
  });

  it('check (GET /api/ready/) passes with the right credentials and fails with wrong ones or an unknown bucket', async () => {
    await new S3MediaStorage(settings(), clock).check();
    await expect(new S3MediaStorage(settings({ secretAccessKey: 'not-the-secret' }), clock).check()).rejects.toThrow('SignatureDoesNotMatch');
    await expect(new S3MediaStorage(settings({ bucket: 'missing' }), clock).check()).rejects.toBeInstanceOf(S3Error);
  });
});

describe('the S3 adapter in the app', () => {
  let fake: FakeS3;
  let t: TestApp;
  let acme: number;
  let token: string;

  beforeAll(async () => {
    fake = await startFakeS3({ buckets: ['console-media'] });
    t = await createTestApp({
      config: {
        mediaUploadMaxBytes: 1024,
        s3: { bucket: 'console-media', region: fake.region, endpoint: fake.url, accessKeyId: fake.accessKeyId, secretAccessKey: fake.secretAccessKey, forcePathStyle: true, publicUrl: null },
      },
    });
    acme = await t.seed.company('Acme');
    const agent = await t.seed.user({ email: 'agent@acme.test' });
    await t.seed.member(acme, agent, 'agent');
    token = (await t.login('agent@acme.test')).access;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('registers the S3 storage from the configuration and allows the bucket in the CSP', async () => {
    expect(t.app.services.get('MediaStorage')).toBeInstanceOf(S3MediaStorage);
    const res = await t.app.inject({ method: 'GET', url: '/api/health/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(new RegExp(`connect-src 'self' ws: wss: ${fake.url.replace(/\./g, '\\.')}(;|$)`));
    expect(csp).toContain(`media-src 'self' ${fake.url}`);
  });

  it('GET /api/chats/presigned_url/ answers a URL of the bucket that accepts the upload', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/chats/presigned_url/',
      query: { file_name: 'Holiday Photo.PNG', file_type: 'image/png' },
      headers: t.headers(token, acme),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<PresignedUpload>();
    expect(body.upload_url).toMatch(new RegExp(`^${fake.url}/console-media/chats/${acme}/[0-9a-f]{32}/holiday-photo\\.png\\?X-Amz-Algorithm=AWS4-HMAC-SHA256&`));
    expect(body.file_url).toMatch(new RegExp(`^${fake.url}/console-media/chats/${acme}/[0-9a-f]{32}/holiday-photo\\.png$`));
    expect(body.headers).toEqual({ 'Content-Type': 'image/png', 'If-None-Match': '*' });

    const bytes = Buffer.from('\x89PNG\r\n\x1a\nuploaded');
    const put = await fetch(body.upload_url, { method: body.method, headers: body.headers, body: bytes });
    expect(put.status, await put.clone().text()).toBe(200);
    const key = new URL(body.file_url).pathname.replace(/^\/console-media\//, '');
    expect(fake.object('console-media', key)).toMatchObject({ bytes, contentType: 'image/png' });
    expect(await t.app.services.get('MediaStorage').get(key)).toEqual({ bytes, contentType: 'image/png' });
    // Private: neither the bucket nor /media/<key> (read through the adapter) serves it unsigned.
    expect((await fetch(body.file_url)).status).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/media/${key}` })).statusCode).toBe(403);
    // The presigned GET the API hands out does.
    const got = await fetch(t.app.services.get('MediaStorage').readUrl(key));
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('works as well when the adapter is given as a service override (public URL for reading)', async () => {
    const clock = new ManualClock();
    const storage = new S3MediaStorage(
      { bucket: 'console-media', region: fake.region, endpoint: fake.url, accessKeyId: fake.accessKeyId, secretAccessKey: fake.secretAccessKey, forcePathStyle: true, publicUrl: 'https://cdn.example.com' },
      clock,
    );
    const other = await createTestApp({ overrides: { MediaStorage: storage, Clock: clock } });
    try {
      const company = await other.seed.company('Globex');
      const admin = await other.seed.user({ email: 'admin@globex.test' });
      await other.seed.member(company, admin, 'admin');
      const access = (await other.login('admin@globex.test')).access;
      const res = await other.app.inject({ method: 'GET', url: '/api/chats/presigned_url/', query: { file_name: 'notes.txt', file_type: 'text/plain' }, headers: other.headers(access, company) });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<PresignedUpload>();
      expect(body.upload_url.startsWith(`${fake.url}/console-media/chats/${company}/`)).toBe(true);
      expect(body.file_url).toMatch(new RegExp(`^https://cdn\\.example\\.com/chats/${company}/[0-9a-f]{32}/notes\\.txt$`));
      const put = await fetch(body.upload_url, { method: 'PUT', headers: body.headers, body: 'hello' });
      expect(put.status, await put.clone().text()).toBe(200);
      expect(await storage.get(body.file_url.replace('https://cdn.example.com/', ''))).toEqual({ bytes: Buffer.from('hello'), contentType: 'text/plain' });
    } finally {
      await other.close();
    }
  });

  it('an avatar is stored in the bucket with its bucket URL', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16, 1)]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/profiles/',
      headers: t.headers(token, acme),
      payload: { avatar: `data:image/png;base64,${png.toString('base64')}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { profile_avatar, profile_avatar_url } = res.json<{ profile_avatar: string; profile_avatar_url: string }>();
    expect(profile_avatar_url).toBe(`${fake.url}/console-media/${profile_avatar}`);
    expect(fake.object('console-media', profile_avatar)?.bytes.equals(png)).toBe(true);
  });
});
