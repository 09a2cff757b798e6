/**
 * Server configuration, read once from the environment (with defaults that let
 * `npm start` work on a fresh checkout). Secrets never get a hard-coded default:
 * the JWT secret is generated on first start and kept in DATA_DIR.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
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
  /** The offline demo (DEMO_MODE): the fake Meta and Google, the e-mail outbox pages. */
  demo: DemoConfig;
  /** Serve /dev/outbox while no SMTP_URL is set (DEV_OUTBOX; default: in demo mode only). */
  devOutbox: boolean;
  seedDemo: boolean;
  demoPassword: string;
  logLevel: string;
  /** Which proxies' X-Forwarded-For is believed (Fastify's trustProxy): see trustProxySetting. */
  trustProxy: TrustProxy;
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
  /**
   * MEDIA_SHARED=true: DATA_DIR/media is a folder every process of a cluster shares (NFS, a shared volume).
   * Without it (and without S3_BUCKET) a cluster (REDIS_URL) is told its media is per process.
   */
  mediaShared: boolean;
  /** SHUTDOWN_GRACE_MS: how long in-flight requests get on SIGTERM/SIGINT before their connections are cut (default 10 s). */
  shutdownGraceMs: number;
  /** Key (32 bytes, base64) encrypting provider tokens at rest (CHANNEL_SECRET_KEY, else generated into DATA_DIR). */
  channelSecretKey: string;
  meta: MetaConfig;
  google: GoogleConfig;
  /** The bot service (server/plugins/bots): BOT_SERVICE_BASE, BOT_OPERATION_TIMEOUT_MS, BOT_OPERATION_MAX_BYTES, BOT_OPERATION_ALLOW_IPS. */
  botService: { base: string; operationTimeoutMs: number; operationMaxBytes: number; operationAllowIps: string[] };
  /** Feature keys the console turns on besides plugins.config.ts's start-up ones (CONSOLE_FEATURES, e.g. `branching_flows`), given in GET /api/client-config/. */
  consoleFeatures: string[];
}

/**
 * The offline demo. The fakes answer for Meta and Google and the outbox shows every e-mail (reset
 * links too): whoever reaches them can sign in as anyone. So they are mounted only in demo mode,
 * which by default (DEMO_MODE=auto) is on only for a server nobody else can reach.
 */
export interface DemoConfig {
  /** The fakes (/dev/meta, /dev/google) stand in for unconfigured providers, and the outbox pages are served. */
  enabled: boolean;
  /** DEMO_MODE as set: 'auto' decides from `servesOtherMachines`. */
  setting: DemoModeSetting;
  /** HOST is not loopback, PUBLIC_URL is not a loopback URL, or TRUST_PROXY is on (a reverse proxy forwards others' requests). */
  servesOtherMachines: boolean;
}

export type DemoModeSetting = 'auto' | 'true' | 'false';

/** Loopback listen addresses and URL hosts: `localhost`, 127.0.0.0/8, ::1 (bracketed or not, IPv4-mapped too). */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice('::ffff:'.length) : h;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

function demoModeSetting(value: string | undefined): DemoModeSetting {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === 'auto') return 'auto';
  if (['1', 'true', 'yes', 'on'].includes(v)) return 'true';
  if (['0', 'false', 'no', 'off'].includes(v)) return 'false';
  throw new Error(`DEMO_MODE must be auto, true or false, got "${value}"`);
}

/** Demo mode from DEMO_MODE, HOST, PUBLIC_URL and TRUST_PROXY: `auto` is on only while nobody else can reach the server. */
export function demoConfig(env: Env, host: string, publicUrl: string, trustProxy: boolean): DemoConfig {
  const setting = demoModeSetting(env.DEMO_MODE);
  const servesOtherMachines = !isLoopbackHost(host) || !isLoopbackHost(new URL(publicUrl).hostname) || trustProxy;
  const enabled = setting === 'true' || (setting === 'auto' && !servesOtherMachines);
  return { enabled, setting, servesOtherMachines };
}

/**
 * How a provider is reached: 'live' with its app id set; 'local' = the fake on this server's own port
 * (demo mode only); 'off' = neither: the console shows it is not configured and its routes answer 503.
 */
export type ProviderMode = 'live' | 'local' | 'off';

/**
 * Meta (Graph API: WhatsApp Cloud API, Messenger, Instagram, Facebook login). Without META_APP_ID
 * the built-in fake Meta served at /dev/meta is used in demo mode ('local'), so the demo works offline.
 */
