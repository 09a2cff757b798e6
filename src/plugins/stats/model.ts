/** The stats page's calls, date presets and CSV download (its durations in words: core/stats/format.ts). */
import type { Channel } from '../../../contract/channels';
import type { StatsReport } from '../../../contract/stats';
import { toCsv } from '../../../contract/csv';
import { ALL_PAGE_SIZE, type HttpProvider } from '../../core';

export function fetchStats(http: HttpProvider, query: { from: string; to: string; tz: string; channel: number | null }, signal?: AbortSignal) {
  const q: Record<string, string> = { from: query.from, to: query.to, tz: query.tz };
  if (query.channel !== null) q.channel = String(query.channel);
  return http.get<StatsReport>('/api/stats/', { query: q, signal });
}

export async function fetchChannels(http: HttpProvider, signal?: AbortSignal): Promise<Channel[]> {
  const body = await http.get<{ results?: Channel[] } | null>('/api/channels/', { query: { page: 1, page_size: ALL_PAGE_SIZE }, signal });
  return body?.results ?? [];
}

export const PRESETS = ['today', 'yesterday', 'last7', 'last30', 'last90', 'custom'] as const;
export type Preset = (typeof PRESETS)[number];

/** YYYY-MM-DD of a date in the browser's zone. */
export function isoDay(date: Date): string {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** The [from, to] days of a preset, ending today (yesterday for 'yesterday'). */
export function presetRange(preset: Exclude<Preset, 'custom'>, now = new Date()): { from: string; to: string } {
  const daysAgo = (n: number) => {
    const d = new Date(now);
    d.setDate(d.getDate() - n);
    return isoDay(d);
  };
  switch (preset) {
    case 'today':
      return { from: daysAgo(0), to: daysAgo(0) };
    case 'yesterday':
      return { from: daysAgo(1), to: daysAgo(1) };
    case 'last7':
      return { from: daysAgo(6), to: daysAgo(0) };
    case 'last30':
      return { from: daysAgo(29), to: daysAgo(0) };
    case 'last90':
      return { from: daysAgo(89), to: daysAgo(0) };
  }
}

/** Saves a table as a CSV file (UTF-8 with BOM so spreadsheets read accents). */
export function downloadCsv(fileName: string, headers: string[], rows: (string | number | null)[][]): void {
  const blob = new Blob(['\uFEFF', toCsv(rows, headers)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
