/**
 * The create-broadcast stepper's draft (audience → content → schedule → review). It is kept in
 * localStorage per company and broadcast type, so leaving the page and coming back finds it again;
 * sign-out clears every draft (spec §4: sign-out clears broadcast state).
 */
import type { VariableMapping } from '../../../../contract/broadcasts';

export const BROADCAST_TYPES = ['contacts', 'csv'] as const;
export type BroadcastType = (typeof BROADCAST_TYPES)[number];

export function isBroadcastType(value: string | undefined): value is BroadcastType {
  return !!value && (BROADCAST_TYPES as readonly string[]).includes(value);
}

export const STEPS = ['audience', 'content', 'schedule', 'review'] as const;
export type StepName = (typeof STEPS)[number];

/** Where a template variable's value comes from: a CSV column, a contact field or a fixed text (contract/broadcasts VariableMapping). */
export type { VariableMapping };

/** An uploaded CSV list: its text (the server parses it again on creation) and what the preview found. */
export interface CsvAudience {
  fileName: string;
  text: string;
}

/** Spec §3 contact search filter: a term, tags (by id) and channels. */
export interface ContactsFilter {
  term: string;
  tags: { id: number }[];
  channels: number[];
}

export interface ScheduleChoice {
  mode: 'now' | 'later';
  /** YYYY-MM-DD on the clock of `timeZone`. */
  date: string;
  /** HH:mm on the clock of `timeZone`. */
  time: string;
  /** IANA zone; companies have no time zone setting, so the browser's unless the user picks another. */
  timeZone: string;
}

/** What the server found in the uploaded CSV (kept with the draft for the mapping and the review). */
export interface CsvSummary {
  total: number;
  recipients: number;
  columns: string[];
  badRows: { row: number; reason: string; value?: string }[];
  sample: { phone: string; name: string; values: Record<string, string> } | null;
}

export interface BroadcastDraft {
  version: 1;
  type: BroadcastType;
  step: number;
  name: string;
  channelId: number | null;
  filter: ContactsFilter;
  /** A contacts broadcast goes to the filter's contacts, or to a saved segment's members (absent in older drafts: the filter). */
  audience?: 'filter' | 'segment';
  segmentId?: number | null;
  csv: CsvAudience | null;
  csvSummary: CsvSummary | null;
  templateName: string | null;
  templateLanguage: string | null;
  /** `body.1`, `header.1`, `button.0.1` → where its value comes from. */
  mapping: Record<string, VariableMapping>;
  headerMedia: { url: string; name: string; type: string } | null;
  schedule: ScheduleChoice;
  /** The file name of a CSV that was too large to keep in the browser's storage. */
  csvTooLarge?: string | null;
}

export function emptyDraft(type: BroadcastType): BroadcastDraft {
  return {
    version: 1,
    type,
    step: 0,
    name: '',
    channelId: null,
    filter: { term: '', tags: [], channels: [] },
    audience: 'filter',
    segmentId: null,
    csv: null,
    csvSummary: null,
    templateName: null,
    templateLanguage: null,
    mapping: {},
    headerMedia: null,
    schedule: { mode: 'now', date: '', time: '', timeZone: '' },
  };
}

export const DRAFT_PREFIX = 'broadcasts.draft.';

export function draftKey(companyId: number | null, type: BroadcastType): string {
  return `${DRAFT_PREFIX}${companyId ?? 'none'}.${type}`;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The saved draft, or a fresh one when there is none or it cannot be read. */
export function loadDraft(companyId: number | null, type: BroadcastType): BroadcastDraft {
  const raw = storage()?.getItem(draftKey(companyId, type));
  if (!raw) return emptyDraft(type);
  try {
    const parsed = JSON.parse(raw) as Partial<BroadcastDraft>;
    if (parsed?.version !== 1 || parsed.type !== type) return emptyDraft(type);
    const base = emptyDraft(type);
    return {
      ...base,
      ...parsed,
      filter: { ...base.filter, ...parsed.filter },
      schedule: { ...base.schedule, ...parsed.schedule },
      mapping: parsed.mapping ?? {},
      step: parsed.csvTooLarge ? 0 : Math.max(0, Math.min(STEPS.length - 1, Number(parsed.step) || 0)),
    };
  } catch {
    return emptyDraft(type);
  }
}

/**
 * Saves the draft. A CSV too large for the browser's storage is left out (the draft keeps its
 * file name with `csvTooLarge`, and the audience step asks for the file again).
 */
export function saveDraft(companyId: number | null, draft: BroadcastDraft): void {
  const store = storage();
  if (!store) return;
  const key = draftKey(companyId, draft.type);
  try {
    store.setItem(key, JSON.stringify(draft));
  } catch {
    try {
      const light: BroadcastDraft = { ...draft, csv: null, csvSummary: null, csvTooLarge: draft.csv?.fileName ?? null };
      store.setItem(key, JSON.stringify(light));
    } catch {
      // storage denied: the draft lives on in memory only
    }
  }
}

export function clearDraft(companyId: number | null, type: BroadcastType): void {
  storage()?.removeItem(draftKey(companyId, type));
}

/** Sign-out: every company's drafts go. */
export function clearAllDrafts(): void {
  const store = storage();
  if (!store) return;
  const keys: string[] = [];
  for (let i = 0; i < store.length; i += 1) {
    const key = store.key(i);
    if (key?.startsWith(DRAFT_PREFIX)) keys.push(key);
  }
  for (const key of keys) store.removeItem(key);
}

/** The audience as the API takes it (contract BroadcastAudience). */
export function audienceOf(draft: BroadcastDraft) {
  if (draft.type === 'csv') return { type: 'csv' as const, csv: draft.csv?.text ?? '', file_name: draft.csv?.fileName };
  if (draft.audience === 'segment') return { type: 'segment' as const, segment_id: draft.segmentId ?? 0 };
  return { type: 'contacts' as const, filter: { term: draft.filter.term.trim(), tags: draft.filter.tags, channels: draft.filter.channels } };
}
