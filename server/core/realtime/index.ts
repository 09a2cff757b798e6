/**
 * The realtime hub of one app: created with the app, exposed to feature plugins as
 * `app.realtime` and the `RealtimeHub` service, serving /socket/websocket and /socket/longpoll.
 * Closing the app closes every socket (clients reconnect with their back-off) and the Redis links.
 */
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config';
import { PhoenixHub } from './hub';
import { SocketLimits } from './limits';
import { registerRealtimeRoutes } from './routes';
import type { RealtimeHub } from './types';

export type { ChannelContext, ChannelHandler, DisconnectTarget, RealtimeHub, Reply, ReplyStatus, SocketIdentity } from './types';
export { PhoenixHub } from './hub';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Phoenix-protocol hub (register channels, broadcast, presence). */
    realtime: RealtimeHub;
  }
}

export async function createRealtime(app: FastifyInstance, config: AppConfig): Promise<PhoenixHub> {
  const hub = new PhoenixHub({
    config: config.realtime,
    log: app.log.child({ module: 'realtime' }),
    redisUrl: config.redisUrl,
    // Resolved per use: the RateLimiter service may be a test's override.
    limits: new SocketLimits(() => app.services.get('RateLimiter')),
    // Resolved per use, like the limits: the Clock may be a test's override.
    clock: { now: () => app.services.get('Clock').now() },
  });
  await hub.start();
  app.services.value('RealtimeHub', hub);
  app.decorate('realtime', hub as RealtimeHub);
  // Sockets and pending long-polls end in preClose (else the server would wait for them), the
  // fan-out after the server closed.
  app.addHook('preClose', (done) => {
    hub.closeConnections();
    done();
  });
  app.addHook('onClose', async () => hub.stop());
  await registerRealtimeRoutes(app, hub, config);
  return hub;
}
