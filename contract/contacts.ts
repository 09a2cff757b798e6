/**
 * Contacts (issue #23): one customer record per customer per company, the rooms (conversations) it
 * has, the company's custom attributes, and the REST shapes of /api/contacts/ and
 * /api/contact-attributes/. The search rule is spec §3's contact search (contract/chats.ts
 * contactMatches: name or external id contains the term, any chosen tag, page id among the chosen channels),
 * widened to the record's own phone and e-mail (`contactRecordMatches`).
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import type { Platform, Tag } from './chats';
import type { RoomStatus } from './conversations';
import { isEmail } from './validation';

export const CONTACT_ATTRIBUTE_TYPES = ['text', 'number', 'date', 'boolean', 'list'] as const;
export type ContactAttributeType = (typeof CONTACT_ATTRIBUTE_TYPES)[number];
/** A stored attribute value: text, list choice and date (YYYY-MM-DD) are strings. */
export type AttributeValue = string | number | boolean;

export interface ContactAttribute {
  id: number;
  name: string;
  /** The key the contact's `attributes` use (and later segments and template variables). */
  key: string;
  type: ContactAttributeType;
  /** The choices of a `list` attribute; empty for the other types. */
  options: string[];
  created_at: string;
}

/** One conversation of the contact, as the contact panel lists it. */
export interface ContactRoom {
  id: number;
  page_id: number;
  platform: Platform;
  name: string;
  status: RoomStatus;
  last_message_at: string | null;
  created_at: string;
}

export interface Contact {
  id: number;
  name: string;
  /** E.164 (`+33612345678`) or null. */
  phone: string | null;
  email: string | null;
  /** The customer's id on its first channel (a WhatsApp number's digits, a PSID…), null for a contact made by hand without one. */
  external_id: string | null;
  page_id: number | null;
  platform: Platform | null;
  attributes: Record<string, AttributeValue>;
  tags: Tag[];
  /** From the company's opt-out list (STOP, Meta's marketing opt-out): broadcasts skip the contact. */
  opted_out: boolean;
  rooms: ContactRoom[];
  /**
   * The company's broadcasts this contact's phone was sent (newest first, at most CONTACT_BROADCASTS_SHOWN), on the
   * one contact's answers (GET /api/contacts/{id}/, GET /api/rooms/{id}/contact/), not in lists. Broadcast messages
   * live outside the rooms, so this is where an agent sees them.
   */
  broadcasts?: ContactBroadcast[];
  created_at: string;
  last_message_at: string | null;
}

/** A broadcast a contact was sent: its name, what became of this recipient, and when it was sent. */
export interface ContactBroadcast {
  id: number;
  name: string;
  /** The recipient's state: sent, delivered, read, replied or failed. */
  state: string;
  sent_at: string | null;
}

export const CONTACT_BROADCASTS_SHOWN = 10;

export const CONTACT_LIMITS = { name: 150, email: 254, externalId: 128, tags: 50, tagName: 100, attributeKeys: 100, textValue: 1000, options: 100, optionLength: 100 } as const;
export const CONTACT_PAGE_SIZES = [10, 25, 50, 100] as const;
export const CONTACT_MAX_PAGE_SIZE = 100;
export const CONTACT_EXPORT_MAX_ROWS = 100_000;
export const CONTACT_ORDERING_FIELDS = ['id', 'name', 'phone', 'email', 'external_id', 'created_at', 'last_message_at'] as const;
export type ContactOrderingField = (typeof CONTACT_ORDERING_FIELDS)[number];

