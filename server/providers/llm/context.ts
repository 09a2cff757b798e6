/**
 * How retrieved passages are put in a prompt: each in its own delimited block, numbered for citing
 * ([1], [2]…). Shared by the assistant (which writes it) and the local fake model (which reads it),
 * so the fake answers from exactly what a real model is given. Delimiters inside a passage's text
 * are neutralised so a passage cannot close its block and speak as the instructions.
 */
export interface ContextPassage {
  title: string;
  text: string;
}

const OPEN = '<<<PASSAGE';
const CLOSE = 'PASSAGE>>>';

function neutralise(text: string): string {
  return text.replaceAll('<<<', '‹‹‹').replaceAll('>>>', '›››').replace(/[\r\n]+/g, ' ');
}

export function formatContext(passages: ContextPassage[]): string {
  return passages.map((p, i) => `${OPEN} [${i + 1}] ${neutralise(p.title)}\n${neutralise(p.text)}\n${CLOSE}`).join('\n');
}

export const QUESTION_LABEL = 'Customer question:';

/** The numbered passages of a prompt written by formatContext, in order. */
export function parseContext(prompt: string): (ContextPassage & { number: number })[] {
  const found: (ContextPassage & { number: number })[] = [];
  const pattern = /<<<PASSAGE \[(\d+)\] ([^\n]*)\n([^\n]*)\nPASSAGE>>>/g;
  for (const match of prompt.matchAll(pattern)) found.push({ number: Number(match[1]), title: match[2], text: match[3] });
  return found;
}

/** The customer's question of a prompt: what follows QUESTION_LABEL. */
export function parseQuestion(prompt: string): string {
  const at = prompt.lastIndexOf(QUESTION_LABEL);
  return at < 0 ? '' : prompt.slice(at + QUESTION_LABEL.length).trim();
}
