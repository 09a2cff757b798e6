/**
 * The plugin contract: a plugin is a declarative object of contributions. Registration rejects
 * duplicate ids; a plugin whose feature flag is off contributes nothing.
 */
import type { ComponentType, LazyExoticComponent, ReactElement } from 'react';
import type { ResourceCallbacks, ResourceProps } from 'react-admin';
import type { ApiFactory, ApiRef } from '../di/apiRef';

/** Spec §2: a route with a feature requirement sends the user to `redirect` when the feature is not enabled. */
export interface FeatureRequirement {
  key: string;
  /** Value used while the flag list is unset. */
  default?: boolean;
  /** Inverts the check: the route is open only when the feature is NOT enabled. */
  not?: boolean;
  /** Where to go when the requirement fails; the root path by default. */
  redirect?: string;
}

export interface PluginRoute {
  /** react-router path, e.g. '/chats/:roomId?'. */
  path: string;
  /** Route name used by the global view-access guard (e.g. 'team' is checked as 'members'). */
  name: string;
  component: LazyExoticComponent<ComponentType> | ComponentType;
  /** Area whose `can_view_*` the global guard checks; defaults to `name`. */
  area?: string;
  feature?: FeatureRequirement;
  /** Rendered outside the dashboard shell (still behind login/company guards unless `public`). */
  noLayout?: boolean;
  /** No login needed. */
  public?: boolean;
  /** Login needed but no selected company (like /company/*). */
  companyOptional?: boolean;
  /**
   * Other plugins whose lazy strings the page shows (e.g. the templates' phone preview inside a
   * broadcast page); the route's own plugin is always loaded. Loaded with the page, before it renders.
   */
  translationsOf?: string[];
  /**
   * What the page shows first, asked before it renders (react-router's loaders): on a load that opens on this route
   * and that the guards let through, the shell's first render waits for it with the page's code and strings (core's
   * warmRoute, at most WARM_ROUTE_MAX_MS). The inbox joins a room's link's room there. Resolves when what it asked has
   * come; the signal says the shell stopped waiting.
   */
  prefetch?: (context: RoutePrefetchContext) => Promise<unknown> | void;
  /** Set by createConsole: the plugin declaring the route. */
  plugin?: string;
}

export interface RoutePrefetchContext {
  get: <T>(ref: ApiRef<T>) => T;
  /** The route's parameters in the path opened (`{ roomId: '12' }`). */
  params: Record<string, string | undefined>;
  signal: AbortSignal;
}

/** Strings of one locale, keyed under the plugin's own prefix. */
export type Messages = Record<string, unknown>;

/** Per-locale loaders of a plugin's lazy strings, e.g. `{ en: () => import('./translations.en').then((m) => m.default) }`. */
export type TranslationLoaders = Record<string, () => Promise<Messages>>;

export interface PluginResource extends Omit<ResourceProps, 'name'> {
  name: string;
  /** Permission area for canAccess (view for list/show, manage for create/edit/delete). */
  area: string;
  /** Resources whose feature is not enabled are left out. */
  feature?: FeatureRequirement;
  /** API path when it is not `/api/<name>/` (e.g. '/api/members/'). */
  apiPath?: string;
  /** react-admin lifecycle callbacks for this resource (withLifecycleCallbacks), e.g. afterGetList. */
  lifecycle?: Omit<ResourceCallbacks, 'resource'>;
}

export interface MenuEntry {
  to: string;
  /** i18n key of the label. */
  label: string;
  /** An @mdi/js path (rendered in a MUI SvgIcon) or an icon component. */
  icon?: string | ComponentType;
  /** Area whose view access shows the entry; hidden when denied. */
  area?: string;
  feature?: FeatureRequirement;
  /** Lower first. */
  order?: number;
  /**
   * Paths (react-router patterns) under another entry's prefix that belong to this entry: it is the one marked
   * there (the bots plugin's canvas lives at the spec's /flows/generic-flow/:botId, under Flows).
   */
  activeFor?: string[];
}

/**
 * Something a plugin shows in the app bar on every page of the shell (issue #22: the chats plugin's
 * notification bell), before the user menu. Rendered only when the user may view `area`.
 */
export interface AppBarItem {
  id: string;
  component: ComponentType;
  area?: string;
  /** Lower first. */
  order?: number;
}

export interface ConsolePlugin {
  /** Unique id, e.g. 'team'. */
  id: string;
  /** Feature key that must be enabled for the plugin to contribute anything. Absent = always on. */
  featureFlag?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each factory has its own deps shape
  apis?: ApiFactory<any, any>[];
  resources?: PluginResource[];
  routes?: PluginRoute[];
  menu?: MenuEntry[];
  appBarItems?: AppBarItem[];
  /**
   * Strings the shell shows before any page of the plugin opens (menu labels, resource names,
   * alerts raised from onInit), per locale, loaded with the shell: keep them few.
   */
  translations?: Record<string, Messages>;
  /**
   * Every other string of the plugin: one loader per locale, called when one of the plugin's routes
   * first opens (with its lazy page, before it renders) and only for the current language; a
   * language change loads the opened plugins' bundles in the new language.
   */
  lazyTranslations?: TranslationLoaders;
  /** Called once after the APIs are registered (subscribe to company changes, etc.). */
  onInit?: (get: <T>(ref: ApiRef<T>) => T) => void;
}

export function createPlugin(plugin: ConsolePlugin): ConsolePlugin {
  return plugin;
}

export type DashboardWidget = { id: string; order?: number; element: ReactElement };
