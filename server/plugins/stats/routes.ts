/**
 * Routes of the stats plugin (issue #14; contract/stats.ts). Access: the dashboard figures need
 * view access to the dashboard, /stats view access to stats. What is counted depends on the
 * member: manage access to stats sees the company's figures, anyone else only their own.
 * A channel of another company answers 404, like a missing one.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { canManage } from '../../../contract/permissions';
import { DashboardQuery, STATS_MESSAGES, StatsQuery } from '../../../contract/stats';
import { access } from '../../core/access';
import { notFound, validationError } from '../../core/errors';
import type { StatsService, StatsViewer } from './service';

function viewerOf(request: FastifyRequest): StatsViewer {
  return {
    companyId: request.company!.id,
    scope: canManage(request.membership?.permissions, 'stats') ? 'company' : 'own',
    userId: request.user!.id,
    email: request.user!.email,
  };
}

/** A zone the runtime knows but PostgreSQL does not (22023 "time zone … not recognized") is a bad tz, not a 500. */
async function unknownZoneIsBadInput<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
    const code = e.code ?? e.cause?.code;
    const message = `${e.message ?? ''} ${e.cause?.message ?? ''}`;
    if (code === '22023' && /time zone/i.test(message)) throw validationError({ tz: [STATS_MESSAGES.invalidTimeZone] });
    throw err;
  }
}

export function statsRoutes(app: FastifyInstance, service: StatsService): void {
  app.get<{ Querystring: z.input<typeof DashboardQuery> }>(
    '/api/stats/dashboard/',
    { schema: { querystring: DashboardQuery }, config: { access: access.company('dashboard', 'view') } },
    async (request) => unknownZoneIsBadInput(() => service.dashboard(viewerOf(request), (request.query as DashboardQuery).tz)),
  );

  app.get<{ Querystring: z.input<typeof StatsQuery> }>(
    '/api/stats/',
    { schema: { querystring: StatsQuery }, config: { access: access.company('stats', 'view') } },
    async (request) => {
      const query = request.query as StatsQuery;
      const viewer = viewerOf(request);
      const channelId = query.channel === undefined ? null : Number(query.channel);
      if (channelId !== null && !(await service.ownsChannel(viewer.companyId, channelId))) throw notFound(STATS_MESSAGES.invalidChannel);
      return unknownZoneIsBadInput(() => service.report(viewer, { from: query.from, to: query.to, tz: query.tz, channelId }));
    },
  );
}
