import { ApiRegistry, type ApiFactory, type ApiRef } from '../di/apiRef';
import { featureFlagsApiRef, i18nApiRef, permissionApiRef, type ConsoleConfig } from '../apis';
import { registerCoreApis } from '../coreApis';
import { featureSatisfied } from '../features/featureFlags';
import type { AppBarItem, ConsolePlugin, MenuEntry, PluginResource, PluginRoute } from './types';

/** Replaces an API: a ready instance (`{ api, value }`) or a factory. Tests use it for fakes. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of overrides of different APIs, each with its own types
export type ApiOverride = { api: ApiRef<any>; value: unknown } | ApiFactory<any, any>;

export function overrideApi<T>(api: ApiRef<T>, value: T): ApiOverride {
  return { api, value };
}

export interface ConsoleOptions {
  plugins: ConsolePlugin[];
  /** Enabled feature keys (set once into the FeatureFlags API). */
  features: readonly string[];
  config?: Partial<ConsoleConfig>;
  /** Extra translations per locale merged into i18n (the pages' strings). */
  translations?: Record<string, Record<string, unknown>>[];
  overrides?: ApiOverride[];
}

export interface Console {
  registry: ApiRegistry;
  get<T>(ref: ApiRef<T>): T;
  /** Enabled plugins only. */
  plugins: ConsolePlugin[];
  routes: PluginRoute[];
  resources: PluginResource[];
  /** Menu entries of enabled plugins whose feature holds, sorted by order (view access is checked at render). */
  menu: MenuEntry[];
  /** App bar items of enabled plugins, sorted by order (view access is checked at render). */
  appBarItems: AppBarItem[];
}

function assertUniquePluginIds(plugins: ConsolePlugin[]) {
  const seen = new Set<string>();
  for (const plugin of plugins) {
    if (seen.has(plugin.id)) throw new Error(`Plugin "${plugin.id}" is registered twice`);
    seen.add(plugin.id);
  }
}

/**
 * Assembles the console from plugins: registers core and plugin APIs (duplicate plugin or API ids
 * throw), keeps only plugins whose feature flag is enabled (a disabled plugin contributes nothing),
 * collects their routes, resources, menu and translations, and runs their onInit.
 */
export function createConsole(options: ConsoleOptions): Console {
  assertUniquePluginIds(options.plugins);
  const registry = new ApiRegistry();
  const data = registerCoreApis(registry, { config: options.config, translations: options.translations });

  const overridden = new Set<string>();
  for (const o of options.overrides ?? []) {
    if ('factory' in o) registry.register(o, { override: true });
    else registry.registerInstance(o.api, o.value);
    overridden.add(o.api.id);
  }

  const flags = registry.get(featureFlagsApiRef);
  flags.setEnabled(options.features);
  const plugins = options.plugins.filter((p) => !p.featureFlag || flags.isEnabled(p.featureFlag));

  for (const plugin of plugins) {
    for (const factory of plugin.apis ?? []) {
      if (!overridden.has(factory.api.id)) registry.register(factory);
    }
  }

  const routes = plugins.flatMap((p) => (p.routes ?? []).map((r) => ({ ...r, plugin: p.id })));
  const resources = plugins.flatMap((p) => p.resources ?? []).filter((r) => featureSatisfied(flags, r.feature));
  const menu = plugins
    .flatMap((p) => p.menu ?? [])
    .filter((m) => featureSatisfied(flags, m.feature))
    .map((m, index) => ({ m, index }))
    .sort((a, b) => (a.m.order ?? 0) - (b.m.order ?? 0) || a.index - b.index)
    .map(({ m }) => m);

  const appBarItems = plugins.flatMap((p) => p.appBarItems ?? []).sort((a, b) => (a.order ?? 0) - (b.order ?? 0));

  const i18n = registry.get(i18nApiRef);
  for (const plugin of plugins) {
    if (plugin.translations) i18n.addResources(plugin.translations);
    if (plugin.lazyTranslations) i18n.registerBundle(plugin.id, plugin.lazyTranslations);
  }

  registry.get(permissionApiRef).setResourceAreas(Object.fromEntries(resources.map((r) => [r.name, r.area])));
  for (const r of resources) {
    if (r.apiPath) data.resourcePaths[r.name] = r.apiPath;
    if (r.lifecycle) data.callbacks.push({ ...r.lifecycle, resource: r.name });
  }

  const get = <T,>(ref: ApiRef<T>) => registry.get(ref);
  for (const plugin of plugins) plugin.onInit?.(get);

  return { registry, get, plugins, routes, resources, menu, appBarItems };
}
