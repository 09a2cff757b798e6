import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { i18nApiRef, type I18nApi } from '../apis';
import { useApi } from '../di/ApiProvider';

const pending = new Map<string, Promise<unknown>>();
const failed = new Map<string, unknown>();

/**
 * Renders its children once the lazy strings of these plugins (ConsolePlugin.lazyTranslations) are
 * there in the current language; until then it suspends (the nearest Suspense shows its fallback),
 * so a page never shows raw keys. `preload` (a lazy page's) is fetched at the same time. A language
 * change re-renders it (useTranslation), and it suspends again while the new language's bundles load.
 */
export function PluginStrings({ plugins, preload, children }: { plugins: readonly string[]; preload?: () => Promise<unknown>; children: ReactNode }) {
  const api = useApi(i18nApiRef);
  const { i18n } = useTranslation();
  if (api.bundlesReady(plugins)) return <>{children}</>;
  const key = `${i18n.language}:${plugins.join(',')}`;
  if (failed.has(key)) {
    const error = failed.get(key);
    failed.delete(key); // the next visit tries again
    throw error;
  }
  throw waitFor(api, key, plugins, preload);
}

function waitFor(api: I18nApi, key: string, plugins: readonly string[], preload?: () => Promise<unknown>): Promise<unknown> {
  let promise = pending.get(key);
  if (!promise) {
    promise = Promise.all([api.loadBundles(plugins), preload?.()])
      .catch((error: unknown) => void failed.set(key, error))
      .finally(() => pending.delete(key));
    pending.set(key, promise);
  }
  return promise;
}
