/**
 * The inbox's filter in its URL: /chats?filter=unassigned lists only the unassigned conversations
 * (no agent tag; "assigned" as in contract/stats.ts), so other pages (the dashboard's Unassigned
 * figure) can link to it. The inbox keeps the query in step with its own filter controls.
 */
import { isAgentTagName } from '../../../../contract/chats';

export const CHATS_FILTER_PARAM = 'filter';
export const UNASSIGNED_FILTER = 'unassigned';
/** /chats?filter=mine: the signed-in member's conversations (issue #22's Mine tab). */
export const MINE_FILTER = 'mine';
/** Where the dashboard's Unassigned figure leads. */
export const UNASSIGNED_CHATS_PATH = `/chats?${CHATS_FILTER_PARAM}=${UNASSIGNED_FILTER}`;

/** The tab the URL's query names: mine, unassigned, or all (anything else). */
export function tabFromSearch(search: string | URLSearchParams): 'mine' | 'unassigned' | 'all' {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const value = params.get(CHATS_FILTER_PARAM);
  return value === MINE_FILTER ? 'mine' : value === UNASSIGNED_FILTER ? 'unassigned' : 'all';
}

/** The query with the tab set (All clears it), other parameters kept. */
export function searchWithTab(search: string, tab: 'mine' | 'unassigned' | 'all'): string {
  const params = new URLSearchParams(search);
  if (tab === 'all') params.delete(CHATS_FILTER_PARAM);
  else params.set(CHATS_FILTER_PARAM, tab === 'mine' ? MINE_FILTER : UNASSIGNED_FILTER);
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** Whether the URL's query asks for unassigned conversations only (anything else: no such filter). */
export function unassignedFromSearch(search: string | URLSearchParams): boolean {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  return params.get(CHATS_FILTER_PARAM) === UNASSIGNED_FILTER;
}

/** The query with the unassigned filter set or cleared, other parameters kept (e.g. "?filter=unassigned", or ""). */
export function searchWithUnassigned(search: string, unassigned: boolean): string {
  const params = new URLSearchParams(search);
  if (unassigned) params.set(CHATS_FILTER_PARAM, UNASSIGNED_FILTER);
  else params.delete(CHATS_FILTER_PARAM);
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** A room is assigned when it has an assignee (issue #22); a server without assignees: when it carries an agent tag (a tag named like an e-mail address). */
export function isUnassigned(room: { tags: { name: string }[]; assignee?: { id: number } | null }): boolean {
  if (room.assignee !== undefined) return room.assignee === null;
  return !room.tags.some((tag) => isAgentTagName(tag.name));
}