/** The answers of the contacts' routes, in the spec's plain words. */
export const CONTACT_MESSAGES = {
  invalidPhone: 'Enter a valid phone number with its country code, e.g. +33612345678.',
  invalidEmail: 'Enter a valid email address.',
  phoneTaken: 'A contact with this phone number already exists.',
  externalIdTaken: 'A contact with this external id already exists on this channel.',
  unknownChannel: 'Choose one of your channels.',
  externalIdNeedsChannel: 'Choose the channel of this external id.',
  unknownAttribute: (key: string) => `There is no attribute "${key}". Define it on the attributes tab first.`,
  notNumber: 'Enter a number.',
  notDate: 'Enter a date as YYYY-MM-DD.',
  notBoolean: 'Choose yes or no.',
  notOption: (options: string[]) => `Choose one of: ${options.join(', ')}.`,
  textTooLong: `Ensure this value has no more than ${CONTACT_LIMITS.textValue} characters.`,
  attributeKeyTaken: 'An attribute with this key already exists.',
  attributeKeyFormat: 'Use lowercase letters, digits and underscores, starting with a letter.',
  listNeedsOptions: 'A list attribute needs at least one option.',
  attributeTypeFixed: 'The type of an attribute cannot change once defined.',
} as const;

/**
 * A phone number to E.164 with libphonenumber-js, or null when it is not a valid number. Written with
 * its country code: a leading 00 or a missing '+' is read as the international prefix (WhatsApp's wa_id).
 */
export function contactPhoneE164(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed || trimmed.length > 40 || !/^[\d\s().\-/+]+$/.test(trimmed)) return null;
  let digits = trimmed.replace(/[\s().\-/]/g, '');
  if (!/^\+?\d+$/.test(digits)) return null;
  digits = digits.replace(/^00/, '+');
  if (!digits.startsWith('+')) digits = `+${digits}`;
  const parsed = parsePhoneNumberFromString(digits);
  return parsed && parsed.isValid() ? parsed.number : null;
}

const blank = 'This field may not be blank.';
const maxMessage = (max: number) => `Ensure this field has no more than ${max} characters.`;
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, maxMessage(max))
    .nullable()
    .transform((v) => (v ? v : null));

const phoneField = z
  .string()
  .max(40, CONTACT_MESSAGES.invalidPhone)
  .nullable()
  .transform((v, ctx) => {
    if (v === null || !v.trim()) return null;
    const e164 = contactPhoneE164(v);
    if (!e164) {
      ctx.addIssue({ code: 'custom', message: CONTACT_MESSAGES.invalidPhone });
      return z.NEVER;
    }
    return e164;
  });
const emailField = z
  .string()
  .trim()
  .max(CONTACT_LIMITS.email, CONTACT_MESSAGES.invalidEmail)
  .nullable()
  .transform((v) => (v ? v.toLowerCase() : null))
  .refine((v) => v === null || isEmail(v), CONTACT_MESSAGES.invalidEmail);
const tagNames = z.array(z.string().trim().min(1, blank).max(CONTACT_LIMITS.tagName, maxMessage(CONTACT_LIMITS.tagName))).max(CONTACT_LIMITS.tags);
/** Attribute values by key; checked against the company's definitions by the server (checkAttributes). null clears one. */
const attributesField = z
  .record(z.string().max(64), z.union([z.string().max(CONTACT_LIMITS.textValue, CONTACT_MESSAGES.textTooLong), z.number().finite(), z.boolean(), z.null()]))
  .refine((v) => Object.keys(v).length <= CONTACT_LIMITS.attributeKeys, `At most ${CONTACT_LIMITS.attributeKeys} attributes.`);

export const ContactCreate = z.object({
  name: z.string().trim().min(1, blank).max(CONTACT_LIMITS.name, maxMessage(CONTACT_LIMITS.name)),
  phone: phoneField.optional(),
  email: emailField.optional(),
  external_id: optionalText(CONTACT_LIMITS.externalId).optional(),
  page_id: z.number().int().min(1).max(2_147_483_647).nullable().optional(),
  attributes: attributesField.optional(),
  tags: tagNames.optional(),
});
export type ContactCreate = z.input<typeof ContactCreate>;
export type ContactCreateBody = z.output<typeof ContactCreate>;

