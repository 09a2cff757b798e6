/**
 * Typed tokens for the dependency-injection container (Backstage's `createApiRef`, on tsyringe).
 * Tokens are explicit because Vite/esbuild emit no decorator metadata: every service is
 * registered with a factory that names its dependencies.
 */
import 'reflect-metadata';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';

export interface ApiRef<T> {
  readonly id: string;
  /** Phantom field carrying the type; never set at run time. */
  readonly T?: T;
}

export function createApiRef<T>(config: { id: string }): ApiRef<T> {
  return Object.freeze({ id: config.id }) as ApiRef<T>;
}

type DepsOf<D> = { [K in keyof D]: D[K] extends ApiRef<infer U> ? U : never };

export interface ApiFactory<T, D extends Record<string, ApiRef<unknown>> = Record<string, ApiRef<unknown>>> {
  api: ApiRef<T>;
  deps: D;
  factory: (deps: DepsOf<D>) => T;
}

export function createApiFactory<T, D extends Record<string, ApiRef<unknown>>>(f: ApiFactory<T, D>): ApiFactory<T, D> {
  return f;
}

/** A registry of API factories over a tsyringe child container; instances are singletons per registry. */
export class ApiRegistry {
  readonly container: DependencyContainer;
  private readonly ids = new Set<string>();

  constructor(parent: DependencyContainer = rootContainer) {
    this.container = parent.createChildContainer();
  }

  /** Registers a factory. A second factory for the same id fails unless `override` is set (tests). */
  register<T, D extends Record<string, ApiRef<unknown>>>(f: ApiFactory<T, D>, options: { override?: boolean } = {}): void {
    if (this.ids.has(f.api.id) && !options.override) {
      throw new Error(`API "${f.api.id}" is already registered`);
    }
    this.ids.add(f.api.id);
    let instance: T | undefined;
    let resolving = false;
    this.container.register(f.api.id, {
      useFactory: (c) => {
        if (instance !== undefined) return instance;
        if (resolving) throw new Error(`Circular dependency while creating API "${f.api.id}"`);
        resolving = true;
        try {
          const deps = {} as Record<string, unknown>;
          for (const [name, ref] of Object.entries(f.deps)) deps[name] = c.resolve((ref as ApiRef<unknown>).id);
          instance = f.factory(deps as DepsOf<D>);
          return instance;
        } finally {
          resolving = false;
        }
      },
    });
  }

  /** Registers a ready instance (tests use it to replace a service). */
  registerInstance<T>(ref: ApiRef<T>, value: T): void {
    this.ids.add(ref.id);
    this.container.register(ref.id, { useValue: value });
  }

  has(ref: ApiRef<unknown>): boolean {
    return this.ids.has(ref.id);
  }

  get<T>(ref: ApiRef<T>): T {
    if (!this.ids.has(ref.id)) throw new Error(`No implementation registered for API "${ref.id}"`);
    return this.container.resolve<T>(ref.id);
  }
}
