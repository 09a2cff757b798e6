/**
 * Contact import from CSV (issue #23): the column mapping, the rules a row goes through (the same in the
 * console's preview and on the server), the skip reasons and the import's status as
 * `GET /api/contacts/import/{id}/` answers it.
 *
 * A mapping names, for each CSV column, where its value goes: a contact field (`name`, `phone`,
 * `email`, `tags`, `external_id`) or a defined attribute (`attribute:<key>`); unmapped columns are ignored.
 * A row is found again by its phone (E.164; a number without its country code is read in the default
 * country) or, without a phone, by the external id of an existing contact. Empty cells change nothing.
 */
import { getCountries, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { checkAttributeValue, CONTACT_LIMITS, CONTACT_MESSAGES, contactPhoneE164, type AttributeValue, type ContactAttribute } from './contacts';
import { isEmail } from './validation';

export const CONTACT_IMPORT_LIMITS = {
  rows: 100_000,
  /** Bytes of CSV accepted in one upload (a multipart body may be a little larger). */
  bytes: 16 * 1024 * 1024,
  columns: 50,
  cell: 1024,
  /** Skipped rows listed in the status (all are counted in skipped_count). */
  skippedListed: 1000,
  previewRows: 5,
} as const;

export const IMPORT_FIELDS = ['name', 'phone', 'email', 'tags', 'external_id'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];
/** Where a column goes: a contact field or `attribute:<key>`. */
export type ImportTarget = ImportField | `attribute:${string}`;
/** CSV column name → target (columns left out are ignored). */
export type ImportMapping = Record<string, ImportTarget>;

export const IMPORT_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

export const IMPORT_SKIP_REASONS = ['missing_phone', 'invalid_phone', 'invalid_email', 'invalid_value', 'unknown_external_id', 'duplicate', 'too_many_columns'] as const;
export type ImportSkipReason = (typeof IMPORT_SKIP_REASONS)[number];

export interface ImportSkippedRow {
  /** The row in the file as a spreadsheet numbers it (the header is row 1). */
  row: number;
  reason: ImportSkipReason;
  /** The field or attribute key the reason is about (invalid_value), or the earlier row's key (duplicate). */
  field?: string;
  /** The cell's value (cut to 64 characters). */
  value?: string;
  /** duplicate: the earlier row with the same phone or external id. */
  first_row?: number;
  /** The reason in plain English. */
  detail: string;
}

export interface ContactImport {
  id: number;
  state: ImportState;
  file_name: string;
  /** Data rows in the file (empty lines not counted). */
  total: number;
  processed: number;
  created: number;
  updated: number;
  skipped_count: number;
  /** The first CONTACT_IMPORT_LIMITS.skippedListed skipped rows, in file order. */
  skipped: ImportSkippedRow[];
  /** Why a failed import stopped, in plain words. */
  error: string | null;
  created_at: string;
  finished_at: string | null;
}

/** The import's answers in the spec's plain words. */
export const CONTACT_IMPORT_MESSAGES = {
  fileMissing: 'Upload a CSV file.',
  empty: 'The file has no rows.',
  tooLarge: `The file is too large (at most ${CONTACT_IMPORT_LIMITS.bytes / 1024 / 1024} MB).`,
  tooManyRows: `A file holds at most ${CONTACT_IMPORT_LIMITS.rows.toLocaleString('en-US')} rows.`,
  tooManyColumns: `A file holds at most ${CONTACT_IMPORT_LIMITS.columns} columns.`,
  mappingInvalid: 'Send the mapping as a JSON object of column names to fields.',
  unknownColumn: (column: string) => `The file has no column "${column}".`,
  unknownTarget: (target: string) => `"${target}" is not a contact field or attribute.`,
  mappedTwice: (target: string) => `Only one column can go to "${target}".`,
  noKeyColumn: 'Choose the column of the phone number (or of the external id).',
  country: 'Choose a country from the list.',
  busy: 'An import of contacts is already running for this company. Wait for it to finish.',
  interrupted: 'The import stopped when the server restarted. Import the file again: contacts already imported are updated, not duplicated.',
  failed: 'The import failed. Please try again.',
} as const;

/** The skip reasons in plain English (the console shows its own translation of `reason`). */
export const IMPORT_SKIP_DETAILS: Record<ImportSkipReason, (row: Omit<ImportSkippedRow, 'detail'>) => string> = {
  missing_phone: () => 'The phone number is empty.',
  invalid_phone: (r) => `Not a valid phone number: "${r.value ?? ''}".`,
  invalid_email: (r) => `Not a valid e-mail address: "${r.value ?? ''}".`,
  invalid_value: (r) => `The value "${r.value ?? ''}" does not fit ${r.field ?? 'this field'}.`,
  unknown_external_id: (r) => `No contact has the external id "${r.value ?? ''}", and the row has no phone number.`,
  duplicate: (r) => `Duplicate: the same ${r.field === 'external_id' ? 'external id' : 'phone number'} is on row ${r.first_row}.`,
  too_many_columns: () => 'The row has more columns than the header.',
};

export function skipped(row: Omit<ImportSkippedRow, 'detail'>): ImportSkippedRow {
  const value = row.value === undefined ? undefined : row.value.slice(0, 64);
  const entry = { ...row, ...(value === undefined ? {} : { value }) };
  return { ...entry, detail: IMPORT_SKIP_DETAILS[row.reason](entry) };
}

/** The countries a default country may be (ISO 3166 alpha-2, as libphonenumber knows them). */
export const IMPORT_COUNTRIES: readonly string[] = getCountries();

export function isImportCountry(value: string): value is CountryCode {
  return /^[A-Z]{2}$/.test(value) && isSupportedCountry(value);
}

/**
 * A phone cell to E.164. Written with its country code (`+33…`, `0033…`) it is read as such; otherwise it
 * is read as a national number of `country` first (`06 12 34 56 78` in FR), then as digits with their
 * country code (WhatsApp's wa_id, `33612345678`).
 */
export function importPhoneE164(value: string, country?: string | null): string | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  if (country && isImportCountry(country) && !/^\s*(\+|00)/.test(trimmed) && /^[\d\s().\-/]+$/.test(trimmed) && trimmed.length <= 40) {
    const national = parsePhoneNumberFromString(trimmed, country);
    if (national?.isValid()) return national.number;
  }
  return contactPhoneE164(trimmed);
}

