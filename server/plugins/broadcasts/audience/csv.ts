/**
 * The CSV audience rules (issue #11): parsed with papaparse (quotes, embedded commas and line
 * breaks, `;` or tab separators detected), the header row names the columns, the phone column is
 * found by name (contract PHONE_COLUMN_NAMES), every phone goes to E.164 (./phone.ts). A bad row
 * is reported by its row number (the header is row 1, as a spreadsheet shows it) with the reason,
 * and the good rows are kept; a phone seen on an earlier row is a duplicate (reported, not sent twice).
 *
 * A file at the size limit is seconds of CPU (papaparse, then libphonenumber on every row), so the
 * work is asynchronous and time-sliced (./slices.ts): papaparse reads the text in chunks and pauses
 * after each one, and the rules yield whenever a slice is used up. Other requests are answered
 * meanwhile; the broadcast service lets each company read one file at a time (service.ts).
 */
import Papa from 'papaparse';
import {
  CSV_LIMITS,
  CSV_ROW_REASONS,
  NAME_COLUMN_NAMES,
  PHONE_COLUMN_NAMES,
  type BadRow,
  type CsvRow,
} from '../../../../contract/broadcasts';
import { toE164 } from './phone';
import { Slicer } from './slices';

export interface CsvRecipient {
  /** Row number in the file (header = 1). */
  row: number;
  phone: string;
  name: string;
  /** Column → value, as in the file (trimmed). */
  values: Record<string, string>;
}

export interface ParsedCsvAudience {
  columns: string[];
  phoneColumn: string;
  nameColumn: string | null;
  /** Data rows read (empty lines not counted). */
  total: number;
  /** Good rows, first occurrence of each phone. */
  recipients: CsvRecipient[];
  badRows: BadRow[];
  invalid: number;
  duplicates: number;
}

export type CsvAudienceResult = { ok: true; value: ParsedCsvAudience } | { ok: false; error: string };

const normalize = (header: string) => header.trim().toLowerCase().replace(/[\s\-.]+/g, '_');

function findColumn(columns: string[], names: readonly string[]): string | null {
  for (const name of names) {
    const found = columns.find((c) => normalize(c) === name);
    if (found) return found;
  }
  return null;
}

/** Unique, non-empty header names (a blank header becomes `column_N`, a repeated one `name_2`). */
function headerNames(raw: string[]): string[] {
  const seen = new Set<string>();
  return raw.map((h, i) => {
    let name = h.trim() || `column_${i + 1}`;
    if (seen.has(name)) {
      let n = 2;
      while (seen.has(`${name}_${n}`)) n += 1;
      name = `${name}_${n}`;
    }
    seen.add(name);
    return name;
  });
}

/** Applies the rules to records already split into cells (`rows[i]` is the file's row i + 2). */
async function applyRules(
  columns: string[],
  records: { row: number; cells: Record<string, string>; extra?: boolean }[],
  slicer: Slicer,
): Promise<CsvAudienceResult> {
  const phoneColumn =
    findColumn(columns, PHONE_COLUMN_NAMES) ?? columns.find((c) => /phone|mobile|whatsapp|number|tel/.test(normalize(c))) ?? null;
  if (!phoneColumn) return { ok: false, error: 'noPhoneColumn' };
  const nameColumn = findColumn(columns, NAME_COLUMN_NAMES);
  const recipients: CsvRecipient[] = [];
  const badRows: BadRow[] = [];
  const firstRowOf = new Map<string, number>();
  let invalid = 0;
  let duplicates = 0;
  for (const { row, cells, extra } of records) {
    if (slicer.due()) await slicer.yieldNow();
    const raw = (cells[phoneColumn] ?? '').trim();
    if (extra) {
      badRows.push({ row, reason: CSV_ROW_REASONS.tooManyColumns });
      invalid += 1;
      continue;
    }
    if (!raw) {
      badRows.push({ row, reason: CSV_ROW_REASONS.missingPhone });
      invalid += 1;
      continue;
    }
    const phone = toE164(raw);
    if (!phone) {
      badRows.push({ row, reason: CSV_ROW_REASONS.invalidPhone, value: raw.slice(0, 64) });
      invalid += 1;
      continue;
    }
    const earlier = firstRowOf.get(phone);
    if (earlier !== undefined) {
      badRows.push({ row, reason: `${CSV_ROW_REASONS.duplicate} (row ${earlier})`, value: phone });
      duplicates += 1;
      continue;
    }
    firstRowOf.set(phone, row);
    const values: Record<string, string> = {};
    for (const c of columns) values[c] = (cells[c] ?? '').trim();
    recipients.push({ row, phone, name: nameColumn ? values[nameColumn] : '', values });
  }
  return { ok: true, value: { columns, phoneColumn, nameColumn, total: records.length, recipients, badRows, invalid, duplicates } };
}