/** PATCH: what changes. `tags` replaces the tags; `add_tags`/`remove_tags` (the list's bulk tag and untag) change some. */
export const ContactPatch = z.object({
  name: z.string().trim().min(1, blank).max(CONTACT_LIMITS.name, maxMessage(CONTACT_LIMITS.name)).optional(),
  phone: phoneField.optional(),
  email: emailField.optional(),
  attributes: attributesField.optional(),
  tags: tagNames.optional(),
  add_tags: tagNames.optional(),
  remove_tags: tagNames.optional(),
});
export type ContactPatch = z.input<typeof ContactPatch>;
export type ContactPatchBody = z.output<typeof ContactPatch>;

/** Tag or channel ids, comma-separated (`tags=3,4`). */
const idList = (message: string) =>
  z
    .string()
    .trim()
    .max(1100)
    .regex(/^\d{1,9}(,\d{1,9}){0,99}$/, message)
    .transform((v) => v.split(',').map(Number));

/**
 * The digits a search term is looked up by in phone numbers, or null when the term is not a phone number being
 * typed: at least three digits, and nothing but digits, spaces and + - . ( ). "+33 6 98", "06.98" and "(415) 555"
 * find "+33698765432" and "+14155550100" whatever the grouping; "Room 12" or "2024" (too few, or letters) do not.
 */
export function phoneDigitsOf(term: string): string | null {
  const trimmed = term.trim();
  if (!/^[\d\s+\-.()]+$/.test(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, '');
  return digits.length >= 3 ? digits : null;
}

/**
 * Whether a contact record matches the /contacts search term, as the server's SQL decides it: the spec's contact
 * search (name or external id contains the term, case-insensitive), or its e-mail contains the term, or its phone
 * holds the term's digits (`phoneDigitsOf`). Chatwoot's and WATI's contact searches find a customer by number and
 * e-mail too, the two columns the list shows beside the name.
 */
export function contactRecordMatches(contact: { name: string; external_id: string | null; phone: string | null; email: string | null }, term: string): boolean {
  const t = term.trim().toLowerCase();
  if (!t) return true;
  if (contact.name.toLowerCase().includes(t) || (contact.external_id ?? '').toLowerCase().includes(t) || (contact.email ?? '').toLowerCase().includes(t)) return true;
  const digits = phoneDigitsOf(t);
  return digits !== null && (contact.phone ?? '').replace(/\D/g, '').includes(digits);
}

/** The filters of the list and of the export (the spec's contact search, a segment, attribute values). */
export const contactFilterQuery = {
  search: z.string().trim().max(200).default(''),
  tags: idList('Enter tag ids separated by commas.').optional(),
  channels: idList('Enter channel ids separated by commas.').optional(),
  /** A saved segment's id (contract/segments.ts): its members only. `attr.<key>=value` filters are read from the URL. */
  segment: z.coerce.number().int('Choose one of your segments.').min(1, 'Choose one of your segments.').max(2_147_483_647, 'Choose one of your segments.').optional(),
  ordering: z
    .string()
    .trim()
    .refine((v) => (CONTACT_ORDERING_FIELDS as readonly string[]).includes(v.replace(/^-/, '')), `Order by one of: ${CONTACT_ORDERING_FIELDS.join(', ')}.`)
    .optional(),
};

export const ContactListQuery = z.object({
  ...contactFilterQuery,
  page: z.coerce.number().int('A valid integer is required.').min(1, 'Invalid page.').max(1_000_000, 'Invalid page.').default(1),
  page_size: z.coerce
    .number()
    .int('A valid integer is required.')
    .min(1, 'Ensure this value is greater than or equal to 1.')
    .default(25)
    .transform((n) => Math.min(n, CONTACT_MAX_PAGE_SIZE)),
});
export type ContactListQuery = z.output<typeof ContactListQuery>;
export const ContactExportQuery = z.object(contactFilterQuery);
export type ContactExportQuery = z.output<typeof ContactExportQuery>;
export type ContactFilter = Pick<ContactListQuery, 'search' | 'tags' | 'channels' | 'ordering' | 'segment'>;

const ATTRIBUTE_KEY = /^[a-z][a-z0-9_]{0,63}$/;
const optionsField = z
  .array(z.string().trim().min(1, blank).max(CONTACT_LIMITS.optionLength, maxMessage(CONTACT_LIMITS.optionLength)))
  .max(CONTACT_LIMITS.options)
  .transform((v) => [...new Set(v)]);

export const ContactAttributeCreate = z
  .object({
    name: z.string().trim().min(1, blank).max(100, maxMessage(100)),
    key: z.string().trim().max(64, maxMessage(64)).regex(ATTRIBUTE_KEY, CONTACT_MESSAGES.attributeKeyFormat),
    type: z.enum(CONTACT_ATTRIBUTE_TYPES, { error: () => `Choose one of: ${CONTACT_ATTRIBUTE_TYPES.join(', ')}.` }),
    options: optionsField.default([]),
  })
  .superRefine((v, ctx) => {
    if (v.type === 'list' && v.options.length === 0) ctx.addIssue({ code: 'custom', path: ['options'], message: CONTACT_MESSAGES.listNeedsOptions });
  });
export type ContactAttributeCreate = z.input<typeof ContactAttributeCreate>;
export const ContactAttributePatch = z.object({ name: z.string().trim().min(1, blank).max(100, maxMessage(100)).optional(), options: optionsField.optional() });
export type ContactAttributePatch = z.input<typeof ContactAttributePatch>;

/** A key from a name (`Order count` → `order_count`), what the console proposes while the key is untouched. */
export function attributeKeyFrom(name: string): string {
  const key = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+|_+$/g, '')
    .slice(0, 64);
  return key;
}