const normalise = (header: string) =>
  header
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

/** Header names each field is guessed from (after normalising: lowercase, accents and punctuation to `_`). */
const FIELD_NAMES: Record<ImportField, readonly string[]> = {
  phone: ['phone', 'phone_number', 'mobile', 'mobile_phone', 'cell', 'whatsapp', 'wa_id', 'telephone', 'tel', 'number', 'numero', 'portable', 'telephone_mobile'],
  name: ['name', 'full_name', 'fullname', 'contact', 'contact_name', 'customer', 'customer_name', 'nom', 'nom_complet', 'client'],
  email: ['email', 'e_mail', 'email_address', 'mail', 'courriel', 'adresse_email'],
  tags: ['tags', 'tag', 'labels', 'label', 'etiquettes', 'etiquette', 'groups'],
  external_id: ['external_id', 'externalid', 'external', 'psid', 'customer_id', 'id_externe'],
};

/**
 * The mapping guessed from the header: a column whose name is a field's usual name goes to that field, one
 * whose name is an attribute's key or name goes to the attribute; each target once, the first column wins.
 */
export function guessImportMapping(columns: readonly string[], attributes: readonly Pick<ContactAttribute, 'key' | 'name'>[]): ImportMapping {
  const mapping: ImportMapping = {};
  const used = new Set<string>();
  const take = (column: string, target: ImportTarget) => {
    if (used.has(target) || mapping[column]) return;
    mapping[column] = target;
    used.add(target);
  };
  for (const column of columns) {
    const n = normalise(column);
    const field = IMPORT_FIELDS.find((f) => FIELD_NAMES[f].includes(n));
    if (field) take(column, field);
  }
  for (const column of columns) {
    if (mapping[column]) continue;
    const n = normalise(column);
    const attribute = attributes.find((a) => a.key === n || normalise(a.name) === n);
    if (attribute) take(column, `attribute:${attribute.key}`);
  }
  // A phone-like column when no usual name matched.
  if (!used.has('phone')) {
    const phoneLike = columns.find((c) => !mapping[c] && /phone|mobile|whatsapp|tel/.test(normalise(c)));
    if (phoneLike) take(phoneLike, 'phone');
  }
  return mapping;
}

