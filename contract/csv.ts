/**
 * The one CSV writer of the project (the stats export, the opt-out list, the broadcast report and
 * its sample audience): papaparse's unparse (RFC 4180 quoting, CRLF between lines, no trailing line
 * break) with one rule against spreadsheet formula injection (OWASP "CSV Injection"):
 *
 * - A text cell whose first character is = + - @, a tab or a carriage return is written with a
 *   leading single quote, so a spreadsheet shows it as text instead of running it (`'=HYPERLINK(…)`).
 *   Papaparse also quotes such a cell.
 * - Numbers stay numbers: a number cell (-5, 1.5) is never a formula.
 * - A text cell that is one plain number, an optional sign then digits with an optional decimal
 *   part ("-5", "+33612345678"), is left as it is too: a spreadsheet reads it as that number and
 *   there is nothing in it to run. This keeps E.164 phone numbers (+33…) in the phone and
 *   external_id columns as they are. Anything more ("+1 (415) 555-0123", "-5+cmd|' /C calc'!A0",
 *   "-") gets the quote.
 */
import Papa from 'papaparse';

export type CsvCell = string | number | boolean | null | undefined;
export type CsvRow = readonly CsvCell[] | Readonly<Record<string, CsvCell>>;

/** The first characters a spreadsheet reads as the start of a formula. */
export const FORMULA_START_CHARACTERS = ['=', '+', '-', '@', '\t', '\r'] as const;

/** A text cell that gets the leading quote: it starts a formula and is not one plain signed number. */
export const FORMULA_CELL = /^(?![+-]\d+(?:\.\d+)?$)[=+\-@\t\r]/;

/** The rule on one text cell, for data that leaves as rows rather than CSV text (GET /api/opt-out-csv/). */
export function neutraliseFormula(text: string): string {
  return FORMULA_CELL.test(text) ? `'${text}` : text;
}

/**
 * Rows as CSV text. With `columns`, a header line of those names comes first, array rows are read in
 * that order and object rows by those keys; without it, array rows are written alone and object rows
 * under the first row's keys. null and undefined are empty cells.
 */
export function toCsv(rows: readonly CsvRow[], columns?: readonly string[]): string {
  const options = { escapeFormulae: FORMULA_CELL };
  // unparse reads {fields, data: []} as one empty row (a stray line break): a header alone is a row of names.
  if (columns && !rows.length) return Papa.unparse([[...columns]], options);
  const data = [...rows];
  return Papa.unparse(columns ? { fields: [...columns], data } : data, options);
}
