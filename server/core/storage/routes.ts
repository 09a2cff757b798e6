/**
 * GET /media/<key>: read-only access to the MediaStorage. Keys are random, so a file never
 * changes under its name and may be cached for long; `nosniff` keeps browsers from treating
 * an image as anything else.
 *
 * PUT /media/upload/<key>?expires=…&max_bytes=…&signature=…: a presigned upload (presign.ts). No
 * bearer token: the signature authorises it, like S3. The signature, expiry and Content-Type are
 * checked before a byte of the body is read; the body is read with a cap (413 beyond).
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ApiError, forbidden, notFound } from '../errors';
import type { UploadSigner } from './presign';
import { isValidMediaKey, type MediaStorage } from './types';

export interface MediaRoutesOptions {
  storage: MediaStorage;
  /** Enables PUT /media/upload/<key>; must sign like the storage's own signer. */
  signer?: UploadSigner;
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
  app.get<{ Params: { '*': string } }>('/media/*', async (request, reply) => {
    const object = await storage.get(request.params['*']);
    if (!object) throw notFound();
    const inline = /^(image|video|audio)\//.test(object.contentType) || object.contentType === 'application/pdf';
    return reply
      .header('content-type', object.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', inline ? 'inline' : 'attachment')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(object.bytes);
  });

  if (!signer) return;

  // This plugin is encapsulated: the raw-stream parser applies to the upload route only.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.put<{ Params: { '*': string }; Querystring: Record<string, string> }>('/media/upload/*', async (request) => {
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
    await storage.put(key, bytes, check.contentType);
    return { file_url: signer.fileUrl(key) };
  });
}
