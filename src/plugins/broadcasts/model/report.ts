/**
 * The broadcast report (GET /api/broadcasts/{id}/report/ → {headers, data}) as a CSV file, written
 * with papaparse's unparse (quoting, separators, line breaks), and the sample audience CSV.
 */
import Papa from 'papaparse';

export interface BroadcastReport {
  headers: string[];
  /** One row per recipient: values in header order, or objects keyed by header. */
  data: (readonly unknown[] | Record<string, unknown>)[];
}

/**
 * Spreadsheet formula injection: a cell starting with =, @, a tab or a carriage return, or with +
 * or - followed by anything but a number, is written as text (a leading '). Phone numbers in E.164
 * (+33612345678) and negative numbers stay as they are.
 */
export const FORMULA_START = /^(?:[=@\t\r]|[+-](?!\d[\d\s.]*$))/;

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** CSV text of the report: a header line, then one line per recipient in header order. */
export function reportToCsv(report: BroadcastReport): string {
  const rows = report.data.map((row) => (Array.isArray(row) ? row.map(cell) : report.headers.map((h) => cell((row as Record<string, unknown>)[h]))));
  return Papa.unparse({ fields: report.headers, data: rows }, { escapeFormulae: FORMULA_START });
}

/** A sample audience file: phone (E.164), name, and one column per variable. */
export function sampleCsv(): string {
  return Papa.unparse({
    fields: ['phone', 'name', 'var1', 'var2'],
    data: [
      ['+14155550123', 'Ada Lovelace', 'ADA10', '2026-12-01'],
      ['+33612345678', 'Jean Dupont', 'JEAN10', '2026-12-01'],
    ],
  });
}

/** Saves text as a file through a temporary link (the browser's download). */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8') {
  // A byte-order mark so spreadsheet programs read UTF-8 names correctly.
  const blob = new Blob(['\ufeff', text], { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** `report-<name>-<id>.csv`, with the name reduced to safe characters. */
export function reportFileName(name: string, id: number | string): string {
  const safe = name.normalize('NFKD').replace(/[^\w-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'broadcast';
  return `report-${safe}-${id}.csv`;
}
