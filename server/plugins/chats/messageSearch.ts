/**
 * Search of message text (issue #22): PostgreSQL full-text search over the company's messages, private
 * notes included (only members search), in the rooms the caller may open (an agent limited to own rooms
 * finds only those). Each word is a prefix ('refun' finds "refund"); results best match first (ts_rank),
 * then newest.
 *
 * Fast at the 1M-message scale of bench/data: `messages_text_search_idx` is a GIN index on exactly
 * `messageVector` ('simple' configuration: no stemming, conversations mix languages; the same on PGlite
 * and PostgreSQL), so the match is an index scan and only one page of rows gets its snippet
 * (ts_headline reads the text again: never for the whole match).
 */
import { sql, type SQL } from 'drizzle-orm';
import { MESSAGE_SEARCH_PAGE_SIZE, searchWords, type MessageSearchResult } from '../../../contract/notes';
import type { Database } from '../../core/db/client';

/** The indexed expression (server/core/db/schema.ts messages_text_search_idx): the query must repeat it exactly. */
export const messageVector = (alias: string): SQL => sql.raw(`to_tsvector('simple'::regconfig, coalesce(${alias}.text, ''))`);

/** The words as a prefix tsquery: `'word':* & 'other':*` (words are letters and digits only, nothing to quote). */
export function prefixQuery(words: string[]): string {
  return words.map((w) => `'${w}':*`).join(' & ');
}

// The snippet: HTML-escaped text, matches in <mark>…</mark> (contract/notes.ts splitHighlights).
const HEADLINE_OPTIONS = 'StartSel=<mark>, StopSel=</mark>, MaxWords=24, MinWords=8, ShortWord=2, HighlightAll=false';

export class MessageSearch {
  constructor(private readonly db: Database) {}

  /**
   * One page of matches. `restrictedEmail`: the agent limited to rooms tagged with that e-mail (see
   * RoomQueries.restrictedEmail), null for every room of the company.
   */
  async search(companyId: number, restrictedEmail: string | null, q: string, page: number): Promise<{ count: number; results: MessageSearchResult[] }> {
    const words = searchWords(q);
    if (words.length === 0) return { count: 0, results: [] };
    const tsquery = sql`to_tsquery('simple', ${prefixQuery(words)})`;
    const visible = restrictedEmail
      ? sql`and exists (select 1 from room_tags rt inner join tags t on t.id = rt.tag_id where rt.room_id = m.room_id and lower(t.name) = ${restrictedEmail})`
      : sql``;
    const matches = sql`from messages m where ${messageVector('m')} @@ ${tsquery} and m.company_id = ${companyId} ${visible}`;
    const counted = (await this.db.execute(sql`select count(*)::int as n ${matches}`)) as unknown as { rows: { n: number }[] };
    const count = Number(counted.rows[0]?.n ?? 0);
    if (count === 0) return { count, results: [] };
    const found = (await this.db.execute(sql`
      with hits as (
        select m.id, m.room_id, m.created_at, ts_rank(${messageVector('m')}, ${tsquery}) as rank ${matches}
        order by rank desc, m.id desc
        limit ${MESSAGE_SEARCH_PAGE_SIZE} offset ${(page - 1) * MESSAGE_SEARCH_PAGE_SIZE}
      )
      select h.id, h.room_id, h.created_at, r.name as room_name,
             ts_headline('simple', replace(replace(replace(coalesce(m.text, ''), '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), ${tsquery}, ${HEADLINE_OPTIONS}) as snippet
      from hits h
      inner join messages m on m.id = h.id
      inner join rooms r on r.id = h.room_id
      order by h.rank desc, h.id desc`)) as unknown as { rows: { id: number; room_id: number; created_at: Date | string; room_name: string; snippet: string }[] };
    return {
      count,
      results: found.rows.map((row) => ({
        room_id: Number(row.room_id),
        message_id: Number(row.id),
        snippet: row.snippet,
        created_at: new Date(row.created_at).toISOString(),
        room_name: row.room_name,
      })),
    };
  }
}
