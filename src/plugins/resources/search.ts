/**
 * Search over the help articles (MiniSearch): one index per language, built from the translated
 * text; prefix and fuzzy matching, titles and keywords weigh more than the body, accents and case
 * are ignored ("equipe" finds "Équipe").
 */
import MiniSearch from 'minisearch';
import { HELP_ARTICLES, type HelpAreaId } from './articles';

export interface HelpArticle {
  id: string;
  area: HelpAreaId;
  areaLabel: string;
  title: string;
  summary: string;
  body: string;
  keywords: string;
}

/** Lower case, accents folded: the same for indexed words and the query. */
export function normalizeTerm(term: string): string {
  return term.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
}

/** The articles in one language, read through the translate function (`resources.help.*` keys). */
export function helpArticles(t: (key: string) => string): HelpArticle[] {
  return HELP_ARTICLES.map(({ id, area }) => ({
    id,
    area,
    areaLabel: t(`resources.help.areas.${area}`),
    title: t(`resources.help.articles.${id}.title`),
    summary: t(`resources.help.articles.${id}.summary`),
    body: t(`resources.help.articles.${id}.body`),
    keywords: t(`resources.help.articles.${id}.keywords`),
  }));
}

export interface HelpIndex {
  /** The articles matching the query, best first; every article (in their order) for an empty query. */
  search(query: string): HelpArticle[];
}

export function createHelpIndex(articles: HelpArticle[]): HelpIndex {
  const index = new MiniSearch<HelpArticle>({
    idField: 'id',
    fields: ['title', 'summary', 'body', 'keywords', 'areaLabel'],
    processTerm: (term) => normalizeTerm(term),
    searchOptions: {
      prefix: true,
      fuzzy: (term) => (term.length > 4 ? 0.2 : false),
      boost: { title: 3, keywords: 2, areaLabel: 2, summary: 1.5 },
      combineWith: 'AND',
    },
  });
  index.addAll(articles);
  const byId = new Map(articles.map((a) => [a.id, a]));
  return {
    search(query) {
      const trimmed = query.trim();
      if (!trimmed) return articles;
      return index
        .search(trimmed)
        .map((hit) => byId.get(String(hit.id)))
        .filter((a): a is HelpArticle => a !== undefined);
    },
  };
}
