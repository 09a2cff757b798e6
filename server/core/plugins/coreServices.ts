/**
 * What the core gives every server plugin, by ref: the app's configuration, database, clock, outside
 * services (the adapters of server/providers), the plugin's HTTP scope and lifecycle, and the core's
 * own extension points. A plugin names the ones it needs in its `deps`.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ServiceName, ServiceRegistry } from '../services';
import type { MediaReferences } from '../../providers/storage/sweeper';
import type { PlanLimits, PlanLimitsRegistry } from '../planLimits';
import { createExtensionPoint, createServiceRef, type ServiceRef } from './refs';

/** A core ref backed by a service of the app's container (server/core/services.ts). */
export interface ContainerServiceRef<K extends ServiceName> extends ServiceRef<ServiceRegistry[K]> {
  readonly serviceName: K;
}

function containerRef<K extends ServiceName>(serviceName: K): ContainerServiceRef<K> {
  return Object.freeze({ ...createServiceRef<ServiceRegistry[K]>({ id: `core.${serviceName}` }), serviceName });
}

/** Start and stop hooks of the app, in the order plugins add them. */
export interface PluginLifecycle {
  /** Runs once every plugin is initialised, before the app listens (Fastify's onReady). */
  addStartHook(hook: () => Promise<void> | void): void;
  /** Runs when the app closes (Fastify's onClose): stop timers, wait for background work. */
  addShutdownHook(hook: () => Promise<void> | void): void;
}

export const coreServices = {
  config: containerRef('Config'),
  database: containerRef('Database'),
  clock: containerRef('Clock'),
  emailSender: containerRef('EmailSender'),
  /** The local e-mail outbox (null when SMTP is configured). */
  outbox: containerRef('Outbox'),
  rateLimiter: containerRef('RateLimiter'),
  tokens: containerRef('TokenService'),
  sessions: containerRef('SessionService'),
  mediaStorage: containerRef('MediaStorage'),
  realtime: containerRef('RealtimeHub'),
  metaGraph: containerRef('MetaGraph'),
  googleIdentity: containerRef('GoogleIdentity'),
  /** The plugin's own encapsulated Fastify scope: its routes, hooks and error handler stay inside it. */
  http: createServiceRef<FastifyInstance>({ id: 'core.http' }),
  /** The app's root Fastify instance, for what must be app-wide (a decorator every scope sees); prefer `http`. */
  rootHttp: createServiceRef<FastifyInstance>({ id: 'core.rootHttp' }),
  logger: createServiceRef<FastifyBaseLogger>({ id: 'core.logger' }),
  lifecycle: createServiceRef<PluginLifecycle>({ id: 'core.lifecycle' }),
  /** The company's plan limits (server/core/planLimits.ts): allows everything until a billing plugin sets the policy. */
  planLimits: createServiceRef<PlanLimits>({ id: 'core.planLimits' }),
} as const;

export const coreExtensionPoints = {
  /** Rows that keep chat uploads from the media sweeper: each plugin adds the SQL of its own columns. */
  mediaReferences: createExtensionPoint<Pick<MediaReferences, 'add'>>({ id: 'core.mediaReferences' }),
  /** Where the billing plugin sets the plan-limit policy and plugins add the usage counts it checks. */
  planLimits: createExtensionPoint<PlanLimitsRegistry>({ id: 'core.planLimits.registry' }),
  /** Where plugins add their part of the demo data (server/core/demoData.ts), run by server/main.ts and the test harness. */
  demoData: createExtensionPoint<import('../demoData').DemoDataRegistry>({ id: 'core.demoData' }),
} as const;
