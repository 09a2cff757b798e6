/**
 * Registers every core API factory, with explicit dependencies (no decorator metadata under Vite).
 * Plugins and tests may replace any of them (see createConsole's `overrides`).
 */
import type { ResourceCallbacks } from 'react-admin';
import { createApiFactory, type ApiRegistry } from './di/apiRef';
import {
  accountApiRef,
  alertApiRef,
  authApiRef,
  configApiRef,
  dataProviderApiRef,
  featureFlagsApiRef,
  httpApiRef,
  i18nApiRef,
  permissionApiRef,
  realtimeApiRef,
  sessionApiRef,
  socialApiRef,
  type ConsoleConfig,
} from './apis';
import { createConfig } from './config/config';
import { createSessionStore } from './session/sessionStore';
import { createAccountStore } from './account/accountStore';
import { createHttpProvider } from './http/httpProvider';
import { createAuthProvider } from './auth/authProvider';
import { createPermissionProvider } from './permissions/permissionProvider';
import { createFeatureFlags } from './features/featureFlags';
import { createAlertApi } from './alert/alertApi';
import { createI18nApi } from './i18n/i18n';
import { createDataProvider } from './data/dataProvider';
import { createLazyRealtimeFactory } from './realtime/lazyRealtime';
import { createSocialApi } from './social/socialApi';

/**
 * Filled by createConsole from the enabled plugins' resources before anything resolves the data
 * provider (factories are lazy), so the provider sees every plugin's paths and callbacks.
 */
export interface DataResourceConfig {
  resourcePaths: Record<string, string>;
  callbacks: ResourceCallbacks[];
}

export interface CoreApiOptions {
  config?: Partial<ConsoleConfig>;
  /** Extra translations (pages, plugins) merged into the one i18next instance. */
  translations?: Record<string, Record<string, unknown>>[];
  data?: DataResourceConfig;
}

export function registerCoreApis(registry: ApiRegistry, options: CoreApiOptions = {}): DataResourceConfig {
  const data: DataResourceConfig = options.data ?? { resourcePaths: {}, callbacks: [] };

  registry.register(createApiFactory({ api: configApiRef, deps: {}, factory: () => createConfig(import.meta.env, options.config) }));
  registry.register(createApiFactory({ api: sessionApiRef, deps: {}, factory: () => createSessionStore() }));
  registry.register(createApiFactory({ api: accountApiRef, deps: {}, factory: () => createAccountStore() }));
  registry.register(createApiFactory({ api: featureFlagsApiRef, deps: {}, factory: () => createFeatureFlags() }));
  registry.register(createApiFactory({ api: alertApiRef, deps: {}, factory: () => createAlertApi() }));
  registry.register(createApiFactory({ api: i18nApiRef, deps: {}, factory: () => createI18nApi({ extra: options.translations }) }));
  registry.register(
    createApiFactory({ api: permissionApiRef, deps: { account: accountApiRef }, factory: ({ account }) => createPermissionProvider(account) }),
  );
  registry.register(
    createApiFactory({
      api: httpApiRef,
      deps: { config: configApiRef, session: sessionApiRef, account: accountApiRef, i18n: i18nApiRef },
      factory: ({ config, session, account, i18n }) => createHttpProvider({ config, session, account, translate: (k) => i18n.i18n.t(k) }),
    }),
  );
  registry.register(
    createApiFactory({
      api: authApiRef,
      deps: { http: httpApiRef, session: sessionApiRef, account: accountApiRef, permissions: permissionApiRef, alert: alertApiRef, i18n: i18nApiRef },
      factory: ({ i18n, ...deps }) => createAuthProvider({ ...deps, translate: (k) => i18n.i18n.t(k) }),
    }),
  );
  registry.register(
    createApiFactory({ api: dataProviderApiRef, deps: { http: httpApiRef }, factory: ({ http }) => createDataProvider(http, data) }),
  );
  registry.register(
    createApiFactory({
      api: realtimeApiRef,
      deps: { config: configApiRef, session: sessionApiRef, account: accountApiRef },
      // phoenix loads when first resolved; the shell registers the eager one (realtime/realtimeFactory.ts).
      factory: (deps) => createLazyRealtimeFactory(deps),
    }),
  );
  registry.register(
    createApiFactory({ api: socialApiRef, deps: { http: httpApiRef, config: configApiRef }, factory: ({ http, config }) => createSocialApi({ http, config }) }),
  );
  return data;
}
