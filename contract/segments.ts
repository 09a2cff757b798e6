/**
 * Segments (issue #23): a company's saved contact filter, and the REST shapes of /api/segments/.
 * A contact is in a segment when it matches every condition given: any of the tags, a first channel
 * among the channels, every attribute condition, a message in the last N days, and (opted_in_only)
 * not on the company's opt-out list. Broadcasts send to a segment's members at sending time.
 *
 * Routes (bearer token + `Company`, the `chats` area: view reads, manage writes):
 *   GET, POST /api/segments/              the list {count, results} and a new segment
 *   POST /api/segments/count/             the count of unsaved conditions (the builder's live count)
 *   GET, PATCH, DELETE /api/segments/{id}/
 *   GET /api/segments/{id}/count/         how many contacts are in it now
 * And GET /api/contacts/?segment={id} lists its members (with `attr.<key>=value` filters beside).
 */
import { z } from 'zod';
import type { ContactAttributeType } from './contacts';

/** What each attribute type can be compared with. `set` / `not_set`: the contact has a value or not. */
export const SEGMENT_OPERATORS = {
  text: ['eq', 'neq', 'contains', 'not_contains', 'set', 'not_set'],
  number: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'set', 'not_set'],
  date: ['eq', 'before', 'after', 'set', 'not_set'],
  boolean: ['eq', 'set', 'not_set'],
  list: ['eq', 'neq', 'in', 'not_in', 'set', 'not_set'],
} as const satisfies Record<ContactAttributeType, readonly string[]>;
export const ALL_SEGMENT_OPERATORS = ['eq', 'neq', 'contains', 'not_contains', 'gt', 'gte', 'lt', 'lte', 'before', 'after', 'in', 'not_in', 'set', 'not_set'] as const;
export type SegmentOperator = (typeof ALL_SEGMENT_OPERATORS)[number];
/** Operators that take no value. */
export const VALUELESS_OPERATORS: readonly SegmentOperator[] = ['set', 'not_set'];
/** Operators whose value is a list of choices. */
export const LIST_VALUE_OPERATORS: readonly SegmentOperator[] = ['in', 'not_in'];

export const SEGMENT_LIMITS = { name: 100, attributeConditions: 20, ids: 100, listValues: 100, maxDays: 3650, perCompany: 200 } as const;

export const SEGMENT_MESSAGES = {
  operatorForType: (type: string, operators: readonly string[]) => `A ${type} attribute is compared with one of: ${operators.join(', ')}.`,
  needsValue: 'Enter a value.',
  needsValues: 'Choose at least one value.',
  nameTaken: 'A segment with this name already exists.',
  unknownTag: 'Choose tags of your company.',
  unknownChannel: 'Choose channels of your company.',
  unknownSegment: 'Choose one of your segments.',
  tooMany: `A company has at most ${SEGMENT_LIMITS.perCompany} segments.`,
} as const;

const blank = 'This field may not be blank.';
const ids = (message: string) => z.array(z.number({ message }).int(message).min(1, message).max(2_147_483_647, message)).max(SEGMENT_LIMITS.ids).default([]);
const scalar = z.union([z.string().max(1000, 'Ensure this value has no more than 1000 characters.'), z.number().finite(), z.boolean()]);

export const AttributeCondition = z.object({
  key: z.string().trim().min(1, blank).max(64),
  op: z.enum(ALL_SEGMENT_OPERATORS, { error: () => `Choose one of: ${ALL_SEGMENT_OPERATORS.join(', ')}.` }),
  /** A text, number, date (YYYY-MM-DD), boolean or, for in / not_in, a list of choices; none for set / not_set. */
  value: z.union([scalar, z.array(z.string().max(100)).max(SEGMENT_LIMITS.listValues), z.null()]).optional(),
});
export type AttributeCondition = z.infer<typeof AttributeCondition>;

export const SegmentConditions = z.object({
  /** Tag ids: the contact has any of them. */
  tags: ids('Choose tags of your company.'),
  /** Channel (page) ids: the contact's first channel is one of them. */
  channels: ids('Choose channels of your company.'),
  /** Every one must hold. */
  attributes: z.array(AttributeCondition).max(SEGMENT_LIMITS.attributeConditions, `At most ${SEGMENT_LIMITS.attributeConditions} attribute conditions.`).default([]),
  /** The contact's last message is at most this many days old; null: any (or none). */
  last_message_within_days: z.number({ message: 'Enter a number of days.' }).int('Enter a whole number of days.').min(1, 'Enter at least 1 day.').max(SEGMENT_LIMITS.maxDays, `Enter at most ${SEGMENT_LIMITS.maxDays} days.`).nullable().default(null),
  /** Leave out the contacts on the company's opt-out list. */
  opted_in_only: z.boolean().default(false),
});
export type SegmentConditions = z.output<typeof SegmentConditions>;
export type SegmentConditionsInput = z.input<typeof SegmentConditions>;
export const EMPTY_SEGMENT_CONDITIONS: SegmentConditions = { tags: [], channels: [], attributes: [], last_message_within_days: null, opted_in_only: false };

const nameField = z.string().trim().min(1, blank).max(SEGMENT_LIMITS.name, `Ensure this field has no more than ${SEGMENT_LIMITS.name} characters.`);

export const SegmentCreate = z.object({ name: nameField, conditions: SegmentConditions.default(EMPTY_SEGMENT_CONDITIONS) });
export type SegmentCreate = z.output<typeof SegmentCreate>;
export type SegmentCreateInput = z.input<typeof SegmentCreate>;
export const SegmentPatch = z.object({ name: nameField.optional(), conditions: SegmentConditions.optional() });
export type SegmentPatch = z.output<typeof SegmentPatch>;
/** POST /api/segments/count/: the conditions being edited. */
export const SegmentCountRequest = z.object({ conditions: SegmentConditions.default(EMPTY_SEGMENT_CONDITIONS) });

export interface Segment {
  id: number;
  name: string;
  conditions: SegmentConditions;
  created_at: string;
  updated_at: string;
}

export interface SegmentCount {
  /** Contacts matching now (as far as the caller sees contacts). */
  count: number;
}

/** `?attr.city=Lyon` on the contacts list: the attribute equals the value (as its type reads it). */
export const ATTRIBUTE_FILTER_PREFIX = 'attr.';
