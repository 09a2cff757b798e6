/**
 * Dependency injection (tsyringe) with explicit tokens and factories — no decorators, because
 * esbuild/tsx emit no decorator metadata. Each app instance gets its own child container, so
 * tests can run many apps side by side and replace any service (EmailSender, Clock, …).
 */
import 'reflect-metadata';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import type { AppConfig } from './config';
import type { Database } from './db/client';
import type { EmailSender } from '../providers/email/types';
import type { RateLimiter } from './auth/rateLimiter';
import type { Clock } from './clock';
import type { TokenService } from './auth/tokens';
import type { SessionService } from './auth/sessions';
import type { OutboxEmailSender } from '../providers/email/outboxSender';
import type { RealtimeHub } from './realtime/types';
import type { MediaStorage } from '../providers/storage/types';
import type { GoogleIdentity, MetaGraph } from '../providers/meta/types';
import type { ServiceRef } from './plugins/refs';

/** Everything the container knows, by name. */
export interface ServiceRegistry {
  Config: AppConfig;
  Database: Database;
  Clock: Clock;
  EmailSender: EmailSender;
  /** The local outbox when no SMTP server is configured (serves /dev/outbox), else null. */
  Outbox: OutboxEmailSender | null;
  /** Fixed-window counts over rate-limiter-flexible: memory, or Redis with REDIS_URL (shared by processes); windows from the Clock. */
  RateLimiter: RateLimiter;
  TokenService: TokenService;
  SessionService: SessionService;
  /** Uploaded media (avatars): local disk under DATA_DIR/media by default. */
  MediaStorage: MediaStorage;
  /** The Phoenix-protocol socket hub: feature plugins register their channels on it and broadcast. */
  RealtimeHub: RealtimeHub;
  /** Meta's Graph API (WhatsApp Cloud API, Messenger, Instagram, Facebook login): the real HTTP adapter, pointed at the local fake in the embedded default. */
  MetaGraph: MetaGraph;
  /** Google sign-in token checks. */
  GoogleIdentity: GoogleIdentity;
}

export type ServiceName = keyof ServiceRegistry;

export const TOKENS: { readonly [K in ServiceName]: symbol } = {
  Config: Symbol('Config'),
  Database: Symbol('Database'),
  Clock: Symbol('Clock'),
  EmailSender: Symbol('EmailSender'),
  Outbox: Symbol('Outbox'),
  RateLimiter: Symbol('RateLimiter'),
  TokenService: Symbol('TokenService'),
  SessionService: Symbol('SessionService'),
  MediaStorage: Symbol('MediaStorage'),
  RealtimeHub: Symbol('RealtimeHub'),
  MetaGraph: Symbol('MetaGraph'),
  GoogleIdentity: Symbol('GoogleIdentity'),
};

export type ServiceOverrides = Partial<ServiceRegistry>;

/** A typed view over one app's container. */
export class Services {
  /**
   * What each token resolved to. Every registration here is one value or a singleton, so a resolution is final
   * until the token is registered again (a test's override), which empties this. tsyringe's resolve per call was
   * a third of a socket connect's admission and runs several times per HTTP request (bench/realtime, issue #26).
   */
  private readonly resolved = new Map<symbol | string, unknown>();

  constructor(readonly container: DependencyContainer) {}

  get<K extends ServiceName>(name: K): ServiceRegistry[K];
  /** A service a plugin provides (server/core/plugins), once that plugin's init has run. */
  get<T>(ref: ServiceRef<T>): T;
  get(nameOrRef: ServiceName | ServiceRef<unknown>): unknown {
    const token = typeof nameOrRef === 'string' ? TOKENS[nameOrRef] : nameOrRef.id;
    if (this.resolved.has(token)) return this.resolved.get(token);
    if (typeof nameOrRef !== 'string' && !this.container.isRegistered(token)) throw new Error(`No plugin provides the service "${nameOrRef.id}" in this app`);
    const value = this.container.resolve(token);
    this.resolved.set(token, value);
    return value;
  }

  /** Whether a plugin of this app provides the service. */
  has(ref: ServiceRef<unknown>): boolean {
    return this.container.isRegistered(ref.id);
  }

  /** Registers the value a plugin provides for a ref (server/core/plugins/host.ts); a ref is provided once. */
  provide<T>(ref: ServiceRef<T>, value: T): void {
    if (this.container.isRegistered(ref.id)) throw new Error(`The service "${ref.id}" is provided twice`);
    this.resolved.delete(ref.id);
    this.container.register(ref.id, { useFactory: () => value });
  }

  /** Registers a lazily built singleton; the factory may resolve other services. */
  factory<K extends ServiceName>(name: K, build: (services: Services) => ServiceRegistry[K]): void {
    let built = false;
    let instance: ServiceRegistry[K];
    this.resolved.delete(TOKENS[name]);
    this.container.register(TOKENS[name], {
      useFactory: () => {
        if (!built) {
          instance = build(this);
          built = true;
        }
        return instance;
      },
    });
  }

  value<K extends ServiceName>(name: K, value: ServiceRegistry[K]): void {
    // A factory rather than `useValue`: tsyringe treats a falsy useValue (e.g. Outbox = null) as no provider.
    this.resolved.delete(TOKENS[name]);
    this.container.register(TOKENS[name], { useFactory: () => value });
  }
}

export function createServices(): Services {
  return new Services(rootContainer.createChildContainer());
}
