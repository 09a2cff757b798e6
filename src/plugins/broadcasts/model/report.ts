/**
 * The broadcast report (GET /api/broadcasts/{id}/report/ → {headers, data}) as a CSV file, and the
 * sample audience CSV, both written by contract/csv's toCsv (papaparse, formula cells neutralised).
 */
import { toCsv } from '../../../../contract/csv';

export interface BroadcastReport {
  headers: string[];
  /** One row per recipient: values in header order, or objects keyed by header. */
  data: (readonly unknown[] | Record<string, unknown>)[];
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** CSV text of the report: a header line, then one line per recipient in header order. */
export function reportToCsv(report: BroadcastReport): string {
  const rows = report.data.map((row) => (Array.isArray(row) ? row.map(cell) : report.headers.map((h) => cell((row as Record<string, unknown>)[h]))));
  return toCsv(rows, report.headers);
}

/** A sample audience file: phone (E.164), name, and one column per variable. */
export function sampleCsv(): string {
  return toCsv(
    [
      ['+14155550123', 'Ada Lovelace', 'ADA10', '2026-12-01'],
      ['+33612345678', 'Jean Dupont', 'JEAN10', '2026-12-01'],
    ],
    ['phone', 'name', 'var1', 'var2'],
  );
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