/** Papaparse's chunk length: about 1,800 rows of a typical audience file, a few milliseconds to split. */
export const CSV_CHUNK_BYTES = 64 * 1024;

/**
 * The file's records, read `chunkBytes` at a time: papaparse pauses after each chunk and resumes on
 * the loop's next turn (quoted cells and lines cut by a chunk's end are carried to the next chunk).
 */
function readRecords(text: string, delimiter: string, slicer: Slicer, chunkBytes: number): Promise<string[][]> {
  return new Promise((resolve) => {
    const lines: string[][] = [];
    Papa.parse<string[]>(text, {
      header: false,
      skipEmptyLines: false,
      delimiter,
      chunkSize: chunkBytes,
      chunk(results: Papa.ParseResult<string[]>, parser: Papa.Parser) {
        for (const cells of results.data) lines.push(cells);
        parser.pause();
        void slicer.yieldNow().then(() => parser.resume());
      },
      complete: () => resolve(lines),
    });
  });
}

/** The rules on a CSV file's text. Errors: 'empty', 'noPhoneColumn', 'tooManyRows', 'tooManyColumns'. */
export async function parseCsvText(text: string, options: { slicer?: Slicer; chunkBytes?: number } = {}): Promise<CsvAudienceResult> {
  const slicer = options.slicer ?? new Slicer();
  const clean = text.replace(/^\uFEFF/, '');
  // The separator is guessed on the first records without blank lines (they would spoil the guess),
  // then the whole file is read with blank lines kept, so row numbers stay the file's.
  const guess = Papa.parse<string[]>(clean.slice(0, CSV_CHUNK_BYTES), { header: false, preview: 20, skipEmptyLines: 'greedy', delimitersToGuess: [',', ';', '\t', '|'] });
  const lines = await readRecords(clean, guess.meta.delimiter || ',', slicer, options.chunkBytes ?? CSV_CHUNK_BYTES);
  const headerIndex = lines.findIndex((cells) => cells.some((c) => c.trim() !== ''));
  if (headerIndex < 0) return { ok: false, error: 'empty' };
  const header = lines[headerIndex];
  if (header.length > CSV_LIMITS.columns) return { ok: false, error: 'tooManyColumns' };
  const columns = headerNames(header);
  const records: { row: number; cells: Record<string, string>; extra?: boolean }[] = [];
  // Row numbers follow the file's records (a quoted cell spanning lines stays one row).
  for (let i = headerIndex + 1; i < lines.length; i += 1) {
    if (slicer.due()) await slicer.yieldNow();
    const cells = lines[i];
    if (cells.every((c) => c.trim() === '')) continue;
    if (records.length >= CSV_LIMITS.rows) return { ok: false, error: 'tooManyRows' };
    const record: Record<string, string> = {};
    columns.forEach((c, k) => (record[c] = (cells[k] ?? '').slice(0, CSV_LIMITS.cell)));
    const extra = cells.slice(columns.length).some((c) => c.trim() !== '');
    records.push({ row: i + 1, cells: record, extra });
  }
  return applyRules(columns, records, slicer);
}

/** The rules on rows already parsed (the preview's answer sent back): row i is the file's row i + 2. */
export async function parseCsvRows(rows: CsvRow[], slicer: Slicer = new Slicer()): Promise<CsvAudienceResult> {
  const columns: string[] = [];
  for (const r of rows) {
    if (slicer.due()) await slicer.yieldNow();
    for (const key of Object.keys(r)) {
      if (!columns.includes(key)) {
        if (columns.length >= CSV_LIMITS.columns) return { ok: false, error: 'tooManyColumns' };
        columns.push(key);
      }
    }
  }
  if (!rows.length) return { ok: false, error: 'empty' };
  return applyRules(
    columns,
    rows.map((cells, i) => ({ row: i + 2, cells })),
    slicer,
  );
}
