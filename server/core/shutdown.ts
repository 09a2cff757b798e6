/**
 * The drain on SIGTERM/SIGINT (server/main.ts), so a rolling restart loses no request:
 * 1. GET /api/ready/ answers 503 `draining` at once (a balancer probing on a kept-alive connection stops
 *    sending new requests);
 * 2. app.close(): the realtime sockets and pending long-polls are closed first (preClose, core/realtime:
 *    websocket close code 1001 "going away", which the phoenix client answers by reconnecting with its
 *    back-off, to another process behind the balancer); the listener stops accepting; requests in flight
 *    finish (answered with `Connection: close`), kept-alive connections are closed as soon as they are idle;
 * 3. then the onClose hooks: the plugins stop their background jobs (webhook processing, deliveries, the
 *    broadcast worker, template syncs, the media sweeper) and wait for the runs in progress, the Redis
 *    links close.
 * Requests still running `graceMs` after the signal have their connections cut so the close can go on.
 */
import type { FastifyInstance } from 'fastify';

/** How often connections left idle during the drain are closed. */
const IDLE_SWEEP_MS = 200;

export interface DrainResult {
  /** Connections were still open at the end of the grace and were cut. */
  cut: boolean;
}

export async function drainApp(app: FastifyInstance, { graceMs }: { graceMs: number }): Promise<DrainResult> {
  app.readiness.startDraining();
  let cut = false;
  const timer = setTimeout(() => {
    cut = true;
    app.log.warn({ graceMs }, 'shutdown: requests still running at the end of the grace (SHUTDOWN_GRACE_MS); cutting their connections');
    // A client holding a connection without a request, or a request that never ends, would hold the close.
    app.server.closeAllConnections();
  }, graceMs);
  timer.unref();
  // Answers sent while draining close their connection (`Connection: close`, core/app.ts); one whose headers
  // left before the drain leaves a kept-alive connection idle afterwards: closed here rather than at the grace.
  const idle = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
  idle.unref();
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
    clearInterval(idle);
  }
  return { cut };
}
