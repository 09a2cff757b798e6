/**
 * The NUL character (U+0000) in any text of a request or socket payload. PostgreSQL cannot store it
 * (in `text` nor in `jsonb`), so it is refused once, at the edge, for every route and every socket
 * push, instead of in each schema. Webhooks from a provider are not refused (the provider would
 * retry forever): their NULs are stripped before they are stored (`stripNul`).
 */

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

/** A key as it appears in a field path (the NUL itself would be unreadable there). */
const printableKey = (key: string) => key.replaceAll('\u0000', '\\u0000');

/** Whether a string or key of `root` holds a NUL: findNul's walk without the paths (nothing kept per value). */
function containsNul(root: Record<string, unknown> | unknown[]): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'string') {
      if (hasNul(current)) return true;
    } else if (Array.isArray(current)) {
      for (const item of current) stack.push(item);
    } else if (isPlainObject(current)) {
      for (const key of Object.keys(current)) {
        if (hasNul(key)) return true;
        stack.push(current[key]);
      }
    }
  }
  return false;
}

/**
 * The dotted path (`message.text`, `invites.0.email`) of the first string or key holding a NUL, or
 * null when there is none. Iterative (an explicit stack, no recursion), one visit per value: linear in
 * the input, which the body limit and the JSON depth limit bound. A root that is not an array or a
 * plain object is not looked into.
 */
export function findNul(value: unknown): string | null {
  // Every request's input is walked; almost none holds a NUL: the paths are worked out only for one that does.
  if (!isContainer(value) || !containsNul(value)) return null;
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    const at = (key: string) => (path ? `${path}.${key}` : key);
    if (typeof current === 'string') {
      if (hasNul(current)) return path || ROOT_FIELD;
      continue;
    }
    if (Array.isArray(current)) {
      // Pushed in reverse so the first offending element is the one reported.
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: at(String(i)) });
      continue;
    }
    if (isPlainObject(current)) {
      const keys = Object.keys(current);
      for (const key of keys) if (hasNul(key)) return at(printableKey(key));
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: current[keys[i]], path: at(keys[i]) });
    }
  }
  return null;
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
