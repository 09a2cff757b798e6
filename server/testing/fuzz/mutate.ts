/**
 * Mutations of a valid request value: what an attacker or a broken client sends. Each picks a
 * place in the value (the root, a key, an element) and breaks it: the wrong type (number, string,
 * boolean, null, array, object, `{toString: 1}`), a NUL, a huge string, deep nesting, an extra or
 * prototype-polluting key, a dropped key, lone surrogates, extreme numbers.
 */
import fc from 'fast-check';

type Json = unknown;
type Path = (string | number)[];

function paths(value: Json, at: Path = [], out: Path[] = [], limit = 60): Path[] {
  if (out.length >= limit) return out;
  out.push(at);
  if (value instanceof Deep) return out;
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...at, i], out, limit));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) paths(v, [...at, k], out, limit);
  return out;
}

function setAt(root: Json, path: Path, replace: (old: Json) => Json | typeof DROP): Json {
  if (path.length === 0) {
    const next = replace(root);
    return next === DROP ? {} : next;
  }
  const copy: any = Array.isArray(root) ? [...root] : { ...(root as object) };
  const [head, ...rest] = path;
  if (rest.length === 0) {
    const next = replace(copy[head]);
    if (next === DROP) delete copy[head];
    else copy[head] = next;
    return copy;
  }
  copy[head] = setAt(copy[head], rest, replace);
  return copy;
}

const DROP = Symbol('drop');

/** Deep nesting, kept symbolic: JSON.stringify itself would overflow the stack at 5,000 levels. */
export class Deep {
  constructor(
    readonly depth: number,
    readonly kind: 'array' | 'object',
  ) {}
}

function nested(depth: number, kind: 'array' | 'object'): Json {
  return new Deep(depth, kind);
}

/** JSON text of a value, writing Deep markers out iteratively. */
export function serialize(value: Json): string {
  if (value instanceof Deep) {
    const [open, close] = value.kind === 'array' ? ['[', ']'] : ['{"a":', '}'];
    return open.repeat(value.depth) + '"deep"' + close.repeat(value.depth);
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : serialize(v))).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${serialize(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The value with Deep markers built for real, at most `maxDepth` levels (what a socket client can send). */
export function materialize(value: Json, maxDepth: number): Json {
  if (value instanceof Deep) {
    let v: Json = 'deep';
    for (let i = 0; i < Math.min(value.depth, maxDepth); i++) v = value.kind === 'array' ? [v] : { a: v };
    return v;
  }
  if (Array.isArray(value)) return value.map((v) => materialize(v, maxDepth));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, materialize(v, maxDepth)]));
  return value;
}

export type MutationKind =
  | 'wrong-type'
  | 'nul'
  | 'huge-string'
  | 'deep-nesting'
  | 'extra-key'
  | 'proto-key'
  | 'drop-key'
  | 'surrogates'
  | 'extreme-number'
  | 'to-string-object';

export const MUTATIONS: MutationKind[] = ['wrong-type', 'nul', 'huge-string', 'deep-nesting', 'extra-key', 'proto-key', 'drop-key', 'surrogates', 'extreme-number', 'to-string-object'];

const WRONG_TYPES: Json[] = [0, -1, 1.5, 'text', '', true, false, null, [], [1, 'a'], {}, { a: 1 }];

function mutateOnce(value: Json, kind: MutationKind, path: Path, pick: number): Json {
  switch (kind) {
    case 'wrong-type':
      return setAt(value, path, () => WRONG_TYPES[pick % WRONG_TYPES.length]);
    case 'nul':
      return setAt(value, path, (old) => (typeof old === 'string' ? `${old.slice(0, pick % (old.length + 1))}\u0000${old.slice(pick % (old.length + 1))}` : '\u0000'));
    case 'huge-string':
      return setAt(value, path, () => 'x'.repeat(pick % 2 ? 100_000 : 5_000));
    case 'deep-nesting':
      return setAt(value, path, () => nested([50, 500, 5_000][pick % 3], pick % 2 ? 'array' : 'object'));
    case 'extra-key':
      return setAt(value, path, (old) => (old && typeof old === 'object' && !Array.isArray(old) ? { ...old, [`extra_${pick}`]: pick } : { extra: old }));
    case 'proto-key':
      return setAt(value, path, (old) => {
        const polluted = JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
        polluted.value = old ?? null;
        return polluted;
      });
    case 'drop-key':
      return path.length === 0 ? {} : setAt(value, path, () => DROP);
    case 'surrogates':
      return setAt(value, path, () => `\ud800${'é'.repeat(pick % 5)}\udfff\u202e`);
    case 'extreme-number':
      return setAt(value, path, () => [1e308, -1e308, 2 ** 53 + 1, -0, 1e-320, 1e20][pick % 6]);
    case 'to-string-object':
      return setAt(value, path, () => ({ toString: 1, valueOf: 2, length: -1 }));
  }
}

/** A valid value broken in 1–2 places (or left valid, one time in five). */
export function mutated(valid: fc.Arbitrary<Json>): fc.Arbitrary<{ value: Json; mutations: string[] }> {
  return fc
    .tuple(valid, fc.array(fc.tuple(fc.constantFrom(...MUTATIONS), fc.nat(), fc.nat()), { minLength: 0, maxLength: 2 }))
    .map(([value, steps]) => {
      let v = value;
      const names: string[] = [];
      for (const [kind, where, pick] of steps) {
        const all = paths(v);
        const path = all[where % all.length];
        v = mutateOnce(v, kind, path, pick);
        names.push(`${kind}@${path.join('.') || '(root)'}`);
      }
      return { value: v, mutations: names };
    });
}

/** A value as it goes into a querystring: every leaf as a string (arrays as repeated keys). */
export function toQuery(value: Json): string {
  const params = new URLSearchParams();
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (Array.isArray(v)) v.forEach((x) => params.append(k, typeof x === 'string' ? x : serialize(x)));
      else params.append(k, typeof v === 'string' ? v : v === undefined ? '' : serialize(v));
    }
  }
  return params.toString();
}
