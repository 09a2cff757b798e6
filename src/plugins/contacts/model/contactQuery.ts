/** The list's react-admin filter as the API's query (the same for the list and the export), and the CSV download. */
import Papa from 'papaparse';
import { toCsv } from '../../../../contract/csv';
import type { HttpProvider } from '../../../core';

export interface ContactListFilter {
  q?: string;
  tags?: number[];
  channels?: number[];
  segment?: number;
}

export function exportQuery(filter: ContactListFilter): Record<string, string | undefined> {
  return {
    search: filter.q?.trim() || undefined,
    tags: filter.tags?.length ? filter.tags.join(',') : undefined,
    channels: filter.channels?.length ? filter.channels.join(',') : undefined,
    segment: filter.segment ? String(filter.segment) : undefined,
  };
}

/** The export's header and the rows of the chosen contacts (first column: the id), written again with the one CSV helper. */
export function onlyRows(csv: string, ids: ReadonlySet<string>): string {
  const parsed = Papa.parse<string[]>(csv, { skipEmptyLines: true });
  const [header = [], ...rows] = parsed.data;
  return toCsv(
    rows.filter((row) => ids.has(row[0])),
    header,
  );
}

/** Fetches the server's CSV of the filtered list (only the chosen contacts' rows when `ids` is given) and saves it. */
export async function downloadContacts(http: HttpProvider, filter: ContactListFilter, ids?: readonly (string | number)[]): Promise<void> {
  const text = String((await http.get<string>('/api/contacts/export/', { query: exportQuery(filter) })) ?? '');
  const csv = ids ? onlyRows(text, new Set(ids.map(String))) : text;
  const blob = new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = 'contacts.csv';
  a.click();
  URL.revokeObjectURL(url);
}
