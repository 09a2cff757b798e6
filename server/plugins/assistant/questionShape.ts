/**
 * What a question asks, beyond its words (./scoring.ts checks a passage against it):
 * - its *action*: the verb a yes/no or how-to question is about ("Can I *order* by phone?", "How do I *track*
 *   my order?"), with its particle when the verb is one of the most used ("Can I *send back*…": a common verb
 *   alone stands for any action, with a particle it is a specific one). A passage that lacks it does not say
 *   whether or how that can be done, whatever else it shares with the question;
 * - whether it asks for a *figure*: how much, how many, how long, what size, what price, what time, what
 *   number… (English and French), and the word naming the figure when there is one ("size", "number"). A
 *   passage that names it without giving a figure beside it ("sizes vary", "a VAT number") talks about it
 *   without answering.
 * Patterns of the language, never of any company's knowledge.
 */

export interface QuestionShape {
  /** The words of the asked action, lower case ("order"; "send", "back"), or none. */
  action: string[];
  /** The question asks for a figure; `word` names it ("size") or is null ("how much"). */
  figure: { word: string | null } | null;
}

const AUX = 'can|could|may|might|do|does|did|will|would|shall|should|must';
const SUBJECT = 'i|we|you|they|one';
const ADVERBS = 'also|still|just|really|ever|even|already|now|please';
/** Particles that make a phrasal verb of a common verb and are not stop words themselves. */
const PARTICLES = 'back|away|around|forward|together|apart|aside';
const ENGLISH_ACTION = new RegExp(`\\b(?:${AUX})\\s+(?:${SUBJECT})\\s+(?:(?:${ADVERBS})\\s+)?(\\p{L}+)(?:\\s+(${PARTICLES})\\b)?`, 'u');
/** "Puis-je commander…", "Pouvez-vous livrer…", "Est-ce que je peux payer…", "Est-ce que vous livrez…". */
const FRENCH_ACTION = [
  /(?<![\p{L}])(?:puis|peux|peut|pouvez|pourrais|pourriez|dois|devez)-(?:je|on|vous|tu|il|elle)\s+(\p{L}+)/u,
  /(?<![\p{L}])est-ce qu(?:e\s+|')(?:je|j'|on|vous|tu|il|elle)\s*(?:(?:peux|peut|pouvez|pourrais|pourriez|dois|devez)\s+)?(\p{L}+)/u,
];

/** Nouns naming a figure, after "what/which (is/are) (the/your…) (up to two words)" or "quel(le)…". */
const FIGURE_NOUNS_EN = 'size|sizes|price|prices|cost|costs|fee|fees|number|time|date|weight|length|width|height|capacity|dimensions|amount|percentage|rate|age';
const FIGURE_NOUNS_FR = 'taille|prix|coût|cout|tarif|tarifs|frais|numéro|numero|heure|date|poids|longueur|largeur|hauteur|capacité|dimensions|montant|pourcentage|délai|delai|durée|duree|âge';
const ENGLISH_FIGURE_WORD = new RegExp(
  `\\b(?:what|which)(?:'s|\\s+is|\\s+are|\\s+was|\\s+were)?\\s+(?:(?:the|your|a|an|its|their|our|my)\\s+)?(?:\\p{L}+\\s+){0,2}?(${FIGURE_NOUNS_EN})\\b`,
  'u',
);
const FRENCH_FIGURE_WORD = new RegExp(
  `(?<![\\p{L}])(?:quel|quelle|quels|quelles)(?:\\s+(?:est|sont))?\\s+(?:(?:le|la|les|l'|votre|vos|ton|ta|tes|son|sa|ses)\\s*)?(?:\\p{L}+\\s+){0,2}?(${FIGURE_NOUNS_FR})(?![\\p{L}])`,
  'u',
);
/** Questions after a quantity with no word naming it. */
const FIGURE_ASKED = /\bhow\s+(?:much|many|long|far|old|big|heavy|tall|wide)\b|(?<![\p{L}])combien(?![\p{L}])/u;

/**
 * A figure in a text: digits, a number in words, "free" (a price of nothing), or a span of time said in words ("a
 * week", "the next working day", "le lendemain"), English and French; "one", "un", "une" alone are not, being as
 * often pronouns and articles ("from one rug to the next").
 */
const FIGURE_IN_TEXT = new RegExp(
  [
    String.raw`\d`,
    String.raw`(?<![\p{L}])(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|thousand|dozen|half|free|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze|douze|quinze|vingt|trente|quarante|cinquante|cent|mille|demi|gratuit|gratuite|gratuits|gratuites|offert|offerts|lendemain)(?![\p{L}])`,
    String.raw`(?<![\p{L}])(?:a|an|one|un|une)\s+(?:minute|hour|day|week|fortnight|month|year|heure|jour|journée|semaine|quinzaine|mois|an|année)(?![\p{L}])`,
    String.raw`(?<![\p{L}])(?:same|next|following)\s+(?:working\s+|business\s+)?day(?![\p{L}])|(?<![\p{L}])jour\s+même(?![\p{L}])`,
  ].join('|'),
  'iu',
);

export function hasFigure(text: string): boolean {
  return FIGURE_IN_TEXT.test(text);
}

export function questionShape(question: string): QuestionShape {
  const q = question.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, ' ');
  const english = ENGLISH_ACTION.exec(q);
  const french = english ? null : FRENCH_ACTION.map((re) => re.exec(q)).find((m) => m !== null);
  const action = english ? [english[1], ...(english[2] ? [english[2]] : [])] : french ? [french[1]] : [];
  const named = ENGLISH_FIGURE_WORD.exec(q) ?? FRENCH_FIGURE_WORD.exec(q);
  const figure = named ? { word: named[1] } : FIGURE_ASKED.test(q) ? { word: null } : null;
  return { action, figure };
}
