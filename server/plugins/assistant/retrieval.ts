/**
 * Finds the passages of a company's knowledge that answer a question, with PostgreSQL full-text
 * search (the passages' stored vectors, English and French stemming). Candidates are the passages
 * sharing any word stem with the question (GIN index).
 *
 * The confidence the threshold is compared with weighs each meaningful word of the question by its
 * rarity in the company's own passages (BM25's inverse document frequency, counted in SQL at question
 * time over the stored vectors with the GIN index: nothing is kept or re-indexed, and the count is
 * bounded per company). With C the weight of the question's words a passage holds and M the weight of
 * those it lacks, the confidence is C / (C + 1.5·M): 1 when the passage holds every word, 0.5 when it
 * holds three fifths of the question's weight; a word the passage lacks counts more than one it holds,
 * since a passage that does not say what was asked does not answer it. So "phone" counts more than
 * "order" in a shop that says "order" everywhere, a passage sharing only a common word stays under the
 * threshold, and a subject the knowledge never names ("organic", "parking"), the rarest word of all,
 * weighs most against an answer. Words that carry no subject are not counted: the stop words of either
 * language and the generic words of a question ("how much", "get", "please": ./questionWords.ts). The most
 * used English verbs count for a passage that holds them, never against one that lacks them: "How long do
 * refunds take?" is answered by the refunds passage though only the delivery passage says "takes", and
 * "an item I bought" costs nothing where no passage says "bought".
 *
 * The passage's confidence, the checks of what the question asks (its action, a figure) and the ranking
 * are ./scoring.ts's, from the words' weights and stems, and each candidate's sentences with their stems
 * (cut here, in SQL, so they are stemmed as the passage is).
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../core/db/client';
import { rowsOf } from '../../core/db/rows';
import { isCommonVerb, isQuestionWord } from './questionWords';
import { questionShape } from './questionShape';
import { rankPassages, type Candidate, type WeightedWord } from './scoring';

export { confidence, MISSING_WEIGHT } from './scoring';

export interface RetrievedPassage {
  id: number;
  itemId: number;
  title: string;
  heading: string;
  text: string;
  /** 0..1, the confidence: C / (C + 1.5·M), the question's words the passage holds (C) and lacks (M, common verbs apart), each weighted by its rarity in the company's passages; 0 when it lacks the question's action or the figure it asks for (./scoring.ts). */
  coverage: number;
  rank: number;
}

/** At most this many words of a question are looked at (a pasted essay is not a question). */
const MAX_WORDS = 40;
const CANDIDATES = 30;
/** Passages counted at most per word (and for the company's total): the rarity is bounded work however large the knowledge. */
export const RARITY_SAMPLE = 5000;
/** Where a passage's sentences end, for PostgreSQL's regexp_split_to_table: after . ! ? and white space ("5.50" is not cut), or at a line end. */
const SENTENCE_END = String.raw`(?<=[.!?])\s+|\n`;

export interface WordStems {
  word: string;
  stems: string[];
}

/** The question's words with their English and French stems; stop words (of either language) and generic question words left out. */
export async function meaningfulWords(db: Database, question: string): Promise<WordStems[]> {
  const all = (question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_WORDS);
  const words = [...new Set(all.filter((w, i) => !isQuestionWord(w, all[i - 1])))];
  if (words.length === 0) return [];
  const list = sql.join(
    words.map((w) => sql`${w}`),
    sql`, `,
  );
  const result = rowsOf<{ word: string; en: string[]; fr: string[] }>(
    await db.execute(sql`
      select word, tsvector_to_array(to_tsvector('english'::regconfig, word)) as en, tsvector_to_array(to_tsvector('french'::regconfig, word)) as fr
      from unnest(array[${list}]::text[]) as word`),
  );
  return result
    .filter((r) => r.en.length > 0 && r.fr.length > 0)
    .map((r) => ({ word: r.word, stems: [...new Set([...r.en, ...r.fr])].filter((s) => /^[\p{L}\p{N}]+$/u.test(s)) }))
    .filter((w) => w.stems.length > 0);
}

/**
 * Okapi BM25's inverse document frequency (never negative): ln(1 + (N − n + 0.5) / (n + 0.5)) for a word
 * held by n of the company's N passages.
 */
export function rarity(passages: number, total: number): number {
  return Math.log(1 + (total - passages + 0.5) / (passages + 0.5));
}

