/**
 * A table's row selected as ONE JSON value built by PostgreSQL, read back into the object drizzle would have mapped.
 *
 * drizzle maps a result column by column, twice checking each field's class (`is()`) on every row. A list that
 * brings one related row per line (the inbox's room list and each room's newest message: 19 columns of it on
 * every room) spent about a third of its server CPU in that mapping (bench/data, issue #26). As one JSON value
 * it is one field to map: pg parses the JSON, and only the timestamps need making into dates here (sent as numbers).
 *
 * Only column types whose JSON is the value drizzle gives are accepted (a numeric, whose drizzle value is a
 * string, would come back as a number): another type fails when the statement is built, not in a response.
 */
import { getTableColumns, sql, type Column, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/** drizzle's column types whose value is their JSON as it is (timestamps, as dates, are converted). */
const AS_IS = new Set(['PgSerial', 'PgInteger', 'PgText', 'PgJsonb', 'PgBoolean', 'PgVarchar']);

export interface RowJson<T> {
  /** `json_build_object(...)` of the columns under `alias` (the alias of the table or CTE in the query). */
  readonly select: SQL;
  /** The object drizzle would have mapped from the same row, made from `json` itself (pg's, parsed for this row); null for no row. */
  read(json: Record<string, unknown> | null): T | null;
}

export function rowJson<T extends PgTable>(table: T, alias: string): RowJson<T['$inferSelect']> {
  return columnsJson(getTableColumns(table), alias) as RowJson<T['$inferSelect']>;
}

/** The same for chosen columns (keys as drizzle's select would name them), read from `alias` by their column names (a CTE's). */
export function columnsJson<C extends Record<string, Column>>(selection: C, alias: string): RowJson<{ [K in keyof C]: C[K]['_']['notNull'] extends true ? C[K]['_']['data'] : C[K]['_']['data'] | null }> {
  const columns = Object.entries(selection);
  const dates: string[] = [];
  for (const [key, column] of columns) {
    if (column.columnType === 'PgTimestamp') dates.push(key);
    else if (!AS_IS.has(column.columnType)) throw new Error(`rowJson: column ${column.name} is a ${column.columnType}, whose JSON is not drizzle's value`);
  }
  const args = columns.map(([key, column]) => {
    const value = sql`${sql.identifier(alias)}.${sql.identifier(column.name)}`;
    // A timestamp as its milliseconds since 1970, truncated as drizzle's date is (a timestamp without a time zone
    // is UTC here, as drizzle reads it): a number makes a Date several times faster than the text of a date does,
    // and a room list reads eight of them a room (bench/data, issue #26).
    const json = dates.includes(key) ? sql`floor(extract(epoch from ${value}) * 1000)::bigint` : value;
    return sql`${sql.raw(`'${key}'`)}, ${json}`;
  });
  return {
    select: sql`json_build_object(${sql.join(args, sql`, `)})`,
    read(json) {
      if (json === null || json === undefined) return null;
      // pg's object, parsed for this row alone: its timestamps are made dates in place.
      const row = json;
      for (const key of dates) if (row[key] !== null && row[key] !== undefined) row[key] = new Date(row[key] as number);
      return row as never;
    },
  };
}