/** The mapping checked against the file's columns and the company's attributes: field errors under `mapping`, or null. */
export function mappingProblems(mapping: ImportMapping, columns: readonly string[], attributeKeys: readonly string[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [column, target] of Object.entries(mapping)) {
    if (!columns.includes(column)) problems.push(CONTACT_IMPORT_MESSAGES.unknownColumn(column));
    const isField = (IMPORT_FIELDS as readonly string[]).includes(target);
    const attribute = target.startsWith('attribute:') ? target.slice('attribute:'.length) : null;
    if (!isField && attribute === null) problems.push(CONTACT_IMPORT_MESSAGES.unknownTarget(target));
    else if (attribute !== null && !attributeKeys.includes(attribute)) problems.push(CONTACT_MESSAGES.unknownAttribute(attribute));
    if (seen.has(target)) problems.push(CONTACT_IMPORT_MESSAGES.mappedTwice(target));
    seen.add(target);
  }
  if (!seen.has('phone') && !seen.has('external_id')) problems.push(CONTACT_IMPORT_MESSAGES.noKeyColumn);
  return problems;
}

/** What one row says, once its cells passed the rules. Empty cells are left out (they change nothing). */
export interface ImportRowValues {
  phone: string | null;
  externalId: string | null;
  name: string | null;
  email: string | null;
  tags: string[];
  attributes: Record<string, AttributeValue>;
}

const BOOLEAN_WORDS: Record<string, boolean> = { true: true, false: false, yes: true, no: false, y: true, n: false, '1': true, '0': false, oui: true, non: false, vrai: true, faux: false };

/**
 * One row through the rules: the phone to E.164 (in the default country), the e-mail, each attribute by its
 * type (text, number, date YYYY-MM-DD, boolean — true/false, yes/no, 1/0 —, one of a list's options), tags
 * split on commas. The first problem skips the row (duplicates are the caller's: they need the rows before).
 */
export function readImportRow(
  cells: Readonly<Record<string, string>>,
  mapping: ImportMapping,
  definitions: ReadonlyMap<string, Pick<ContactAttribute, 'key' | 'name' | 'type' | 'options'>>,
  country: string | null,
): { ok: true; values: ImportRowValues } | { ok: false; skip: Omit<ImportSkippedRow, 'row' | 'detail'> } {
  const values: ImportRowValues = { phone: null, externalId: null, name: null, email: null, tags: [], attributes: {} };
  for (const [column, target] of Object.entries(mapping)) {
    const raw = (cells[column] ?? '').trim();
    if (!raw) continue;
    switch (target) {
      case 'phone': {
        const phone = importPhoneE164(raw, country);
        if (!phone) return { ok: false, skip: { reason: 'invalid_phone', field: 'phone', value: raw } };
        values.phone = phone;
        break;
      }
      case 'email': {
        const email = raw.toLowerCase();
        if (email.length > CONTACT_LIMITS.email || !isEmail(email)) return { ok: false, skip: { reason: 'invalid_email', field: 'email', value: raw } };
        values.email = email;
        break;
      }
      case 'name':
        if (raw.length > CONTACT_LIMITS.name) return { ok: false, skip: { reason: 'invalid_value', field: 'name', value: raw } };
        values.name = raw;
        break;
      case 'external_id':
        if (raw.length > CONTACT_LIMITS.externalId) return { ok: false, skip: { reason: 'invalid_value', field: 'external_id', value: raw } };
        values.externalId = raw;
        break;
      case 'tags': {
        const names = [...new Set(raw.split(',').map((t) => t.trim()).filter(Boolean))];
        if (names.length > CONTACT_LIMITS.tags || names.some((t) => t.length > CONTACT_LIMITS.tagName)) return { ok: false, skip: { reason: 'invalid_value', field: 'tags', value: raw } };
        values.tags = names;
        break;
      }
      default: {
        const key = target.slice('attribute:'.length);
        const definition = definitions.get(key);
        if (!definition) return { ok: false, skip: { reason: 'invalid_value', field: key, value: raw } };
        const given = definition.type === 'boolean' && raw.toLowerCase() in BOOLEAN_WORDS ? BOOLEAN_WORDS[raw.toLowerCase()] : raw;
        const checked = checkAttributeValue(definition, given);
        if (!checked.ok) return { ok: false, skip: { reason: 'invalid_value', field: key, value: raw } };
        values.attributes[key] = checked.value;
      }
    }
  }
  if (!values.phone && !values.externalId) return { ok: false, skip: { reason: 'missing_phone', field: 'phone' } };
  return { ok: true, values };
}

/** Unique, non-empty column names from a header row (a blank header becomes `column_N`, a repeated one `name_2`), as the broadcasts' CSV does. */
export function importColumns(header: readonly string[]): string[] {
  const seen = new Set<string>();
  return header.map((h, i) => {
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

/** How often the console asks for a running import's status (ms). */
export const IMPORT_POLL_MS = 1000;
