/**
 * Typed references between server plugins: the server twin of the console's `createApiRef`
 * (src/core/di/apiRef.ts) and of Backstage's `createServiceRef` / `createExtensionPoint`.
 *
 * - A service ref names something one plugin (or the core) provides and others depend on.
 * - An extension point names a registration interface one plugin (or the core) offers so that
 *   others can add to it (the inbound-message pipeline, webhook handlers by kind, media references…).
 *
 * A ref carries only an id and a phantom type: the value behind it is resolved per app, so tests can
 * run many apps side by side and nothing lives in a module-level variable.
 */

export interface ServiceRef<T> {
  readonly id: string;
  readonly kind: 'service';
  /** Phantom field carrying the type; never set at run time. */
  readonly T?: T;
}

export interface ExtensionPoint<T> {
  readonly id: string;
  readonly kind: 'extensionPoint';
  /** Phantom field carrying the type; never set at run time. */
  readonly T?: T;
}

export type PluginDependencyRef = ServiceRef<unknown> | ExtensionPoint<unknown>;

export function createServiceRef<T>(config: { id: string }): ServiceRef<T> {
  return Object.freeze({ id: config.id, kind: 'service' as const });
}

export function createExtensionPoint<T>(config: { id: string }): ExtensionPoint<T> {
  return Object.freeze({ id: config.id, kind: 'extensionPoint' as const });
}

/** The values a `deps` object of refs resolves to. */
export type ResolvedDeps<D> = {
  [K in keyof D]: D[K] extends ServiceRef<infer U> ? U : D[K] extends ExtensionPoint<infer U> ? U : never;
};
