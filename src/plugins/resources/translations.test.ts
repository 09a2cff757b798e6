import { describe, expect, it } from 'vitest';
import { en } from '../../core/i18n/en';
import { fr } from '../../core/i18n/fr';
import { HELP_AREAS, HELP_ARTICLES } from './articles';
import { translations } from './translations';

function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) => (typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`]));
}

describe('resources translations', () => {
  it('French has every English key, and no empty string', () => {
    expect(new Set(keys(translations.fr))).toEqual(new Set(keys(translations.en)));
    for (const locale of [translations.en, translations.fr]) {
      for (const key of keys(locale)) {
        const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], locale);
        expect(typeof value === 'string' && value.trim().length > 0, key).toBe(true);
      }
    }
  });

  it('every area and article has its text in both languages', () => {
    for (const locale of [translations.en, translations.fr]) {
      const help = locale.resources.help;
      for (const area of HELP_AREAS) expect(help.areas[area.id]).toBeTruthy();
      for (const { id, area } of HELP_ARTICLES) {
        const article = help.articles[id as keyof typeof help.articles];
        expect(article, id).toBeDefined();
        expect(article.title && article.summary && article.body && article.keywords, id).toBeTruthy();
        expect(HELP_AREAS.some((a) => a.id === area)).toBe(true);
      }
      expect(Object.keys(help.articles).sort()).toEqual(HELP_ARTICLES.map((a) => a.id).sort());
      // Every area has help.
      for (const area of HELP_AREAS) expect(HELP_ARTICLES.some((a) => a.area === area.id), area.id).toBe(true);
    }
  });

  it('quotes the console’s own words: the spec’s permission message', () => {
    const noPermission = (messages: unknown) => (messages as { core: { errors: { noPermission: string } } }).core.errors.noPermission;
    expect(translations.en.resources.help.articles.teamPermissions.body).toContain(noPermission(en));
    expect(translations.fr.resources.help.articles.teamPermissions.body).toContain(noPermission(fr));
  });
});