export interface MetaConfig {
  mode: ProviderMode;
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

/** Google sign-in (access tokens from Google Identity Services). Without GOOGLE_CLIENT_ID the local fake at /dev/google is used in demo mode. */
export interface GoogleConfig {
  mode: ProviderMode;
  clientId: string;
  /** Token introspection (https://oauth2.googleapis.com/tokeninfo). */
  tokenInfoUrl: string;
  /** OpenID userinfo (https://openidconnect.googleapis.com/v1/userinfo). */
  userInfoUrl: string;
  /** Google Identity Services' script the console loads. */
  scriptUrl: string;
}

export const GRAPH_VERSION_DEFAULT = 'v23.0';

/**
 * The provider settings: live when the app ids are set, else the local fakes on this server's own
 * port in demo mode, else off (no app id: the console hides nothing but is told 'not configured').
 */
export function providerConfig(env: Env, port: number, secret: (purpose: string) => string, demo: boolean): Pick<AppConfig, 'meta' | 'google'> {
  const local = `http://127.0.0.1:${port}`;
  const metaMode: ProviderMode = env.META_APP_ID ? 'live' : demo ? 'local' : 'off';
  const googleMode: ProviderMode = env.GOOGLE_CLIENT_ID ? 'live' : demo ? 'local' : 'off';
  const metaLocal = metaMode === 'local';
  const googleLocal = googleMode === 'local';
  if (metaMode === 'live' && !env.META_APP_SECRET) throw new Error('META_APP_SECRET is required with META_APP_ID');
  return {
    meta: {
      mode: metaMode,
      appId: env.META_APP_ID || (metaLocal ? 'local-fake-app' : ''),
      // Off: a secret nobody knows, so no webhook signature ever checks out.
      appSecret: env.META_APP_SECRET || secret('meta-app-secret'),
      verifyToken: env.META_VERIFY_TOKEN || secret('meta-verify-token'),
      configId: env.META_CONFIG_ID || (metaLocal ? 'local-fake-config' : ''),
      graphVersion: env.META_GRAPH_VERSION || GRAPH_VERSION_DEFAULT,
      graphUrl: (env.META_GRAPH_URL || (metaLocal ? `${local}/dev/meta/graph` : 'https://graph.facebook.com')).replace(/\/+$/, ''),
      sdkUrl: env.META_SDK_URL || (metaLocal ? '/dev/meta/sdk.js' : 'https://connect.facebook.net/en_US/sdk.js'),
      sendRetryDelaysMs: [1000, 2000, 4000, 8000],
    },
    google: {
      mode: googleMode,
      clientId: env.GOOGLE_CLIENT_ID || (googleLocal ? 'local-fake-google-client' : ''),
      tokenInfoUrl: env.GOOGLE_TOKENINFO_URL || (googleLocal ? `${local}/dev/google/tokeninfo` : 'https://oauth2.googleapis.com/tokeninfo'),
      userInfoUrl: env.GOOGLE_USERINFO_URL || (googleLocal ? `${local}/dev/google/userinfo` : 'https://openidconnect.googleapis.com/v1/userinfo'),
      scriptUrl: env.GOOGLE_SCRIPT_URL || (googleLocal ? '/dev/google/gsi-client.js' : 'https://accounts.google.com/gsi/client'),
    },
  };
}

/** An S3-compatible bucket (AWS S3, MinIO, Cloudflare R2): server/providers/storage/s3.ts. */
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

/** false: no proxy; true: every hop; n: the n nearest hops; a list: proxies at these addresses (Fastify's trustProxy). */
export type TrustProxy = boolean | number | string[];

/** Names proxy-addr (Fastify) knows for address ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY, as Fastify's trustProxy takes it. request.ip (what login limits count by) is then
 * the address the trusted proxies say the client has, else the connection's address.
 * - unset, `false`, `0`, `no`, `off`: X-Forwarded-For is ignored (a client could write anything there);
 * - `true`, `yes`, `on`: every hop is trusted: the leftmost X-Forwarded-For entry (only safe when the
 *   proxy replaces the header rather than appending to it);
 * - a positive integer n: the n nearest hops are proxies (`1`: one reverse proxy in front);
 * - a comma list of addresses, CIDR ranges or loopback/linklocal/uniquelocal: requests from those are trusted.
 */
export function trustProxySetting(value: string | undefined): TrustProxy {
  const v = (value ?? '').trim().toLowerCase();
  if (['', 'false', '0', 'no', 'off'].includes(v)) return false;
  if (['true', 'yes', 'on'].includes(v)) return true;
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v.split(',').map((e) => e.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address);
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!PROXY_RANGE_NAMES.includes(entry) && (!family || !bitsOk || extra !== undefined)) {
      throw new Error(`TRUST_PROXY must be true, false, a hop count or a comma list of addresses/CIDR ranges, got "${value}"`);
    }
  }
  return entries;
}

/** For Fastify's options (its types lack the hop count its runtime accepts: the same function it builds). */
export function fastifyTrustProxy(setting: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  return (_address, hop) => hop < setting;
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

/** CONSOLE_FEATURES: a comma list of feature keys (letters, digits, `_`); anything else stops the start. */
export function consoleFeatureKeys(value: string | undefined): string[] {
  const keys = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const key of keys) if (!/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(key)) throw new Error(`CONSOLE_FEATURES: "${key}" is not a feature key (a comma list such as branching_flows)`);
  return [...new Set(keys)];
}

