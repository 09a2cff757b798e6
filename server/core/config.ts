/**
 * Server configuration, read once from the environment (with defaults that let
 * `npm start` work on a fresh checkout). Secrets never get a hard-coded default:
 * the JWT secret is generated on first start and kept in DATA_DIR.
 */
import { createHmac, randomBytes } from 'node:crypto';
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
  /** S3-compatible bucket for media (S3_BUCKET); null = the local disk under DATA_DIR/media. */
  s3: S3Config | null;
  /** How often unreferenced uploads are swept (MEDIA_SWEEP_INTERVAL_MS, default 1 h); 0 = never (tests). */
  mediaSweepIntervalMs: number;
  /** Key (32 bytes, base64) encrypting provider tokens at rest (CHANNEL_SECRET_KEY, else generated into DATA_DIR). */
  channelSecretKey: string;
  meta: MetaConfig;
  google: GoogleConfig;
}

/**
 * Meta (Graph API: WhatsApp Cloud API, Messenger, Instagram, Facebook login). Without META_APP_ID
 * the built-in fake Meta served at /dev/meta is used ('local'), so the embedded default works offline.
 */
export interface MetaConfig {
  mode: 'live' | 'local';
  appId: string;
  appSecret: string;
  /** Answered in the webhook GET handshake (hub.verify_token). */
  verifyToken: string;
  /** Embedded signup configuration id (Facebook Login for Business). */
  configId: string;
  graphVersion: string;
  /** Graph API origin the server calls, without the version (https://graph.facebook.com). */
  graphUrl: string;
  /** The Facebook JS SDK the console loads. */
  sdkUrl: string;
  /** Delays of the adapter's quick retries on rate-limit errors (130429, 131056, HTTP 429) before the message waits for a later attempt. */
  sendRetryDelaysMs: number[];
}

/** Google sign-in (access tokens from Google Identity Services). Without GOOGLE_CLIENT_ID the local fake at /dev/google is used. */
export interface GoogleConfig {
  mode: 'live' | 'local';
  clientId: string;
  /** Token introspection (https://oauth2.googleapis.com/tokeninfo). */
  tokenInfoUrl: string;
  /** OpenID userinfo (https://openidconnect.googleapis.com/v1/userinfo). */
  userInfoUrl: string;
  /** Google Identity Services' script the console loads. */
  scriptUrl: string;
}

export const GRAPH_VERSION_DEFAULT = 'v23.0';

/** The provider settings: live when the app ids are set, else the local fakes on this server's own port. */
export function providerConfig(env: Env, port: number, secret: (purpose: string) => string): Pick<AppConfig, 'meta' | 'google'> {
  const local = `http://127.0.0.1:${port}`;
  const metaLive = !!env.META_APP_ID;
  const googleLive = !!env.GOOGLE_CLIENT_ID;
  if (metaLive && !env.META_APP_SECRET) throw new Error('META_APP_SECRET is required with META_APP_ID');
  return {
    meta: {
      mode: metaLive ? 'live' : 'local',
      appId: env.META_APP_ID || 'local-fake-app',
      appSecret: env.META_APP_SECRET || secret('meta-app-secret'),
      verifyToken: env.META_VERIFY_TOKEN || secret('meta-verify-token'),
      configId: env.META_CONFIG_ID || (metaLive ? '' : 'local-fake-config'),
      graphVersion: env.META_GRAPH_VERSION || GRAPH_VERSION_DEFAULT,
      graphUrl: (env.META_GRAPH_URL || (metaLive ? 'https://graph.facebook.com' : `${local}/dev/meta/graph`)).replace(/\/+$/, ''),
      sdkUrl: env.META_SDK_URL || (metaLive ? 'https://connect.facebook.net/en_US/sdk.js' : '/dev/meta/sdk.js'),
      sendRetryDelaysMs: [1000, 2000, 4000, 8000],
    },
    google: {
      mode: googleLive ? 'live' : 'local',
      clientId: env.GOOGLE_CLIENT_ID || 'local-fake-google-client',
      tokenInfoUrl: env.GOOGLE_TOKENINFO_URL || (googleLive ? 'https://oauth2.googleapis.com/tokeninfo' : `${local}/dev/google/tokeninfo`),
      userInfoUrl: env.GOOGLE_USERINFO_URL || (googleLive ? 'https://openidconnect.googleapis.com/v1/userinfo' : `${local}/dev/google/userinfo`),
      scriptUrl: env.GOOGLE_SCRIPT_URL || (googleLive ? 'https://accounts.google.com/gsi/client' : '/dev/google/gsi-client.js'),
    },
  };
}

/** An S3-compatible bucket (AWS S3, MinIO, Cloudflare R2): server/core/storage/s3.ts. */
export interface S3Config {
  bucket: string;
  region: string;
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** Base URL objects are read from (CDN, public bucket domain), no trailing slash; null = the bucket URL. */
  publicUrl: string | null;
}

function httpUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http(s) URL, got "${value}"`);
  return value.replace(/\/+$/, '');
}

/** The bucket settings, or null without S3_BUCKET; fails fast on a bucket without credentials. */
export function s3Config(env: Env): S3Config | null {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) return null;
  if (!env.S3_ACCESS_KEY_ID || !env.S3_SECRET_ACCESS_KEY) throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required with S3_BUCKET');
  const region = env.S3_REGION || 'us-east-1';
  return {
    bucket,
    region,
    endpoint: env.S3_ENDPOINT ? httpUrl(env.S3_ENDPOINT, 'S3_ENDPOINT') : `https://s3.${region}.amazonaws.com`,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: bool(env.S3_FORCE_PATH_STYLE, !!env.S3_ENDPOINT),
    publicUrl: env.S3_PUBLIC_URL ? httpUrl(env.S3_PUBLIC_URL, 'S3_PUBLIC_URL') : null,
  };
}

function nonNegativeInt(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

/** A secret for one purpose derived from the JWT secret (the local fakes' app secret and verify token). */
function derivedSecret(jwtSecret: string, purpose: string): string {
  return createHmac('sha256', jwtSecret).update(purpose).digest('base64url');
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

/** Reads DATA_DIR/<name>, creating it (mode 600) on first start. */
function persistedSecret(dataDir: string, name = 'jwt-secret', bytes = 48, encoding: BufferEncoding = 'base64url'): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length >= 32) return secret;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(bytes).toString(encoding);
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
    s3: s3Config(env),
    mediaSweepIntervalMs: nonNegativeInt(env.MEDIA_SWEEP_INTERVAL_MS, 3600_000, 'MEDIA_SWEEP_INTERVAL_MS'),
    channelSecretKey: env.CHANNEL_SECRET_KEY || persistedSecret(dataDir, 'channel-secret-key', 32, 'base64'),
    ...providerConfig(env, port, (purpose) => derivedSecret(jwtSecret, purpose)),
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
    s3: null,
    mediaSweepIntervalMs: 0,
    channelSecretKey: Buffer.alloc(32, 7).toString('base64'),
    // Tests point graphUrl / tokenInfoUrl at a fake server they start (server/core/meta/fake).
    ...providerConfig({}, 0, (purpose) => `test-${purpose}`),
    realtime: { ...DEFAULT_REALTIME_CONFIG },
    ...overrides,
  };
}
