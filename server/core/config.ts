/**
 * Server configuration, read once from the environment (with defaults that let
 * `npm start` work on a fresh checkout). Secrets never get a hard-coded default:
 * the JWT secret is generated on first start and kept in DATA_DIR.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL URL; null = embedded PGlite at `pgliteDir`. */
  databaseUrl: string | null;
  /** Where PGlite keeps its files; null = in memory (tests). */
  pgliteDir: string | null;
  /** Origin used to build links in e-mails. */
  publicUrl: string;
  jwtSecret: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  /** null = e-mails go to the local outbox (table + log) instead of SMTP. */
  smtpUrl: string | null;
  mailFrom: string;
  /** Serve /dev/outbox when the local outbox is active. */
  devOutbox: boolean;
  seedDemo: boolean;
  demoPassword: string;
  logLevel: string;
  trustProxy: boolean;
  staticDir: string;
  /** scrypt cost (N) for new password hashes; the stored hash keeps its own parameters. */
  passwordHashCost: number;
  /** Redis for the realtime hub's cross-process fan-out; null = one process, in-memory. */
  redisUrl: string | null;
  realtime: RealtimeConfig;
  /** Largest chat attachment a presigned upload accepts (MEDIA_UPLOAD_MAX_BYTES, default 16 MB). */
  mediaUploadMaxBytes: number;
}

/** The Phoenix-protocol socket server (server/core/realtime). Times in milliseconds. */
export interface RealtimeConfig {
  /** Origins allowed besides the server's own host and PUBLIC_URL (SOCKET_ALLOWED_ORIGINS, comma list). */
  allowedOrigins: string[];
  /** Largest accepted frame (websocket message or long-poll line). */
  maxFrameBytes: number;
  /** A socket that sent nothing for this long is closed (clients heartbeat every 30 s: two missed). */
  idleTimeoutMs: number;
  /** How long a long-poll GET waits for messages before answering 204. Shorter than the client's
   *  own 20 s request timeout (spec §9, phoenix.js longpollerTimeout), which would abort the poll. */
  longPollTimeoutMs: number;
  /** A long-poll session not polled for this long is closed. */
  longPollSessionTtlMs: number;
  /** Per-socket token bucket: sustained messages per second and burst size. */
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  /** Rejected (over the limit) messages within 10 s after which the socket is closed. */
  rateLimitCloseAfter: number;
  /** Outgoing bytes a socket may have queued before it is dropped as too slow. */
  maxBufferedBytes: number;
  maxChannelsPerSocket: number;
  /** Prefix of the Redis channel and keys (realtime:broadcast, …). */
  redisPrefix: string;
}

export const DEFAULT_REALTIME_CONFIG: RealtimeConfig = {
  allowedOrigins: [],
  maxFrameBytes: 64 * 1024,
  idleTimeoutMs: 60_000,
  longPollTimeoutMs: 10_000,
  longPollSessionTtlMs: 45_000,
  rateLimitPerSecond: 50,
  rateLimitBurst: 100,
  rateLimitCloseAfter: 200,
  maxBufferedBytes: 4 * 1024 * 1024,
  maxChannelsPerSocket: 100,
  redisPrefix: 'realtime',
};

function origins(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((o) => o.trim().replace(/\/+$/, ''))
    .filter(Boolean);
}

type Env = Record<string, string | undefined>;

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

/** Reads DATA_DIR/jwt-secret, creating it (mode 600) on first start. */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length >= 32) return secret;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

export function loadConfig(env: Env = process.env): AppConfig {
  const port = int(env.PORT, 8080, 'PORT');
  const dataDir = path.resolve(env.DATA_DIR || './.data');
  const jwtSecret = env.JWT_SECRET || persistedSecret(dataDir);
  if (jwtSecret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters long');
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    pgliteDir: path.join(dataDir, 'pglite'),
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    jwtSecret,
    accessTokenTtl: int(env.ACCESS_TOKEN_TTL, 900, 'ACCESS_TOKEN_TTL'),
    refreshTokenTtl: int(env.REFRESH_TOKEN_TTL, 14 * 24 * 3600, 'REFRESH_TOKEN_TTL'),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || 'Console <no-reply@localhost>',
    devOutbox: bool(env.DEV_OUTBOX, true),
    seedDemo: bool(env.SEED_DEMO, true),
    demoPassword: env.DEMO_PASSWORD || 'Demo-Console-2026',
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: bool(env.TRUST_PROXY, false),
    staticDir: path.resolve(env.STATIC_DIR || './dist'),
    // 2^15 with r=8 uses 32 MiB per hash: memory-hard yet ~50-100 ms on a server core.
    passwordHashCost: int(env.PASSWORD_HASH_COST, 2 ** 15, 'PASSWORD_HASH_COST'),
    redisUrl: env.REDIS_URL || null,
    mediaUploadMaxBytes: int(env.MEDIA_UPLOAD_MAX_BYTES, 16 * 1024 * 1024, 'MEDIA_UPLOAD_MAX_BYTES'),
    realtime: {
      ...DEFAULT_REALTIME_CONFIG,
      allowedOrigins: origins(env.SOCKET_ALLOWED_ORIGINS),
      maxFrameBytes: int(env.REALTIME_MAX_FRAME_BYTES, DEFAULT_REALTIME_CONFIG.maxFrameBytes, 'REALTIME_MAX_FRAME_BYTES'),
      idleTimeoutMs: int(env.REALTIME_IDLE_TIMEOUT_MS, DEFAULT_REALTIME_CONFIG.idleTimeoutMs, 'REALTIME_IDLE_TIMEOUT_MS'),
      longPollTimeoutMs: int(env.REALTIME_LONGPOLL_TIMEOUT_MS, DEFAULT_REALTIME_CONFIG.longPollTimeoutMs, 'REALTIME_LONGPOLL_TIMEOUT_MS'),
      rateLimitPerSecond: int(env.REALTIME_RATE_LIMIT, DEFAULT_REALTIME_CONFIG.rateLimitPerSecond, 'REALTIME_RATE_LIMIT'),
      rateLimitBurst: int(env.REALTIME_RATE_BURST, DEFAULT_REALTIME_CONFIG.rateLimitBurst, 'REALTIME_RATE_BURST'),
      maxBufferedBytes: int(env.REALTIME_MAX_BUFFERED_BYTES, DEFAULT_REALTIME_CONFIG.maxBufferedBytes, 'REALTIME_MAX_BUFFERED_BYTES'),
      redisPrefix: env.REDIS_PREFIX || DEFAULT_REALTIME_CONFIG.redisPrefix,
    },
  };
}

/** Configuration for tests: in-memory database, fixed secret, outbox, cheap hashing. */
export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: path.resolve('.test-data'),
    databaseUrl: null,
    pgliteDir: null,
    publicUrl: 'http://console.test',
    jwtSecret: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    accessTokenTtl: 900,
    refreshTokenTtl: 14 * 24 * 3600,
    smtpUrl: null,
    mailFrom: 'Console <no-reply@console.test>',
    devOutbox: true,
    seedDemo: false,
    demoPassword: 'Demo-Console-2026',
    logLevel: 'silent',
    trustProxy: false,
    staticDir: path.resolve('.test-data/no-dist'),
    // Lower cost keeps the suite fast; verification reads the cost from the stored hash.
    passwordHashCost: 2 ** 12,
    redisUrl: null,
    mediaUploadMaxBytes: 16 * 1024 * 1024,
    realtime: { ...DEFAULT_REALTIME_CONFIG },
    ...overrides,
  };
}
