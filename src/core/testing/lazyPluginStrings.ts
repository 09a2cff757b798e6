import { i18nApiRef } from '../apis';
import type { Console } from '../plugins/createConsole';

type Strings = Record<string, Record<string, unknown>>;
const modules = import.meta.glob<Record<string, Strings>>(['../../plugins/*/translations.ts', '../../plugins/*/lazyTranslations.ts'], { eager: true });

/** A plugin's lazily loaded strings, per locale: its lazyTranslations.ts (merged parts) or its translations.ts. */
function pluginStrings(id: string): Strings | undefined {
  const merged = modules[`../../plugins/${id}/lazyTranslations.ts`]?.lazyTranslations;
  if (merged) return merged;
  const own = modules[`../../plugins/${id}/translations.ts`];
  return own ? Object.values(own).find((v) => typeof v === 'object' && v !== null && 'en' in v) : undefined;
}

/**
 * Adds the enabled plugins' lazy strings (ConsolePlugin.lazyTranslations, loaded with a route's page
 * in the console) at once: tests render a page without its route.
 */
export function addLazyPluginStrings(console: Console): void {
  const i18n = console.get(i18nApiRef);
  for (const plugin of console.plugins) {
    const strings = pluginStrings(plugin.id);
    if (strings) i18n.addResources(strings);
  }
}
