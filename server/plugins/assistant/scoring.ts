/**
 * How well a passage answers a question, from the question's weighted words (./retrieval.ts) and what
 * the question asks (./questionShape.ts). Pure: the stems come from PostgreSQL, the decision is here.
 *
 * - The confidence is C / (C + 1.5·M), C the weight of the question's words the passage holds and M of
 *   those it lacks, each weighted by its rarity in the company's passages; the most used English verbs
 *   count in C when held, never in M; a passage holding only such verbs gets 0.
 * - The question's action must be in the passage ("Can I order by phone?" is not answered by a passage
 *   about the phone that never says "order"), else the confidence is 0.
 * - A question asking for a figure (how much, what size, what number…) needs one in the passage: in a
 *   sentence naming what was asked where the passage names it ("sizes vary", "a VAT number" name it without
 *   giving it), else in a sentence holding the question's other words; without it the confidence is 0.
 * - Passages are ranked by the weight they hold, a word in the heading counting twice (the section is
 *   about it), then by confidence and `ts_rank_cd`.
 */
import { hasFigure, type QuestionShape } from './questionShape';

/** How much more a word of the question a passage lacks counts than one it holds. */
export const MISSING_WEIGHT = 1.5;

export interface WeightedWord {
  word: string;
  /** English and French stems of the word. */
  stems: string[];
  /** Passages of the company holding one of the word's stems (bounded). */
  passages: number;
  weight: number;
  /** One of the most used English verbs: it counts for a passage that holds it, never against one that lacks it. */
  common: boolean;
}

export interface Candidate {
  id: number;
  itemId: number;
  title: string;
  heading: string;
  text: string;
  rank: number;
  /** Stems of the heading and the text. */
  lexemes: Set<string>;
  /** Stems of the heading: a heading's word is the section's subject, and belongs to each of its sentences. */
  headingLexemes: Set<string>;
  /** The sentences with their stems, for the figure's check (fetched only for a question asking for a figure). */
  sentences: { text: string; lexemes: Set<string> }[];
}

export interface ScoredPassage {
  candidate: Candidate;
  /** 0..1: the confidence, 0 when the passage does not answer what the question asks. */
  coverage: number;
  score: number;
}

/** C / (C + 1.5·M) for the weight a passage holds (C) and lacks (M); 0 for no weight. */
export function confidence(held: number, lacked: number): number {
  return held > 0 ? held / (held + MISSING_WEIGHT * lacked) : 0;
}

const holds = (lexemes: Set<string>, w: WeightedWord) => w.stems.some((s) => lexemes.has(s));

/**
 * Whether a passage gives the figure a question asks for: where it names the asked-for word (a size, a
 * number), a figure in a sentence naming it ("sizes vary", "a VAT number": named, not given); where it never
 * names it, a figure in a sentence holding the question's other words. A heading's words belong to each sentence.
 */
export function givesFigure(c: Candidate, words: WeightedWord[], shape: QuestionShape): boolean {
  const asked = shape.figure?.word ? words.find((w) => w.word === shape.figure!.word) : undefined;
  const sentences = c.sentences.filter((s) => hasFigure(s.text)).map((s) => new Set([...s.lexemes, ...c.headingLexemes]));
  if (asked && holds(c.lexemes, asked)) return sentences.some((s) => holds(s, asked));
  const subject = words.filter((w) => w !== asked && !w.common && holds(c.lexemes, w));
  return sentences.some((s) => subject.some((w) => holds(s, w)));
}

export function scorePassage(c: Candidate, words: WeightedWord[], shape: QuestionShape): ScoredPassage {
  let held = 0;
  let lacked = 0;
  let score = 0;
  let subject = false;
  for (const w of words) {
    if (!holds(c.lexemes, w)) {
      if (!w.common) lacked += w.weight;
      continue;
    }
    held += w.weight;
    subject ||= !w.common;
    score += holds(c.headingLexemes, w) ? 2 * w.weight : w.weight;
  }
  // The action: its words that carry meaning (not dropped as stop or generic words), a common verb apart.
  const action = words.filter((w) => shape.action.includes(w.word) && !w.common);
  const answers = subject && action.every((w) => holds(c.lexemes, w)) && (!shape.figure || givesFigure(c, words, shape));
  return { candidate: c, coverage: answers ? confidence(held, lacked) : 0, score };
}

/** The candidates best first: by the weight they hold (a heading's word twice), then confidence, `ts_rank_cd`, id. */
export function rankPassages(candidates: Candidate[], words: WeightedWord[], shape: QuestionShape): ScoredPassage[] {
  return candidates
    .map((c) => scorePassage(c, words, shape))
    .sort((a, b) => b.score - a.score || b.coverage - a.coverage || b.candidate.rank - a.candidate.rank || a.candidate.id - b.candidate.id);
}
