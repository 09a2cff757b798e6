/**
 * Builds one Fastify app: services (DI), core plugins (errors, security headers, request
 * logging), the feature plugins, the dev outbox and the console's static files.
 * The database is opened and migrated by the caller (server/main.ts, or the test helper).
 */
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { fastifyTrustProxy, type AppConfig } from './config';
import type { Database } from './db/client';
import { systemClock, type Clock } from './clock';
import { registerErrorHandling } from './errors';
import { registerRequestLogging } from './requestLogger';
import { registerSecurityHeaders } from './securityHeaders';
import { access, declareRoutes, registerAccessControl } from './access';
import { registerInputHardening } from './input';
import { createServices, type ServiceOverrides, type ServiceName, type Services, type ServiceRegistry } from './services';
import { createRateLimiter } from './auth/rateLimiter';
import { TokenService } from './auth/tokens';
import { SessionService } from './auth/sessions';
import { OutboxEmailSender } from '../providers/email/outboxSender';
import { SmtpEmailSender } from '../providers/email/smtpSender';
import { registerConsoleStatic } from './consoleStatic';
import { healthRoutes, Readiness } from './health';
import { createRealtime } from './realtime';
import { LocalDiskMediaStorage } from '../providers/storage/localDisk';
import { S3MediaStorage } from '../providers/storage/s3';
import { MediaReferences, mediaReferencesRef, registerMediaSweeper } from '../providers/storage/sweeper';
import { mediaRoutes } from '../providers/storage/routes';
import { UploadSigner } from '../providers/storage/presign';
import { clientConfigRoute, createGoogleIdentity, createMetaGraph } from '../providers/meta';
import { registerDemoRoutes } from './demoRoutes';
import './fastifyTypes';
import { registerOpenApi } from './openapi/openapi';
import { startServerPlugins } from './plugins/host';
import type { ServerPlugin } from './plugins/defineServerPlugin';
import { coreExtensionPoints, coreServices } from './plugins/coreServices';
import { PlanLimitsHub } from './planLimits';
import { DemoSeeders, demoSeedersRef } from './demoData';

export interface BuildAppOptions {
  config: AppConfig;
  db: Database;
  /** Replace services, e.g. the EmailSender or the Clock in tests. */
  overrides?: ServiceOverrides;
  /** The feature plugins: server/plugins.config.ts's `serverPlugins` (tests may start fewer). */
  plugins: readonly ServerPlugin[];
}

/** Content-Security-Policy of the console: no inline scripts anywhere. */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  // connect.facebook.net: the Facebook SDK (embedded signup, page connection, Facebook login);
  // accounts.google.com: Google Identity Services (Google sign-in).
  scriptSrc: ["'self'", 'https://connect.facebook.net', 'https://accounts.google.com'],
  scriptSrcAttr: ["'none'"],
  // MUI/emotion inject <style> elements at runtime.
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'", 'ws:', 'wss:'],
  frameSrc: ["'self'", 'https://www.facebook.com', 'https://web.facebook.com', 'https://accounts.google.com'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'self'"],
};

/**
 * The CSP with an S3 bucket: the browser PUTs uploads to it (connect-src) and loads images, audio and
 * video from it: public media from S3_PUBLIC_URL (or the bucket), chat attachments from the bucket itself
 * (presigned GETs).
 */
export function contentSecurityPolicy(config: AppConfig): typeof CONTENT_SECURITY_POLICY & { mediaSrc?: string[] } {
  if (!config.s3) return CONTENT_SECURITY_POLICY;
  const bucket = new S3MediaStorage(config.s3, systemClock);
  const files = [...new Set([bucket.fileOrigin(), bucket.uploadOrigin()])];
  return {
    ...CONTENT_SECURITY_POLICY,
    connectSrc: [...CONTENT_SECURITY_POLICY.connectSrc, bucket.uploadOrigin()],
    imgSrc: [...CONTENT_SECURITY_POLICY.imgSrc, ...files],
    mediaSrc: ["'self'", ...files],
  };
}

