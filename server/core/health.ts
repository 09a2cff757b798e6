import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Database } from './db/client';
import { access } from './access';

/** GET /api/health/: liveness plus a database round trip; load balancers and the e2e runner wait on it. */
export async function healthRoutes(app: FastifyInstance, opts: { db: Database; version: string }): Promise<void> {
  app.get('/api/health/', { config: { access: access.public('load balancers and the e2e runner probe it') } }, async (_request, reply) => {
    try {
      await opts.db.execute(sql`select 1`);
      return { status: 'ok', version: opts.version, database: 'ok' };
    } catch {
      return reply.code(503).send({ status: 'unavailable', version: opts.version, database: 'unreachable' });
    }
  });
}