/**
 * One value checked against its attribute's type: the stored value, or the problem in plain words.
 * Numbers may come as text (a form field, a CSV cell); dates are calendar days.
 */
export function checkAttributeValue(definition: Pick<ContactAttribute, 'type' | 'options'>, value: AttributeValue): { ok: true; value: AttributeValue } | { ok: false; message: string } {
  switch (definition.type) {
    case 'text': {
      const text = String(value).trim();
      return text.length > CONTACT_LIMITS.textValue ? { ok: false, message: CONTACT_MESSAGES.textTooLong } : { ok: true, value: text };
    }
    case 'number': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.trim().replace(',', '.')) : NaN;
      return Number.isFinite(n) ? { ok: true, value: n } : { ok: false, message: CONTACT_MESSAGES.notNumber };
    }
    case 'date': {
      const text = String(value).trim();
      const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
      if (!match) return { ok: false, message: CONTACT_MESSAGES.notDate };
      const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
      return date.toISOString().slice(0, 10) === text ? { ok: true, value: text } : { ok: false, message: CONTACT_MESSAGES.notDate };
    }
    case 'boolean': {
      if (typeof value === 'boolean') return { ok: true, value };
      if (value === 'true' || value === 'false') return { ok: true, value: value === 'true' };
      return { ok: false, message: CONTACT_MESSAGES.notBoolean };
    }
    case 'list': {
      const text = String(value).trim();
      return definition.options.includes(text) ? { ok: true, value: text } : { ok: false, message: CONTACT_MESSAGES.notOption(definition.options) };
    }
  }
}

/** The realtime topic of one contact and the event its changes are pushed with (the contact panel and the contacts page listen). */
export const contactTopic = (contactId: number) => `contact:${contactId}`;
export const CONTACT_EVENTS = { updated: 'contact_updated', deleted: 'contact_deleted' } as const;

/** The export's columns (attributes follow, one column per defined attribute key). */
export const CONTACT_EXPORT_COLUMNS = ['id', 'name', 'phone', 'email', 'external_id', 'channel', 'platform', 'tags', 'opted_out', 'created_at', 'last_message_at'] as const;