/** Signs and checks presigned media uploads (PUT /media/upload/<key>); the key is derived from the JWT secret. */
export function mediaUploadSigner(config: AppConfig, clock: Clock): UploadSigner {
  return new UploadSigner({ secret: config.jwtSecret, publicUrl: config.publicUrl, clock, mediaPath: '/media' });
}

function registerServices(services: Services, config: AppConfig, db: Database, log: FastifyInstance['log'], overrides: ServiceOverrides): void {
  services.value('Config', config);
  services.value('Database', db);
  services.value('Clock', systemClock);
  // Shared by every process through Redis when REDIS_URL is set (see docs/architecture.md, Limits).
  services.factory('RateLimiter', (s) => createRateLimiter(s.get('Clock'), { url: config.redisUrl, keyPrefix: `${config.realtime.redisPrefix}:limits` }, log));
  services.factory(
    'TokenService',
    (s) => new TokenService({ secret: config.jwtSecret, accessTokenTtl: config.accessTokenTtl, refreshTokenTtl: config.refreshTokenTtl }, s.get('Clock')),
  );
  services.factory('SessionService', (s) => new SessionService(s.get('Database'), s.get('TokenService'), s.get('Clock'), () => s.get('RealtimeHub')));
  services.factory('Outbox', (s) => (config.smtpUrl ? null : new OutboxEmailSender(s.get('Database'), s.get('Clock'), log, config.demo.enabled)));
  services.factory('EmailSender', (s) => (config.smtpUrl ? new SmtpEmailSender(config.smtpUrl, config.mailFrom) : s.get('Outbox')!));
  services.factory('MediaStorage', (s) =>
    config.s3
      ? new S3MediaStorage(config.s3, s.get('Clock'))
      : new LocalDiskMediaStorage(path.join(config.dataDir, 'media'), '/media', mediaUploadSigner(config, s.get('Clock'))),
  );

  services.factory('MetaGraph', () => createMetaGraph(config.meta));
  services.factory('GoogleIdentity', () => createGoogleIdentity(config.google));

  for (const [name, value] of Object.entries(overrides) as [ServiceName, ServiceRegistry[ServiceName]][]) {
    if (value !== undefined) services.value(name, value as never);
  }
}

