/**
 * GET /media/<key>: read-only access to the MediaStorage. Keys are random, so a file never
 * changes under its name and may be cached for long; `nosniff` keeps browsers from treating
 * an image as anything else.
 */
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors';
import type { MediaStorage } from './types';

export async function mediaRoutes(app: FastifyInstance, { storage }: { storage: MediaStorage }): Promise<void> {
  app.get<{ Params: { '*': string } }>('/media/*', async (request, reply) => {
    const object = await storage.get(request.params['*']);
    if (!object) throw notFound();
    return reply
      .header('content-type', object.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', 'inline')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(object.bytes);
  });
}
