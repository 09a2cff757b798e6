/**
 * fast-check arbitraries from the contract's zod v4 schemas. No maintained library does this for
 * zod v4 (zod-fast-check and @anatine/zod-mock target zod 3), so this walks zod v4's public schema
 * definitions (`schema._zod.def`) for the kinds our contract uses — object, string (length, email,
 * regex, datetime formats), number (int, bounds), boolean, enum, literal, array, record, union,
 * optional, nullable, default, pipe (coerce/transform: the input side), unknown — and falls back to
 * any JSON value for the rest. The values are meant to be VALID (or nearly), so mutations (mutate.ts)
 * start from requests that reach the handlers.
 */
import fc from 'fast-check';
import type { ZodType } from 'zod';

interface Check {
  check: string;
  minimum?: number;
  maximum?: number;
  length?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
}

type Def = Record<string, unknown> & { type: string; checks?: { _zod: { def: Check } }[] };

function defOf(schema: unknown): Def {
  return (schema as { _zod: { def: Def } })._zod.def;
}

function checksOf(def: Def): Check[] {
  return (def.checks ?? []).map((c) => c._zod.def);
}

/** Long enough for every contract limit we test against; longer strings are the mutator's job. */
const STRING_CAP = 120;

function stringArbitrary(def: Def): fc.Arbitrary<string> {
  const checks = checksOf(def);
  const format = checks.find((c) => c.check === 'string_format');
  let min = 0;
  let max = STRING_CAP;
  for (const c of checks) {
    if (c.check === 'min_length' && c.minimum !== undefined) min = Math.max(min, c.minimum);
    if (c.check === 'max_length' && c.maximum !== undefined) max = Math.min(max, c.maximum);
    if (c.check === 'length_equals' && c.length !== undefined) min = max = c.length;
  }
  if (max < min) max = min;
  if (format?.format === 'email') return fc.emailAddress().filter((e) => e.length <= Math.max(max, 6) && e.length >= min);
  if (format?.format === 'datetime') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  if (format?.format === 'url') return fc.webUrl({ validSchemes: ['https'] });
  if (format?.format === 'regex' && format.pattern) return fc.stringMatching(format.pattern).filter((s) => s.length >= min && s.length <= Math.max(max, min));
  return fc.string({ minLength: min, maxLength: Math.min(max, STRING_CAP), unit: 'grapheme' });
}

function numberArbitrary(def: Def): fc.Arbitrary<number> {
  const checks = checksOf(def);
  const int = checks.some((c) => c.check === 'number_format' && (c.format === 'safeint' || c.format === 'int32' || c.format === 'uint32'));
  let min = -1e6;
  let max = 1e6;
  for (const c of checks) {
    if (c.check === 'greater_than' && c.value !== undefined) min = c.inclusive ? c.value : c.value + (int ? 1 : 1e-6);
    if (c.check === 'less_than' && c.value !== undefined) max = c.inclusive ? c.value : c.value - (int ? 1 : 1e-6);
  }
  if (max < min) max = min;
  return int ? fc.integer({ min: Math.ceil(min), max: Math.floor(Math.min(max, Number.MAX_SAFE_INTEGER)) }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** Values that `schema` should accept (best effort: refinements are not solved). */
export function arbitraryFor(schema: ZodType, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const inner = (key: string) => arbitraryFor(def[key] as ZodType, depth + 1);
  if (depth > 12) return fc.constant(null);
  switch (def.type) {
    case 'string':
      return stringArbitrary(def);
    case 'number':
      return def.coerce ? fc.oneof(numberArbitrary(def), numberArbitrary(def).map(String)) : numberArbitrary(def);
    case 'bigint':
      return fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }).map(String);
    case 'boolean':
      return def.coerce ? fc.oneof(fc.boolean(), fc.constantFrom('true', 'false')) : fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, string | number>));
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'null':
      return fc.constant(null);
    case 'optional':
      return fc.option(inner('innerType'), { nil: undefined, freq: 3 });
    case 'nullable':
      return fc.option(inner('innerType'), { nil: null, freq: 4 });
    case 'default':
    case 'prefault':
      return fc.option(inner('innerType'), { nil: undefined, freq: 3 });
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return inner('innerType');
    case 'pipe':
      return inner('in');
    case 'lazy':
      return arbitraryFor((def.getter as () => ZodType)(), depth + 1);
    case 'union':
      return fc.oneof(...(def.options as ZodType[]).map((o) => arbitraryFor(o, depth + 1)));
    case 'array': {
      const checks = checksOf(def);
      const minLength = checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
      const maxLength = Math.min(checks.find((c) => c.check === 'max_length')?.maximum ?? 5, Math.max(minLength, 5));
      return fc.array(inner('element'), { minLength, maxLength });
    }
    case 'tuple':
      return fc.tuple(...(def.items as ZodType[]).map((i) => arbitraryFor(i, depth + 1)));
    case 'record':
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 20 }), inner('valueType'), { maxKeys: 4 });
    case 'object': {
      const shape = def.shape as Record<string, ZodType>;
      const arbs = Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, arbitraryFor(v, depth + 1)]));
      return fc.record(arbs).map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));
    }
    default:
      // unknown, any, transform, custom, date…: any JSON value.
      return fc.jsonValue({ maxDepth: 2 });
  }
}
