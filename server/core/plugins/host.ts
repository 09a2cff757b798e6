/**
 * Starts an app's server plugins (server/plugins.config.ts) on the app's container: checks the
 * composition (unique ids, every dependency provided, no cycle), creates every offered extension point,
 * then runs each plugin's init once everything it depends on is initialised, in the configured order
 * where the dependencies allow it (route order is observable: the generated isolation test walks it).
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services';
import { coreServices, type ContainerServiceRef, type PluginLifecycle } from './coreServices';
import type { ServerPlugin } from './defineServerPlugin';
import type { PluginDependencyRef } from './refs';

/** Values the host itself supplies (the rest of the core refs come from the app's container). */
export interface CoreValues {
  /** Extension points the core offers (coreExtensionPoints), by id. */
  extensionPoints: Map<string, unknown>;
  /** Core services that are not in the container (coreServices.planLimits), by id. */
  services: Map<string, unknown>;
}

interface Owner {
  plugin: string;
  kind: 'service' | 'extensionPoint';
}

const SCOPE_REFS = new Set([coreServices.http.id, coreServices.lifecycle.id, coreServices.logger.id, coreServices.rootHttp.id]);

function isContainerRef(ref: PluginDependencyRef): ref is ContainerServiceRef<never> {
  return 'serviceName' in ref;
}

/** The plugins in init order: each after the plugins it depends on, otherwise as configured. */
export function planPluginOrder(plugins: readonly ServerPlugin[], core: CoreValues): ServerPlugin[] {
  const owners = new Map<string, Owner>();
  const ids = new Set<string>();
  for (const plugin of plugins) {
    if (ids.has(plugin.id)) throw new Error(`Server plugin "${plugin.id}" is registered twice`);
    ids.add(plugin.id);
    for (const ref of Object.values(plugin.provides)) {
      const previous = owners.get(ref.id);
      if (previous || core.services.has(ref.id)) throw new Error(`"${ref.id}" is provided by both "${previous?.plugin ?? 'core'}" and "${plugin.id}"`);
      owners.set(ref.id, { plugin: plugin.id, kind: 'service' });
    }
    for (const { point } of plugin.extensionPoints) {
      const previous = owners.get(point.id);
      if (previous || core.extensionPoints.has(point.id)) throw new Error(`Extension point "${point.id}" is offered by both "${previous?.plugin ?? 'core'}" and "${plugin.id}"`);
      owners.set(point.id, { plugin: plugin.id, kind: 'extensionPoint' });
    }
  }

  const isCore = (ref: PluginDependencyRef) =>
    isContainerRef(ref) || SCOPE_REFS.has(ref.id) || core.services.has(ref.id) || core.extensionPoints.has(ref.id);

  // Which plugins each plugin waits for. A plugin registering into another's extension point runs after
  // the point's owner (the owner creates the point; registrations are read when the app runs).
  const waitsFor = new Map<string, Set<string>>();
  for (const plugin of plugins) {
    const before = new Set<string>();
    for (const [name, ref] of Object.entries(plugin.deps)) {
      if (isCore(ref)) continue;
      const owner = owners.get(ref.id);
      if (!owner) throw new Error(`Server plugin "${plugin.id}" needs "${ref.id}" (deps.${name}), which no loaded plugin provides`);
      if (owner.plugin !== plugin.id) before.add(owner.plugin);
    }
    for (const ref of Object.values(plugin.optionalDeps)) {
      const owner = owners.get(ref.id);
      if (owner && owner.plugin !== plugin.id) before.add(owner.plugin);
    }
    waitsFor.set(plugin.id, before);
  }

  const ordered: ServerPlugin[] = [];
  const done = new Set<string>();
  while (ordered.length < plugins.length) {
    const next = plugins.find((p) => !done.has(p.id) && [...waitsFor.get(p.id)!].every((id) => done.has(id)));
    if (!next) {
      const stuck = plugins.filter((p) => !done.has(p.id)).map((p) => `${p.id} → ${[...waitsFor.get(p.id)!].filter((id) => !done.has(id)).join(', ')}`);
      throw new Error(`Server plugins depend on each other in a cycle: ${stuck.join('; ')}`);
    }
    ordered.push(next);
    done.add(next.id);
  }
  return ordered;
}

/** Runs every plugin's init on the app, in dependency order; the services they provide land in `services`. */
export async function startServerPlugins(app: FastifyInstance, services: Services, plugins: readonly ServerPlugin[], core: CoreValues): Promise<void> {
  const ordered = planPluginOrder(plugins, core);
  const extensionPoints = new Map(core.extensionPoints);
  for (const plugin of plugins) for (const offer of plugin.extensionPoints) extensionPoints.set(offer.point.id, offer.create());

  const resolve = (ref: PluginDependencyRef, scope: FastifyInstance, lifecycle: PluginLifecycle): unknown => {
    if (ref.kind === 'extensionPoint') return extensionPoints.get(ref.id);
    if (isContainerRef(ref)) return services.get(ref.serviceName);
    if (ref.id === coreServices.http.id) return scope;
    if (ref.id === coreServices.rootHttp.id) return app;
    if (ref.id === coreServices.logger.id) return app.log;
    if (ref.id === coreServices.lifecycle.id) return lifecycle;
    if (core.services.has(ref.id)) return core.services.get(ref.id);
    return services.has(ref) ? services.get(ref) : undefined;
  };

  for (const plugin of ordered) {
    // Each plugin in its own encapsulated context, as `app.register(plugin)` gave them before.
    await app.register(async (scope) => {
      const lifecycle: PluginLifecycle = {
        addStartHook: (hook) => scope.addHook('onReady', async () => hook()),
        addShutdownHook: (hook) => scope.addHook('onClose', async () => hook()),
      };
      const deps: Record<string, unknown> = {};
      for (const [name, ref] of Object.entries(plugin.optionalDeps)) deps[name] = resolve(ref, scope, lifecycle);
      for (const [name, ref] of Object.entries(plugin.deps)) deps[name] = resolve(ref, scope, lifecycle);
      const provided = (await plugin.init(deps)) ?? {};
      for (const [name, ref] of Object.entries(plugin.provides)) {
        if (!(name in provided)) throw new Error(`Server plugin "${plugin.id}" declares it provides "${ref.id}" (provides.${name}) but its init returned none`);
        services.provide(ref, (provided as Record<string, unknown>)[name]);
      }
    });
  }
}
