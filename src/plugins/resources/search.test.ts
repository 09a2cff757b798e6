import { describe, expect, it } from 'vitest';
import { HELP_ARTICLES } from './articles';
import { createHelpIndex, helpArticles, normalizeTerm } from './search';
import { translations } from './translations';

/** A translate function over the plugin's own strings, in one language. */
function translator(locale: 'en' | 'fr') {
  return (key: string) => {
    let node: unknown = translations[locale];
    for (const part of key.split('.')) node = (node as Record<string, unknown>)?.[part];
    if (typeof node !== 'string') throw new Error(`missing ${locale} ${key}`);
    return node;
  };
}

const ids = (list: { id: string }[]) => list.map((a) => a.id);

describe('help search', () => {
  const en = createHelpIndex(helpArticles(translator('en')));
  const fr = createHelpIndex(helpArticles(translator('fr')));

  it('lists every article, in order, for an empty query', () => {
    expect(ids(en.search(''))).toEqual(HELP_ARTICLES.map((a) => a.id));
    expect(ids(fr.search('   '))).toEqual(HELP_ARTICLES.map((a) => a.id));
  });

  it('finds the article people mean, title and keywords first', () => {
    expect(ids(en.search('invite'))[0]).toBe('teamInvite');
    expect(ids(en.search('opt-out'))).toContain('broadcastsOptOut');
    expect(ids(en.search('whatsapp number'))[0]).toBe('channelsWhatsapp');
    expect(ids(en.search('invoice'))[0]).toBe('billingInvoices');
    expect(ids(en.search('pause bot'))[0]).toBe('inboxPauseBot');
  });

  it('matches prefixes and small typos', () => {
    expect(ids(en.search('templ'))).toEqual(expect.arrayContaining(['templatesCreate', 'templatesReview']));
    expect(ids(en.search('permisions'))).toContain('teamPermissions');
  });

  it('searches the French text, accents and case ignored', () => {
    expect(ids(fr.search('désinscription'))).toContain('broadcastsOptOut');
    expect(ids(fr.search('EQUIPE'))[0]).toBe('teamInvite');
    expect(ids(fr.search('facture'))[0]).toBe('billingInvoices');
    expect(normalizeTerm('Équipe')).toBe('equipe');
  });

  it('finds nothing for words no article has', () => {
    expect(en.search('zebra quantum')).toEqual([]);
    expect(fr.search('xylophone')).toEqual([]);
  });
});
