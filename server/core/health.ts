/**
 * GET /api/health/ (alive: the process answers and reaches its database) and GET /api/ready/ (this process
 * should get traffic: database, Redis when configured, this build's migrations applied, media store reachable
 * and usable by a cluster, not draining). Load balancers route on ready; orchestrators restart on health.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { sql } from 'drizzle-orm';
import type { AppConfig } from './config';
import type { Database } from './db/client';
import { lastMigrationMillis, migrationsApplied } from './db/migrate';
import type { Clock } from './clock';
import { access } from './access';
import { lazyRequire } from './lazyRequire';
import type { MediaStorage } from '../providers/storage/types';
import { mediaClusterProblem } from '../providers/storage/cluster';

/** Each readiness check gets this long (a hung database or bucket must not hang the balancer's probe). */
export const READY_CHECK_TIMEOUT_MS = 2_000;
/** A reachable media store is not asked again for this long (a bucket bills every request; balancers probe every few seconds). */
export const MEDIA_CHECK_CACHE_MS = 30_000;

export type ReadyCheck = 'database' | 'migrations' | 'redis' | 'media';
/** 'ok', 'not configured' (Redis without REDIS_URL) or why the check failed. */
export type ReadyCheckResult = string;

export interface ReadinessOptions {
  config: Pick<AppConfig, 'redisUrl' | 's3' | 'mediaShared' | 'dataDir'>;
  db: Database;
  media: () => MediaStorage;
  clock: Clock;
  log: FastifyBaseLogger;
  timeoutMs?: number;
}

/** The readiness state of one app: its checks, and whether it is draining (server/core/shutdown.ts). */
export class Readiness {
  private draining = false;
  private redis: Redis | null = null;
  private mediaOkUntil = 0;
  private readonly expectedMigration = lastMigrationMillis();
  private migrated = false;

  constructor(private readonly options: ReadinessOptions) {}

  /** From now on /api/ready/ answers 503 `draining`, so a balancer stops sending this process new requests. */
  startDraining(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  async checks(): Promise<{ ready: boolean; draining: boolean; results: Record<ReadyCheck, ReadyCheckResult> }> {
    const [database, migrations, redis, media] = await Promise.all([
      this.bounded(async () => void (await this.options.db.execute(sql`select 1`)), 'unreachable'),
      this.bounded(() => this.checkMigrations(), 'unknown (the database did not answer)'),
      this.options.config.redisUrl ? this.bounded(() => this.pingRedis(), 'unreachable') : Promise.resolve('not configured'),
      this.checkMedia(),
    ]);
    const results = { database, migrations, redis, media };
    const ready = !this.draining && Object.values(results).every((r) => r === 'ok' || r === 'not configured');
    return { ready, draining: this.draining, results };
  }

  async close(): Promise<void> {
    this.redis?.disconnect();
    this.redis = null;
  }

  private async checkMigrations(): Promise<void> {
    // Once applied they stay applied (a migration is never undone while the process runs).
    if (this.migrated) return;
    if (!(await migrationsApplied(this.options.db, this.expectedMigration))) {
      throw new ReadyCheckFailure('pending: the database lacks migrations of this build (npm run migrate, or restart)');
    }
    this.migrated = true;
  }

  private async pingRedis(): Promise<void> {
    if (!this.redis) {
      // Its own connection (the fan-out's is a subscriber, the rate limiter's may be a test's stand-in),
      // required on first use like the other Redis clients (core/lazyRequire.ts).
      const { Redis: RedisClient } = lazyRequire('ioredis') as typeof import('ioredis');
      this.redis = new RedisClient(this.options.config.redisUrl!, { lazyConnect: true, connectTimeout: this.timeoutMs, maxRetriesPerRequest: 1 });
      // Reconnection errors surface as a failed check; logged at debug level only (the fan-out and the rate
      // limiter already log a Redis outage).
      this.redis.on('error', (err) => this.options.log.debug({ err }, 'readiness: redis error'));
    }
    await this.redis.ping();
  }

  private async checkMedia(): Promise<ReadyCheckResult> {
    const problem = mediaClusterProblem(this.options.config);
    if (problem) return problem;
    const now = this.options.clock.now().getTime();
    if (now < this.mediaOkUntil) return 'ok';
    const storage = this.options.media();
    const result = await this.bounded(async () => storage.check?.(), 'unreachable');
    if (result === 'ok') this.mediaOkUntil = now + MEDIA_CHECK_CACHE_MS;
    return result;
  }

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? READY_CHECK_TIMEOUT_MS;
  }

  /** 'ok', or `failure` (with the reason of a ReadyCheckFailure) when the check throws or outlasts the timeout. */
  private async bounded(check: () => Promise<void>, failure: string): Promise<ReadyCheckResult> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ReadyCheckFailure(`${failure} (no answer within ${this.timeoutMs} ms)`)), this.timeoutMs);
      timer.unref();
    });
    try {
      await Promise.race([check(), timeout]);
      return 'ok';
    } catch (err) {
      return err instanceof ReadyCheckFailure ? err.message : failure;
    } finally {
      clearTimeout(timer);
    }
  }
}

class ReadyCheckFailure extends Error {}

declare module 'fastify' {
  interface FastifyInstance {
    /** Readiness checks and the draining flag (GET /api/ready/, server/core/shutdown.ts). */
    readiness: Readiness;
  }
}

export async function healthRoutes(app: FastifyInstance, opts: { db: Database; version: string }): Promise<void> {
  /** GET /api/health/: liveness plus a database round trip; load balancers and the e2e runner wait on it. */
  app.get('/api/health/', { config: { access: access.public('load balancers and the e2e runner probe it') } }, async (_request, reply) => {
    try {
      await opts.db.execute(sql`select 1`);
      return { status: 'ok', version: opts.version, database: 'ok' };
    } catch {
      return reply.code(503).send({ status: 'unavailable', version: opts.version, database: 'unreachable' });
    }
  });

  /**
   * GET /api/ready/: 200 `{status: 'ready', database, migrations, redis, media}` (each 'ok', Redis 'not
   * configured' without REDIS_URL); 503 `{status: 'not_ready', failed: [names], …}` with each failed check's
   * reason, or `{status: 'draining'}` once SIGTERM started the drain.
   */
  app.get('/api/ready/', { config: { access: access.public('load balancers route on it') } }, async (_request, reply) => {
    const readiness = app.readiness;
    if (readiness.isDraining) return reply.code(503).send({ status: 'draining', version: opts.version });
    const { ready, draining, results } = await readiness.checks();
    if (draining) return reply.code(503).send({ status: 'draining', version: opts.version });
    if (ready) return { status: 'ready', version: opts.version, ...results };
    const failed = (Object.keys(results) as ReadyCheck[]).filter((name) => results[name] !== 'ok' && results[name] !== 'not configured');
    return reply.code(503).send({ status: 'not_ready', version: opts.version, failed, ...results });
  });
}
