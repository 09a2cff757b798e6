/**
 * GET /media/<key>: read-only access to the MediaStorage. Public on purpose for public keys
 * (avatars, logos: not customer data); a private key (a chat attachment, privateMedia.ts) is served
 * only with a valid `?exp=…&sig=…` (presign.ts), checked before the storage is asked, so an
 * unsigned, tampered or expired URL is 403 whether or not the object exists. Keys are random, so a
 * file never changes under its name and may be cached; `nosniff` keeps browsers from treating an
 * image as anything else.
 *
 * PUT /media/upload/<key>?expires=…&max_bytes=…&signature=…: a presigned upload (presign.ts). No
 * bearer token: the signature authorises it, like S3. The signature, expiry and Content-Type are
 * checked before a byte of the body is read; the body is read with a cap (413 beyond). It creates
 * the object once: a PUT onto a stored key is 409 and changes nothing.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ApiError, forbidden, notFound } from '../../core/errors';
import { access } from '../../core/access';
import type { MediaSigner } from './presign';
import { isPrivateMediaKey } from './privateMedia';
import { MediaExistsError, isValidMediaKey, type MediaStorage } from './types';

export interface MediaRoutesOptions {
  storage: MediaStorage;
  /** Checks private read URLs and enables PUT /media/upload/<key>; must sign like the storage's own signer. */
  signer?: MediaSigner;
}

function payloadTooLarge(): ApiError {
  return new ApiError(413, { detail: 'The file is larger than the upload allows.', code: 'payload_too_large' });
}

/** Reads a stream into a buffer, failing with 413 as soon as it exceeds `limit` bytes. */
async function readCapped(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buf.length;
    if (size > limit) {
      stream.destroy();
      throw payloadTooLarge();
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks, size);
}

export async function mediaRoutes(app: FastifyInstance, { storage, signer }: MediaRoutesOptions): Promise<void> {
  // Browsers load media with <img>/<video>/<a>, without headers: public keys as they are, private ones with a signed URL.
  const readAccess = { config: { access: access.signedUrl('avatars and logos are public; a chat attachment needs the signed ?exp&sig the API hands its company') } };
  app.get<{ Params: { '*': string }; Querystring: Record<string, unknown> }>('/media/*', readAccess, async (request, reply) => {
    const key = request.params['*'];
    let cacheControl = 'public, max-age=31536000, immutable';
    if (isPrivateMediaKey(key)) {
      const check = signer ? signer.verifyRead(key, request.query) : ({ ok: false, reason: 'invalid_signature' } as const);
      if (!check.ok) {
        throw check.reason === 'expired' ? forbidden('The media URL has expired.', 'expired') : forbidden('The media URL is not signed for this file.', 'invalid_signature');
      }
      // Only the browser that was handed the URL keeps it, and not beyond the URL's validity.
      cacheControl = `private, max-age=${check.secondsLeft}`;
    }
    const object = await storage.get(key);
    if (!object) throw notFound();
    const inline = /^(image|video|audio)\//.test(object.contentType) || object.contentType === 'application/pdf';
    return reply
      .header('content-type', object.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', inline ? 'inline' : 'attachment')
      .header('cache-control', cacheControl)
      .send(object.bytes);
  });

  if (!signer) return;

  // This plugin is encapsulated: the raw-stream parser applies to the upload route only.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.put<{ Params: { '*': string }; Querystring: Record<string, string> }>('/media/upload/*', { config: { access: access.signedUrl('a presigned upload: the signature in the query authorises it') } }, async (request) => {
    const key = request.params['*'];
    if (!isValidMediaKey(key)) throw notFound();
    const check = signer.verify(key, request.query, request.headers['content-type']);
    if (!check.ok) {
      throw check.reason === 'expired'
        ? forbidden('The upload URL has expired.', 'expired')
        : forbidden('The upload signature does not match.', 'invalid_signature');
    }
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > check.maxBytes) throw payloadTooLarge();
    const body = request.body as Readable | undefined;
    const bytes = body ? await readCapped(body, check.maxBytes) : Buffer.alloc(0);
    if (bytes.length === 0) throw new ApiError(400, { detail: 'The file is empty.', code: 'empty_file' });
    try {
      await storage.put(key, bytes, check.contentType, { createOnly: true });
    } catch (err) {
      if (err instanceof MediaExistsError) throw new ApiError(409, { detail: 'This upload URL has been used already.', code: 'already_uploaded' });
      throw err;
    }
    return { file_url: signer.fileUrl(key) };
  });
}
