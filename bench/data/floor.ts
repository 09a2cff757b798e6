/**
 * The floor of bench/data (`--floor`, issue #26): the same SQL our server runs for each request, served by
 * the least a Node server can be — a bare Fastify (no plugins, no auth, no validation) and a bare `ws`
 * socket speaking just enough Phoenix (serializer 2.0.0) to answer a join and a push, over one pg.Pool of
 * the size ours uses. Each request runs its captured statements (SQL text and parameters as our server
 * sent them, bench/data/run.ts `captureQueries`) in the same order and answers the last one's rows as JSON.
 *
 * What it leaves out is exactly what the ratio measures: our routing, auth, validation, ORM, shaping and
 * serialisation. Run as a child process: `node --import tsx bench/data/floor.ts` with FLOOR_PLAN (a JSON
 * file of {@link FloorPlan}), DATABASE_URL and PORT in the environment.
 */
import { readFileSync } from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { WebSocketServer } from 'ws';

export interface FloorStatement {
  sql: string;
  params: unknown[];
}

export interface FloorPlan {
  /** HTTP requests by path (with their query string), as the load sends them. */
  http: Record<string, FloorStatement[]>;
  /** Socket pushes by `topic event payload-as-JSON`, as the load sends them. */
  socket: Record<string, FloorStatement[]>;
}

export function socketKey(topic: string, event: string, payload: unknown): string {
  return `${topic} ${event} ${JSON.stringify(payload)}`;
}

/** A request's path as both sides see it (the URL parser's encoding): the plan's key for it. */
export function normalisedPath(path: string): string {
  const url = new URL(path, 'http://floor');
  return url.pathname + url.search;
}

/** A request's captured statements, run one after the other: the last one's rows. */
function runner(pool: pg.Pool): (statements: FloorStatement[]) => Promise<unknown[]> {
  return async (statements) => {
    let rows: unknown[] = [];
    for (const s of statements) rows = (await pool.query(s.sql, s.params)).rows;
    return rows;
  };
}

/** The floor's HTTP side: the same app over a socket (below) or in-process (`FLOOR=1 bench/data/allocations.ts`). */
export function floorApp(plan: FloorPlan, pool: pg.Pool): FastifyInstance {
  const run = runner(pool);
  const app = Fastify({ logger: false });
  app.get('/api/health/', async () => ({ status: 'ok' }));
  app.get('/*', async (request, reply) => {
    const statements = plan.http[normalisedPath(request.url)];
    if (!statements) return reply.code(404).send({ detail: 'not in the plan' });
    return { results: await run(statements) };
  });
  return app;
}

export function readFloorPlan(file: string): FloorPlan {
  return JSON.parse(readFileSync(file, 'utf8')) as FloorPlan;
}

async function main(): Promise<void> {
  const plan = readFloorPlan(process.env.FLOOR_PLAN!);
  // The same pool size as server/core/db/client.ts.
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const run = runner(pool);
  const app = floorApp(plan, pool);

  const sockets = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  app.server.on('upgrade', (request, socket, head) => sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws)));
  sockets.on('connection', (ws) => {
    // A topic's messages are answered in order, one after the other, as a Phoenix channel (a process) and our hub
    // (server/core/realtime/hub.ts) answer them; different topics run concurrently. Answered all at once, one topic's
    // pushes at 200/s were compared with a server that queues them (bench/data/README.md, session 42).
    const topics = new Map<string, Promise<void>>();
    ws.on('message', (data) => {
      const [joinRef, ref, topic, event, payload] = JSON.parse(String(data)) as [string | null, string, string, string, unknown];
      const reply = (response: unknown) => ws.send(JSON.stringify([joinRef, ref, topic, 'phx_reply', { status: 'ok', response }]));
      if (event === 'phx_join' || event === 'heartbeat') return reply({});
      const statements = plan.socket[socketKey(topic, event, payload)];
      if (!statements) return ws.send(JSON.stringify([joinRef, ref, topic, 'phx_reply', { status: 'error', response: { reason: 'not in the plan' } }]));
      const answered = (topics.get(topic) ?? Promise.resolve())
        .then(() => run(statements))
        .then(reply, (err: Error) => ws.send(JSON.stringify([joinRef, ref, topic, 'phx_reply', { status: 'error', response: { reason: err.message } }])));
      topics.set(topic, answered);
      void answered.then(() => {
        if (topics.get(topic) === answered) topics.delete(topic);
      });
    });
  });

  await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
  const stop = () => {
    sockets.close();
    void app.close().then(() => pool.end()).then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (process.env.FLOOR_PLAN) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