/** Each word's weight: its rarity among the company's passages, counted by the GIN index (bounded per word). */
export async function weigh(db: Database, companyId: number, words: WordStems[]): Promise<WeightedWord[]> {
  const queries = words.map((w) => w.stems.map((s) => `'${s}'`).join(' | '));
  const result = rowsOf<{ i: number; passages: number; total: number }>(
    await db.execute(sql`
      select w.i, (select count(*) from (select 1 from knowledge_passages p where p.company_id = ${companyId} and p.search @@ to_tsquery('simple'::regconfig, w.query) limit ${RARITY_SAMPLE}) s)::int as passages,
        (select count(*) from (select 1 from knowledge_passages p where p.company_id = ${companyId} limit ${RARITY_SAMPLE}) s)::int as total
      from unnest(array[${sql.join(
        queries.map((q) => sql`${q}`),
        sql`, `,
      )}]::text[]) with ordinality as w(query, i)`),
  );
  const counts = new Map(result.map((r) => [Number(r.i) - 1, { passages: Number(r.passages), total: Number(r.total) }]));
  return words.map((w, i) => {
    const { passages, total } = counts.get(i) ?? { passages: 0, total: 0 };
    return { ...w, passages, weight: rarity(passages, total), common: isCommonVerb(w.word) };
  });
}

export async function retrieve(db: Database, companyId: number, question: string, limit = 5): Promise<RetrievedPassage[]> {
  const stemmed = await meaningfulWords(db, question);
  if (stemmed.length === 0) return [];
  const words = await weigh(db, companyId, stemmed);
  // Only plain word stems go into the query text (a stem with punctuation could be read as query syntax).
  const stems = [...new Set(words.flatMap((w) => w.stems))];
  if (stems.length === 0) return [];
  const query = stems.map((s) => `'${s}'`).join(' | ');
  type Row = {
    id: number;
    item_id: number;
    title: string;
    heading: string;
    text: string;
    lexemes: string[];
    heading_lexemes: string[];
    sentences: { text: string; lexemes: string[] }[] | string;
    rank: number;
  };
  // Each candidate's sentences with their stems (cut after . ! ? and white space, or at a line end: "5.50" is not cut),
  // for the figure's check, which needs the question's words and a figure together (./scoring.ts); only a question
  // asking for a figure pays for them.
  const shape = questionShape(question);
  const sentences = shape.figure
    ? sql`(select coalesce(json_agg(json_build_object('text', s.sentence, 'lexemes',
          tsvector_to_array(to_tsvector('english'::regconfig, s.sentence) || to_tsvector('french'::regconfig, s.sentence))) order by s.n), '[]'::json)
        from regexp_split_to_table(p.text, ${SENTENCE_END}::text) with ordinality as s(sentence, n))`
    : sql`'[]'::json`;
  const rows = rowsOf<Row>(
    await db.execute(sql`
    select p.id, p.item_id, i.title, p.heading, p.text, tsvector_to_array(p.search) as lexemes,
      tsvector_to_array(to_tsvector('english'::regconfig, p.heading) || to_tsvector('french'::regconfig, p.heading)) as heading_lexemes,
      ${sentences} as sentences,
      ts_rank_cd(p.search, q.query) as rank
    from knowledge_passages p
    join knowledge_items i on i.id = p.item_id and i.company_id = p.company_id,
    to_tsquery('simple'::regconfig, ${query}) as q(query)
    where p.company_id = ${companyId} and p.search @@ q.query
    order by rank desc, p.id
    limit ${CANDIDATES}`),
  );
  const candidates: Candidate[] = rows.map((row) => ({
    id: Number(row.id),
    itemId: Number(row.item_id),
    title: row.title,
    heading: row.heading,
    text: row.text,
    rank: Number(row.rank),
    lexemes: new Set(row.lexemes),
    headingLexemes: new Set(row.heading_lexemes),
    sentences: (typeof row.sentences === 'string' ? (JSON.parse(row.sentences) as { text: string; lexemes: string[] }[]) : row.sentences).map((s) => ({
      text: s.text,
      lexemes: new Set(s.lexemes),
    })),
  }));
  return rankPassages(candidates, words, shape)
    .slice(0, limit)
    .map(({ candidate: c, coverage }) => ({ id: c.id, itemId: c.itemId, title: c.title, heading: c.heading, text: c.text, coverage, rank: c.rank }));
}
