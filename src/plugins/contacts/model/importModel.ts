/**
 * The import dialog's model: the file's header and first rows (papaparse, as the server reads it), the mapping
 * guessed from the header, and the preview of the first rows through the same rules the server applies
 * (contract/contactImports.ts readImportRow), duplicates among them included.
 */
import Papa from 'papaparse';
import {
  CONTACT_IMPORT_LIMITS,
  guessImportMapping,
  importColumns,
  IMPORT_COUNTRIES,
  readImportRow,
  type ImportMapping,
  type ImportRowValues,
  type ImportSkippedRow,
} from '../../../../contract/contactImports';
import type { ContactAttribute } from '../../../../contract/contacts';

export interface CsvSample {
  columns: string[];
  /** The first data rows: their row number in the file (header = 1) and their cells by column. */
  rows: { row: number; cells: Record<string, string> }[];
}

/** The header and the first `count` data rows of a CSV text (null when it has no header). */
export function sampleCsv(text: string, count: number = CONTACT_IMPORT_LIMITS.previewRows): CsvSample | null {
  const clean = text.replace(/^\uFEFF/, '');
  const parsed = Papa.parse<string[]>(clean.slice(0, 256 * 1024), { header: false, skipEmptyLines: false, preview: 200, delimitersToGuess: [',', ';', '\t', '|'] });
  let columns: string[] | null = null;
  const rows: CsvSample['rows'] = [];
  parsed.data.forEach((cells, index) => {
    if (rows.length >= count || cells.every((c) => c.trim() === '')) return;
    if (!columns) {
      columns = importColumns(cells);
      return;
    }
    const record: Record<string, string> = {};
    columns.forEach((c, k) => (record[c] = cells[k] ?? ''));
    rows.push({ row: index + 1, cells: record });
  });
  return columns ? { columns, rows } : null;
}

export { guessImportMapping };

export type PreviewRow = { row: number; cells: Record<string, string> } & ({ ok: true; values: ImportRowValues } | { ok: false; skip: Omit<ImportSkippedRow, 'row' | 'detail'> });

/** The sample's rows as the import would take them: values, or the reason the row would be skipped. */
export function previewRows(sample: CsvSample, mapping: ImportMapping, attributes: readonly ContactAttribute[], country: string | null): PreviewRow[] {
  const definitions = new Map(attributes.map((a) => [a.key, a]));
  const firstRowOf = new Map<string, number>();
  return sample.rows.map(({ row, cells }) => {
    const read = readImportRow(cells, mapping, definitions, country);
    if (!read.ok) return { row, cells, ok: false, skip: read.skip };
    const key = read.values.phone ? `p:${read.values.phone}` : `e:${read.values.externalId}`;
    const earlier = firstRowOf.get(key);
    if (earlier !== undefined) {
      return { row, cells, ok: false, skip: { reason: 'duplicate', field: read.values.phone ? 'phone' : 'external_id', value: read.values.phone ?? read.values.externalId ?? '', first_row: earlier } };
    }
    firstRowOf.set(key, row);
    return { row, cells, ok: true, values: read.values };
  });
}

/** Whether a column goes to the phone or the external id (the server refuses a mapping without either). */
export function hasKeyColumn(mapping: ImportMapping): boolean {
  return Object.values(mapping).some((target) => target === 'phone' || target === 'external_id');
}

/** The browser's region as the default country (`fr-FR` → FR), when libphonenumber knows it. */
export function browserCountry(languages: readonly string[]): string {
  for (const language of languages) {
    const region = /-([A-Z]{2})\b/i.exec(language)?.[1]?.toUpperCase();
    if (region && IMPORT_COUNTRIES.includes(region)) return region;
  }
  return '';
}

/** The countries by their name in the console's language. */
export function countryOptions(language: string): { code: string; name: string }[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([language], { type: 'region' });
  } catch {
    names = null;
  }
  return IMPORT_COUNTRIES.map((code) => ({ code, name: names?.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, language));
}
