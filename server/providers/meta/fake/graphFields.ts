/** The Graph API's `fields=` selection (with nested `a{b,c}`) and cursor paging (`limit`, `after`, `paging.next`). */
import type { FastifyRequest } from 'fastify';

/** `id,name,instagram_business_account{id,username}` → { id: null, name: null, instagram_business_account: { id, username } }. */
function parseFields(fields: string): Map<string, string | null> {
  const selected = new Map<string, string | null>();
  let depth = 0;
  let start = 0;
  const add = (part: string) => {
    const brace = part.indexOf('{');
    if (brace < 0) selected.set(part.trim(), null);
    else selected.set(part.slice(0, brace).trim(), part.slice(brace + 1, part.lastIndexOf('}')));
  };
  for (let i = 0; i < fields.length; i++) {
    if (fields[i] === '{') depth++;
    else if (fields[i] === '}') depth--;
    else if (fields[i] === ',' && depth === 0) {
      add(fields.slice(start, i));
      start = i + 1;
    }
  }
  add(fields.slice(start));
  selected.delete('');
  return selected;
}

/** Keeps the asked fields (all when none are asked); `id` always comes back, as at Meta. */
export function pickFields(value: Record<string, unknown>, fields: string | undefined): Record<string, unknown> {
  if (!fields) return value;
  const picked: Record<string, unknown> = {};
  if ('id' in value) picked.id = value.id;
  for (const [field, nested] of parseFields(fields)) {
    if (!(field in value)) continue;
    const inner = value[field];
    picked[field] = nested && inner && typeof inner === 'object' && !Array.isArray(inner) ? pickFields(inner as Record<string, unknown>, nested) : inner;
  }
  return picked;
}

const cursor = (index: number) => Buffer.from(String(index)).toString('base64url');
const fromCursor = (value: string | undefined) => {
  const n = value ? Number(Buffer.from(value, 'base64url').toString()) : 0;
  return Number.isInteger(n) && n >= 0 ? n : 0;
};

/** One page of a list as Meta answers it: `{ data, paging: { cursors: { before, after }, next? } }`. */
export function pageOf<T>(
  request: FastifyRequest,
  items: T[],
  defaultLimit: number,
  maxLimit: number,
  render: (item: T) => unknown,
): { data: unknown[]; paging?: Record<string, unknown> } {
  const query = request.query as Record<string, string | undefined>;
  const limit = Math.min(Math.max(1, Number(query.limit) || defaultLimit), maxLimit);
  const start = fromCursor(query.after);
  const slice = items.slice(start, start + limit);
  if (!slice.length) return { data: [] };
  const paging: Record<string, unknown> = { cursors: { before: cursor(start), after: cursor(start + slice.length) } };
  if (start + slice.length < items.length) {
    const next = new URL(request.url, `${request.protocol}://${request.host}`);
    next.searchParams.set('after', cursor(start + slice.length));
    next.searchParams.delete('appsecret_proof');
    paging.next = next.toString();
  }
  return { data: slice.map(render), paging };
}