export async function buildApp({ config, db, overrides = {}, plugins }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      // Secrets carried in query strings are not logged: the bot service's access_key, the long-poll token, and
      // the OAuth values of the Graph API calls the local fake Meta answers (client_secret, code, tokens, proofs).
      serializers: {
        req: (req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
          method: req.method,
          url: redactQuerySecrets(req.url),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        }),
      },
    },
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Company logos arrive as data URLs (up to 200 000 characters, see contract/validation.ts).
    bodyLimit: 1024 * 1024,
    // While closing, requests on kept-alive connections are still routed (with Connection: close)
    // rather than answered by Fastify's bare 503: phoenix.js's long-poll stalls for good on a
    // JSON answer without its `status`, whereas the realtime routes answer it properly (410).
    return503OnClosing: false,
    // One log line per request (below), not Fastify's two ("incoming request" and "request completed"):
    // at the default info level the second line cost ≈ 0.07 ms of CPU per request (bench/data).
    logController: new LogController({ disableRequestLogging: true }),
  });
  registerRequestLogging(app);

  const services = createServices();
  registerServices(services, config, db, app.log, overrides);
  app.decorate('services', services);
  app.decorateRequest('user', null);
  app.decorateRequest('company', null);
  app.decorateRequest('membership', null);
  app.addHook('onClose', async () => {
    const sender = services.get('EmailSender');
    if (sender instanceof SmtpEmailSender) sender.close();
    await services.get('RateLimiter').close?.();
    await services.container.dispose();
  });

  registerErrorHandling(app);
  // Before any route: every route must declare its access rule (server/core/access), enforced and recorded here.
  registerAccessControl(app);
  // Before the feature plugins: every route inherits the JSON depth limit and the NUL check.
  registerInputHardening(app);
  // Before the feature plugins: @fastify/swagger records every route for the generated OpenAPI documents (/resources).
  await registerOpenApi(app, { botServiceBase: config.botService.base, version: process.env.npm_package_version ?? '1.11.0' });
  registerSecurityHeaders(app, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    // The console may run on plain http on a LAN; do not force https on its requests.
    strictTransportSecurity: config.publicUrl.startsWith('https://') ? undefined : false,
  });

  // The socket hub and its routes, before the feature plugins, which register their channels on it.
  await createRealtime(app, config);

  // Readiness (GET /api/ready/) and the draining flag server/core/shutdown.ts sets on SIGTERM.
  const readiness = new Readiness({ config, db, media: () => services.get('MediaStorage'), clock: services.get('Clock'), log: app.log });
  app.decorate('readiness', readiness);
  // While draining every answer closes its connection (a request routed before the drain would otherwise
  // leave a kept-alive connection the close waits on until the grace runs out).
  // Callback-style, as every hook each request runs (an async hook costs a promise and a turn of the microtask queue).
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (readiness.isDraining) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onClose', async () => readiness.close());
  await app.register(healthRoutes, { db, version: process.env.npm_package_version ?? '1.11.0' });
  // The feature plugins (server/plugins.config.ts), each in its own encapsulated context, in dependency order.
  const mediaReferences = new MediaReferences();
  services.provide(mediaReferencesRef, mediaReferences);
  const planLimits = new PlanLimitsHub();
  // The plugins add their demo seeders; server/main.ts and the test harness run them (app.services.get(demoSeedersRef)).
  const demoData = new DemoSeeders();
  services.provide(demoSeedersRef, demoData);
  await startServerPlugins(app, services, plugins, {
    services: new Map<string, unknown>([[coreServices.planLimits.id, planLimits]]),
    extensionPoints: new Map<string, unknown>([
      [coreExtensionPoints.mediaReferences.id, mediaReferences],
      [coreExtensionPoints.planLimits.id, planLimits],
      [coreExtensionPoints.demoData.id, demoData],
    ]),
  });
  await app.register(mediaRoutes, { storage: services.get('MediaStorage'), signer: mediaUploadSigner(config, services.get('Clock')) });
  if (config.mediaSweepIntervalMs > 0) {
    // The feature plugins above added the rows that keep chat uploads (their MediaReferences fragments).
    registerMediaSweeper(app, { storage: services.get('MediaStorage'), db, references: mediaReferences, clock: services.get('Clock'), intervalMs: config.mediaSweepIntervalMs, log: app.log });
  }

  await app.register(clientConfigRoute);
  // Everything below /dev (the local fakes, the e-mail outbox) is mounted in demo mode only; the
  // fakes speak Meta's and Google's protocols and cannot name a rule per route.
  declareRoutes(app, { prefix: '/dev' }, access.public('demo mode only: the local fake Meta and Google and the e-mail outbox'));
  // Demo mode only (config.demo, DEV_OUTBOX): the fakes of Meta and Google, the e-mail outbox pages.
  await registerDemoRoutes(app, config, services.get('Outbox'));

  // @fastify/static's route and everything below /dev cannot name a rule themselves.
  declareRoutes(app, { url: '/*' }, access.public('the built console: static files and the SPA fallback'));
  await registerConsoleStatic(app, config.staticDir, { serveSourceMaps: config.demo.enabled });
  return app;
}

const QUERY_SECRETS = /([?&](?:access_key|token|access_token|input_token|fb_exchange_token|client_secret|code|appsecret_proof)=)[^&#]*/gi;

/** A request URL as logged: the values of query parameters that carry secrets replaced by `[redacted]`. */
export function redactQuerySecrets(url: string): string {
  return url.replace(QUERY_SECRETS, '$1[redacted]');
}
