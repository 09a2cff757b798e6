/**
 * How deeply a JSON text nests, measured on the raw text before anything parses it: a body nested
 * thousands deep would otherwise reach every recursive consumer after JSON.parse (schema checks,
 * jsonb serialisation, JSON.stringify of logs) and end as a 500, or be stored.
 */

/** Deepest nesting of objects and arrays a request body or a socket payload may have. */
export const MAX_JSON_DEPTH = 64;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * True when the text opens more than `maxDepth` objects/arrays inside one another. One linear pass,
 * no recursion, aware of strings (brackets inside "…" and escaped quotes do not count). It does not
 * validate the JSON: the parser that runs afterwards does.
 */
export function exceedsJsonDepth(text: string, maxDepth = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}
