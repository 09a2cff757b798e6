/**
 * Words of a question that name no subject, beside the stop words PostgreSQL's English and French
 * dictionaries already drop: how a question is asked ("how much", "combien"), the generic verbs of a
 * request ("get", "want", "pouvez"), politeness, indefinite pronouns, and the pieces a contraction
 * leaves ("hasn't" → "hasn"). Counting them would let a passage answer for sharing "get" with the
 * question, or hand over because the knowledge never says "please". Generic by design: the list says
 * nothing about any company's knowledge.
 */
const GENERIC = new Set([
  // English: quantity and request words, politeness, indefinites
  'much', 'many', 'get', 'gets', 'getting', 'got', 'want', 'wants', 'wanted', 'need', 'needs', 'know', 'tell', 'like',
  'please', 'thanks', 'thank', 'hello', 'hi', 'hey', 'ok', 'okay', 'yes',
  'something', 'anything', 'everything', 'nothing', 'someone', 'anyone', 'somebody', 'anybody', 'another', 'else',
  'still', 'already', 'also', 'even', 'just', 'really', 'actually', 'possible', 'able', 'thing', 'things',
  // English contractions' remains (doesn't, hasn't, you'll, I've, we're)
  'doesn', 'didn', 'hasn', 'haven', 'hadn', 'isn', 'aren', 'wasn', 'weren', 'won', 'wouldn', 'couldn', 'shouldn', 'mustn', 'needn', 'mightn', 'shan', 'll', 've', 're',
  // French: interrogatives, generic verbs of a request, politeness, indefinites
  'combien', 'comment', 'quand', 'quel', 'quelle', 'quels', 'quelles', 'où', 'pourquoi', 'est',
  'puis', 'peux', 'peut', 'pouvez', 'pourriez', 'pourrais', 'voudrais', 'voulez', 'veux', 'faut', 'faire', 'fait', 'savoir',
  'svp', 'merci', 'bonjour', 'salut', 'aussi', 'encore', 'déjà', 'quelque', 'chose', 'quelqu', 'beaucoup', 'autre',
]);

/** Words that, after "how", only ask the question: how long, how often, how far, how soon. */
const AFTER_HOW = new Set(['long', 'often', 'far', 'soon']);

/**
 * The hundred most used English verbs (with their irregular forms). Not dropped like the words above, since
 * a shop's knowledge may well be about paying, opening or sending: a passage that holds one is the closer
 * for it. But a passage that lacks one ("an item I bought", "how long do refunds take?") is not further from
 * the question: the verb is its phrasing, not a subject the knowledge lacks (./retrieval.ts).
 */
const COMMON_VERBS = new Set(
  `be have do say says said get make makes made go goes went gone know knew known take takes took taken see saw seen come comes came
  think thought look want give gave given use find found tell told ask work seem feel felt try leave left call need put keep kept let
  begin began help show shown hear heard play run move like live believe hold held bring brought happen write wrote written provide
  sit sat stand stood lose lost pay paid meet met include continue set learn change lead led understand understood watch follow stop
  create speak spoke read allow add spend spent grow open walk win won offer remember love consider appear buy bought wait serve die
  send sent expect build built stay fall cut reach kill remain suggest raise pass sell sold require report decide pull`.split(/\s+/),
);

/** Whether a (lower-case) word is one of the most used English verbs: it counts for a passage holding it, never against one lacking it. */
export function isCommonVerb(word: string): boolean {
  return COMMON_VERBS.has(word);
}

/** Whether a (lower-case) word of a question names no subject; `previous` is the word before it. */
export function isQuestionWord(word: string, previous?: string): boolean {
  return GENERIC.has(word) || (previous === 'how' && AFTER_HOW.has(word));
}