/** Which database the server uses: DATABASE_URL, else PGlite under DATA_DIR (`npm run migrate` reads only this). */
export function databaseSettings(env: Env = process.env): Pick<AppConfig, 'databaseUrl' | 'pgliteDir'> {
  return { databaseUrl: env.DATABASE_URL || null, pgliteDir: path.join(path.resolve(env.DATA_DIR || './.data'), 'pglite') };
}

export function loadConfig(env: Env = process.env): AppConfig {
  const port = int(env.PORT, 8080, 'PORT');
  const dataDir = path.resolve(env.DATA_DIR || './.data');
  const jwtSecret = env.JWT_SECRET || persistedSecret(dataDir);
  if (jwtSecret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters long');
  // Loopback by default: a fresh `npm start` is a local demo; serving others is a choice (HOST=0.0.0.0).
  const host = env.HOST || '127.0.0.1';
  const publicUrl = httpUrl(env.PUBLIC_URL || `http://localhost:${port}`, 'PUBLIC_URL');
  const trustProxy = trustProxySetting(env.TRUST_PROXY);
  const demo = demoConfig(env, host, publicUrl, trustProxy !== false && trustProxy !== 0);
  return {
    port,
    host,
    dataDir,
    ...databaseSettings(env),
    publicUrl,
    jwtSecret,
    accessTokenTtl: int(env.ACCESS_TOKEN_TTL, 900, 'ACCESS_TOKEN_TTL'),
    refreshTokenTtl: int(env.REFRESH_TOKEN_TTL, 14 * 24 * 3600, 'REFRESH_TOKEN_TTL'),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || 'Console <no-reply@localhost>',
    demo,
    // Naming DEV_OUTBOX=true serves it outside the demo too (the banner then warns); false hides it in the demo.
    devOutbox: bool(env.DEV_OUTBOX, demo.enabled),
    // Demo users have a published password: created by default only in demo mode.
    seedDemo: bool(env.SEED_DEMO, demo.enabled),
    demoPassword: env.DEMO_PASSWORD || 'Demo-Console-2026',
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy,
    staticDir: path.resolve(env.STATIC_DIR || './dist'),
    // 2^15 with r=8 uses 32 MiB per hash: memory-hard yet ~50-100 ms on a server core.
    passwordHashCost: int(env.PASSWORD_HASH_COST, 2 ** 15, 'PASSWORD_HASH_COST'),
    redisUrl: env.REDIS_URL || null,
    mediaUploadMaxBytes: int(env.MEDIA_UPLOAD_MAX_BYTES, 16 * 1024 * 1024, 'MEDIA_UPLOAD_MAX_BYTES'),
    s3: s3Config(env),
    mediaSweepIntervalMs: nonNegativeInt(env.MEDIA_SWEEP_INTERVAL_MS, 3600_000, 'MEDIA_SWEEP_INTERVAL_MS'),
    mediaShared: bool(env.MEDIA_SHARED, false),
    shutdownGraceMs: nonNegativeInt(env.SHUTDOWN_GRACE_MS, 10_000, 'SHUTDOWN_GRACE_MS'),
    channelSecretKey: env.CHANNEL_SECRET_KEY || persistedSecret(dataDir, 'channel-secret-key', 32, 'base64'),
    ...providerConfig(env, port, (purpose) => derivedSecret(jwtSecret, purpose), demo.enabled),
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
    botService: {
      base: `/${(env.BOT_SERVICE_BASE || '/bot-service').replace(/^\/+|\/+$/g, '')}`,
      operationTimeoutMs: int(env.BOT_OPERATION_TIMEOUT_MS, 10_000, 'BOT_OPERATION_TIMEOUT_MS'),
      operationMaxBytes: int(env.BOT_OPERATION_MAX_BYTES, 256 * 1024, 'BOT_OPERATION_MAX_BYTES'),
      operationAllowIps: (env.BOT_OPERATION_ALLOW_IPS || '').split(',').map((s) => s.trim()).filter(Boolean),
    },
    consoleFeatures: consoleFeatureKeys(env.CONSOLE_FEATURES),
  };
}

/** Configuration for tests: in-memory database, fixed secret, demo mode (fakes and outbox), cheap hashing. */
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
    demo: { enabled: true, setting: 'true', servesOtherMachines: false },
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
    mediaShared: false,
    shutdownGraceMs: 10_000,
    channelSecretKey: Buffer.alloc(32, 7).toString('base64'),
    // Tests point graphUrl / tokenInfoUrl at a fake server they start (server/providers/meta/fake).
    ...providerConfig({}, 0, (purpose) => `test-${purpose}`, true),
    realtime: { ...DEFAULT_REALTIME_CONFIG },
    botService: { base: '/bot-service', operationTimeoutMs: 2000, operationMaxBytes: 64 * 1024, operationAllowIps: [] },
    consoleFeatures: [],
    ...overrides,
  };
}
