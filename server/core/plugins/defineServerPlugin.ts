/**
 * The server plugin contract (docs/architecture.md, "Adding a server plugin"): a plugin is a
 * declarative object, composed in server/plugins.config.ts and started by the core (./host.ts).
 *
 * ```ts
 * export const greetingsPlugin = defineServerPlugin({
 *   id: 'greetings',
 *   deps: { http: coreServices.http, db: coreServices.database },
 *   provides: { greetings: greetingServiceRef },
 *   init({ http, db }) {
 *     const greetings = new GreetingService(db);
 *     greetingRoutes(http, greetings);
 *     return { greetings };
 *   },
 * });
 * ```
 */
import type { ExtensionPoint, PluginDependencyRef, ResolvedDeps, ServiceRef } from './refs';

/** An extension point this plugin offers, with the implementation others register into. */
export interface ExtensionPointOffer<T = unknown> {
  point: ExtensionPoint<T>;
  /** Built before any plugin's init, so every plugin that depends on the point can register into it. */
  create(): T;
}

export function offerExtensionPoint<T>(point: ExtensionPoint<T>, create: () => T): ExtensionPointOffer<T> {
  return { point, create } as ExtensionPointOffer<T>;
}

type ProvidedValues<P> = { [K in keyof P]: P[K] extends ServiceRef<infer U> ? U : never };

export interface ServerPluginDefinition<
  D extends Record<string, PluginDependencyRef> = Record<string, PluginDependencyRef>,
  P extends Record<string, ServiceRef<unknown>> = Record<string, ServiceRef<unknown>>,
  E extends Record<string, PluginDependencyRef> = Record<string, never>,
> {
  /** Unique among the app's plugins; also names the plugin's folder under server/plugins. */
  id: string;
  /** What init needs: core services (coreServices.*), services other plugins provide, extension points. */
  deps: D;
  /** Optional dependencies: resolved to undefined when no loaded plugin provides them. */
  optionalDeps?: E;
  /** The services this plugin provides; init returns one value per key. */
  provides?: P;
  /** The extension points this plugin offers to others (created before any init). */
  extensionPoints?: ExtensionPointOffer[];
  /**
   * Wires the plugin into the app: routes on `coreServices.http` (the plugin's own encapsulated Fastify
   * scope), hooks on `coreServices.lifecycle`, registrations into other plugins' extension points.
   * Runs after every plugin it depends on.
   */
  init(deps: ResolvedDeps<D> & Partial<ResolvedDeps<E>>): ProvidedValues<P> | void | Promise<ProvidedValues<P> | void>;
}

export interface ServerPlugin {
  readonly id: string;
  readonly deps: Record<string, PluginDependencyRef>;
  readonly optionalDeps: Record<string, PluginDependencyRef>;
  readonly provides: Record<string, ServiceRef<unknown>>;
  readonly extensionPoints: ExtensionPointOffer[];
  init(deps: Record<string, unknown>): Record<string, unknown> | void | Promise<Record<string, unknown> | void>;
}

export function defineServerPlugin<
  D extends Record<string, PluginDependencyRef>,
  P extends Record<string, ServiceRef<unknown>> = Record<string, never>,
  E extends Record<string, PluginDependencyRef> = Record<string, never>,
>(definition: ServerPluginDefinition<D, P, E>): ServerPlugin {
  if (!/^[a-z][a-zA-Z0-9-]*$/.test(definition.id)) throw new Error(`Invalid server plugin id "${definition.id}"`);
  return Object.freeze({
    id: definition.id,
    deps: definition.deps,
    optionalDeps: definition.optionalDeps ?? {},
    provides: definition.provides ?? {},
    extensionPoints: definition.extensionPoints ?? [],
    init: definition.init as ServerPlugin['init'],
  });
}
