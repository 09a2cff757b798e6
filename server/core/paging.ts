/** Page arithmetic and the next/previous links of Paged<T> lists (pages start at 1). */
import type { Paged } from '../../contract/api';

export interface PageRequest {
  page: number;
  pageSize: number;
}

export function offsetOf({ page, pageSize }: PageRequest): number {
  return (page - 1) * pageSize;
}

/** Same path and query as the request, with another `page`; null when there is no such page. */
function link(requestUrl: string, page: number | null): string | null {
  if (page === null) return null;
  const url = new URL(requestUrl, 'http://local');
  url.searchParams.set('page', String(page));
  return `${url.pathname}${url.search}`;
}

/** A page past the end answers an empty `results` (with the real count), not an error. */
export function paged<T>(requestUrl: string, { page, pageSize }: PageRequest, count: number, results: T[]): Paged<T> {
  const lastPage = Math.max(1, Math.ceil(count / pageSize));
  return {
    count,
    next: link(requestUrl, page < lastPage ? page + 1 : null),
    previous: link(requestUrl, page > 1 ? Math.min(page - 1, lastPage) : null),
    results,
  };
}

/** A LIKE pattern matching `term` anywhere, with LIKE's wildcards in the term taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
