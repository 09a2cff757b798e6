import { describe, expect, it } from 'vitest';
import { plugins } from '../../../plugins.config';

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
        // Eager strings load with the shell: menu labels and the like, not a page's.
        expect(keys(plugin.translations.en).length).toBeLessThanOrEqual(6);
      }
      expect(plugin.lazyTranslations, `${plugin.id} gives its page strings as lazyTranslations`).toBeDefined();
      const en = await plugin.lazyTranslations!.en();
      const fr = await plugin.lazyTranslations!.fr();
      expect(keys(fr)).toEqual(keys(en));
      expect(keys(en).length).toBeGreaterThan(0);
    });
  }
});
