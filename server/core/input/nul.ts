/**
 * The NUL character (U+0000) in any text of a request or socket payload. PostgreSQL cannot store it
 * (in `text` nor in `jsonb`), so it is refused once, at the edge, for every route and every socket
 * push, instead of in each schema. Webhooks from a provider are not refused (the provider would
 * retry forever): their NULs are stripped before they are stored (`stripNul`).
 */

import { findRefusedText, type TextCheck } from './textWalk';

export const NUL_MESSAGE = 'Null characters are not allowed.';

/** Field name for a NUL found in the value itself rather than in a field of it. */
export const ROOT_FIELD = 'non_field_errors';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  // Querystrings come as objects of a prototype-less class (fast-querystring's `Empty`).
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
}

/** Walkable containers: arrays and plain objects (parsed JSON, querystrings, params). Buffers and streams are a route's own business. */
function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return Array.isArray(value) || isPlainObject(value);
}

const hasNul = (text: string) => text.includes('\u0000');

/** NULs in strings and keys, looked for in plain objects and arrays; a key's NUL spelled `\u0000` in the path. */
const NUL_CHECK: TextCheck = { refuses: hasNul, looksInto: isPlainObject, printKey: (key) => key.replaceAll('\u0000', '\\u0000'), rootField: ROOT_FIELD };

/**
 * The dotted path (`message.text`, `invites.0.email`) of the first string or key holding a NUL, or
 * null when there is none (textWalk.ts). A root that is not an array or a plain object is not looked into.
 */
export function findNul(value: unknown): string | null {
  return isContainer(value) ? findRefusedText(value, NUL_CHECK) : null;
}

/**
 * A copy of a JSON value without NUL characters in its strings and keys (webhook payloads before they
 * are stored). Iterative like findNul; values other than strings, arrays and plain objects are kept.
 */
export function stripNul<T>(value: T): T {
  const clean = (text: string) => (hasNul(text) ? text.replaceAll('\u0000', '') : text);
  if (typeof value === 'string') return clean(value) as T;
  if (!isContainer(value)) return value;
  const root: unknown = Array.isArray(value) ? [] : {};
  const stack: { from: Record<string, unknown> | unknown[]; to: Record<string, unknown> | unknown[] }[] = [{ from: value, to: root as Record<string, unknown> }];
  while (stack.length > 0) {
    const { from, to } = stack.pop()!;
    for (const [key, item] of Object.entries(from)) {
      let copy: unknown = item;
      if (typeof item === 'string') copy = clean(item);
      else if (isContainer(item)) {
        copy = Array.isArray(item) ? [] : {};
        stack.push({ from: item, to: copy as Record<string, unknown> });
      }
      if (Array.isArray(to)) to.push(copy);
      else Object.defineProperty(to, clean(key), { value: copy, enumerable: true, writable: true, configurable: true });
    }
  }
  return root as T;
}
