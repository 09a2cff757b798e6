/**
 * The broadcast sending engine (issue #11 "The engine"), implementing ../engineApi.ts:
 * a durable claim loop over broadcast_recipients (./worker.ts; why not pg-boss/graphile-worker:
 * docs/architecture.md "Broadcast engine"), paced per sending number across processes
 * (./pacer.ts: Redis with REDIS_URL, else PostgreSQL with DATABASE_URL, else this process's memory —
 * the embedded PGlite is one process), Meta's errors (./errors.ts), delivery statuses, replies and
 * opt-outs from the webhooks (./events.ts), live progress (./progress.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { AppConfig } from '../../../core/config';
import { lazyRequire } from '../../../core/lazyRequire';
import { HttpMetaGraph } from '../../../providers/meta/graphClient';
import type { MetaGraph } from '../../../providers/meta/types';
import type { Clock } from '../../../core/clock';
import type { Database } from '../../../core/db/client';
import type { PluginLifecycle } from '../../../core/plugins';
import type { RealtimeHub } from '../../../core/realtime/types';
import type { MediaStorage } from '../../../providers/storage/types';
import type { ChannelService, WebhookEventHandlers } from '../../channels';
import type { BroadcastEngine } from '../engineApi';
import { BroadcastEvents } from './events';
import { SendPacer, type CounterStore } from './pacer';
import { ProgressPublisher } from './progress';
import { BroadcastWorker } from './worker';
import { mediaUrlForCompany } from '../../../providers/storage/privateMedia';

export interface BroadcastEngineRuntime extends BroadcastEngine {
  worker: BroadcastWorker;
  events: BroadcastEvents;
  progress: ProgressPublisher;
}

/** The pacing counters' store: shared by every process whenever more than one can run. */
export function pacingStore(config: Pick<AppConfig, 'redisUrl' | 'databaseUrl'>, prefix: string): { store: CounterStore; close(): Promise<void> } {
  const options = { points: 1_000_000, duration: 5 };
  if (config.redisUrl) {
    const { Redis } = lazyRequire('ioredis') as typeof import('ioredis');
    const client = new Redis(config.redisUrl, { lazyConnect: false, connectTimeout: 2_000, maxRetriesPerRequest: 2 });
    client.on('error', () => undefined);
    // No insurance limiter: with Redis down each process would pace alone (over the rate together); sending waits instead.
    const limiter = new RateLimiterRedis({ ...options, storeClient: client, keyPrefix: `${prefix}:pace` });
    return { store: limiter, close: async () => client.disconnect() };
  }
  if (config.databaseUrl) {
    const { Pool } = lazyRequire('pg') as typeof import('pg');
    const pool = new Pool({ connectionString: config.databaseUrl, max: 4 });
    pool.on('error', () => undefined);
    let ready: Promise<RateLimiterAbstract> | null = null;
    const limiter = (): Promise<RateLimiterAbstract> =>
      (ready ??= new Promise<RateLimiterAbstract>((resolve, reject) => {
        const created: RateLimiterAbstract = new RateLimiterPostgres(
          { ...options, storeClient: pool, storeType: 'pool', tableName: 'broadcast_pacing', keyPrefix: `${prefix}:pace` },
          (err?: Error) => (err ? reject(err) : resolve(created)),
        );
      }).catch((err) => {
        ready = null;
        throw err;
      }));
    return {
      store: {
        penalty: async (key, points, opts) => (await limiter()).penalty(key, points, opts),
        reward: async (key, points, opts) => (await limiter()).reward(key, points, opts),
      },
      close: () => pool.end(),
    };
  }
  return { store: new RateLimiterMemory(options), close: async () => {} };
}

/** The engine's Graph client: the app's, without the adapter's in-call retries (the engine retries and paces itself). */
function engineGraph(appGraph: MetaGraph, config: AppConfig): MetaGraph {
  return appGraph instanceof HttpMetaGraph ? new HttpMetaGraph({ ...config.meta, sendRetryDelaysMs: [] }) : appGraph;
}

export interface BroadcastEngineDeps {
  config: AppConfig;
  db: Database;
  clock: Clock;
  /** The app's Graph client (the engine uses its own, without in-call retries, when it is the real adapter). */
  metaGraph: MetaGraph;
  realtime: RealtimeHub;
  storage: MediaStorage;
  channels: Pick<ChannelService, 'tokenOf'>;
  /** Where Meta's delivery statuses, replies and opt-outs arrive (the channels plugin's webhooks). */
  webhookEvents: Pick<WebhookEventHandlers, 'onMessageStatus' | 'onInboundMessage' | 'onUserPreference'>;
  lifecycle: PluginLifecycle;
  log: FastifyBaseLogger;
}

/** Builds the app's engine, registers its webhook handlers, and runs it while the app is up. */
export function createBroadcastEngine(deps: BroadcastEngineDeps): BroadcastEngineRuntime {
  const { config, db, clock, log } = deps;
  const pacing = pacingStore(config, config.realtime.redisPrefix);
  const progress = new ProgressPublisher(db, () => deps.realtime, log);
  const changed = (id: number) => progress.changed(id);
  let graph: MetaGraph | null = null;
  const worker = new BroadcastWorker({
    db,
    clock,
    pacer: new SendPacer(pacing.store, clock),
    graph: () => (graph ??= engineGraph(deps.metaGraph, config)),
    tokenOf: (row) => deps.channels.tokenOf(row),
    log,
    changed,
    // Signed when Meta fetches it (a link per send: the signature's lifetime covers the call).
    mediaLink: (url, companyId) => mediaUrlForCompany(deps.storage, url, companyId) ?? url,
  });
  const events = new BroadcastEvents({ db, clock, changed });
  deps.webhookEvents.onMessageStatus((channel, event) => events.status(channel, event));
  deps.webhookEvents.onInboundMessage((channel, event) => events.inbound(channel, event));
  deps.webhookEvents.onUserPreference((channel, event) => events.preference(channel, event));

  const poke = async (id: number) => {
    worker.kick();
    changed(id);
  };
  const runtime: BroadcastEngineRuntime = {
    worker,
    events,
    progress,
    start: poke,
    pause: poke,
    resume: poke,
    cancel: poke,
    retry: async (id) => poke(id),
  };

  deps.lifecycle.addStartHook(() => worker.start());
  deps.lifecycle.addShutdownHook(async () => {
    await worker.stop();
    progress.close();
    await pacing.close();
  });
  return runtime;
}
