import { sql, type SQL } from 'drizzle-orm';

/**
 * A `timestamp with time zone` as the API writes it, written by PostgreSQL: what `Date.prototype.toISOString` gives
 * for drizzle's date of the same value (UTC, `Z`, the milliseconds cut as a Date cuts the microseconds), whatever
 * the session's time zone. For a list answered as JSON built in the statement (the room list), where making a Date of
 * each timestamp and its text again was the larger part of the server's own work on every row (bench/data, issue #26).
 * Years 1 to 9999 only (`toISOString` writes others as `+010000`): every timestamp here is the server's or a
 * contract date-time, whose year has four digits.
 */
export function isoText(value: SQL): SQL<string | null> {
  return sql<string | null>`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
