/**
 * Stripe's request encoding: application/x-www-form-urlencoded with bracketed keys, as the SDK
 * writes them (`line_items[0][price]=…`, `metadata[company_id]=7`, `expand[0]=subscription`).
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

const MAX_DEPTH = 6;
const MAX_INDEX = 100;

function splitKey(key: string): string[] | null {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!m) return null;
  const parts = [m[1]];
  for (const piece of m[2].matchAll(/\[([^[\]]*)\]/g)) parts.push(piece[1]);
  return parts.length > MAX_DEPTH ? null : parts;
}

/** Parses a form body into nested objects; numeric segments become arrays. Unusable keys are dropped. */
export function parseStripeForm(body: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = splitKey(key);
    if (!parts) continue;
    let node: FormObject | FormValue[] = root;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] === '' && Array.isArray(node) ? String(node.length) : parts[i];
      if (part === '__proto__' || part === 'constructor' || part === 'prototype') break;
      const last = i === parts.length - 1;
      const nextIsIndex = !last && (/^\d+$/.test(parts[i + 1]) || parts[i + 1] === '');
      if (Array.isArray(node)) {
        const index = Number(part);
        if (!Number.isInteger(index) || index > MAX_INDEX) break;
        if (last) node[index] = value;
        else node = (node[index] ??= nextIsIndex ? [] : {}) as FormObject | FormValue[];
      } else {
        if (last) node[part] = value;
        else {
          const existing = node[part];
          node = (existing && typeof existing === 'object' ? existing : (node[part] = nextIsIndex ? [] : {})) as FormObject | FormValue[];
        }
      }
    }
  }
  return root;
}

export function str(value: FormValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function obj(value: FormValue | undefined): FormObject {
  return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
}

export function list(value: FormValue | undefined): FormValue[] {
  if (Array.isArray(value)) return value.filter((v) => v !== undefined);
  if (value && typeof value === 'object') return Object.values(value);
  return [];
}

/** `metadata[...]` as Stripe keeps it: string values only. */
export function metadata(value: FormValue | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj(value))) if (typeof v === 'string') out[k] = v;
  return out;
}

export function bool(value: FormValue | undefined): boolean | undefined {
  return value === 'true' ? true : value === 'false' ? false : undefined;
}
