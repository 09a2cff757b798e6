import { describe, expect, it } from 'vitest';
import { plugins } from '../../../plugins.config';

/** The namespace of each app-bar item's strings inside its plugin's eager strings. */
const APP_BAR_NAMESPACES: Record<string, string> = { 'chats.notifications': 'bell' };

function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages)
    .flatMap(([key, value]) => (typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key.replace(/_(one|many|other|zero)$/, '')}`]))
    .filter((k, i, all) => all.indexOf(k) === i)
    .sort();
}

describe('plugin strings (eager and lazy)', () => {
  for (const plugin of plugins) {
    it(`${plugin.id}: English and French have the same keys, eager and lazy, and the shell's strings are few`, async () => {
      if (plugin.translations) {
        expect(keys(plugin.translations.fr)).toEqual(keys(plugin.translations.en));
        // Eager strings load with the shell: menu labels and the like, not a page's. An item a plugin puts in
        // the app bar (appBarItems, e.g. the chats' notification bell) is on every page, so its strings
        // (under `<plugin>.bell` and the like, one namespace per item) load with the shell too, up to 16.
        const all = keys(plugin.translations.en);
        const itemNamespaces = (plugin.appBarItems ?? []).map((item) => `${item.id.split('.')[0]}.${APP_BAR_NAMESPACES[item.id] ?? ''}.`);
        const ofItems = all.filter((k) => itemNamespaces.some((ns) => k.startsWith(ns)));
        expect(all.length - ofItems.length).toBeLessThanOrEqual(6);
        expect(ofItems.length).toBeLessThanOrEqual(16);
      }
      expect(plugin.lazyTranslations, `${plugin.id} gives its page strings as lazyTranslations`).toBeDefined();
      const en = await plugin.lazyTranslations!.en();
      const fr = await plugin.lazyTranslations!.fr();
      expect(keys(fr)).toEqual(keys(en));
      expect(keys(en).length).toBeGreaterThan(0);
    });
  }
});
