/**
 * Segment conditions to SQL (issue #23). Two steps: `checkConditions` reads the conditions against the
 * company's attribute definitions (unknown keys, an operator the type has not, a value of the wrong type
 * answer 400 on the field, e.g. `conditions.attributes.0.value`) and returns them with their values as
 * stored (numbers as numbers, booleans as booleans); `segmentWhere` turns checked conditions into one
 * condition on `contacts`. Keys and values are always bound parameters; keys are also known keys of the
 * company (the definitions' format, /^[a-z][a-z0-9_]{0,63}$/). Values live in `contacts.attributes`
 * (jsonb): a number compared as a number only when stored as one, a date as its YYYY-MM-DD text.
 *
 * Semantics: every condition given must hold; tags match any of them; `neq`, `not_contains` and
 * `not_in` also take the contacts without a value; text compares without case, list choices exactly.
 */
import { inArray, sql, type SQL } from 'drizzle-orm';
import { checkAttributeValue, CONTACT_MESSAGES, type AttributeValue, type ContactAttribute } from '../../../contract/contacts';
import type { FieldErrors } from '../../../contract/errors';
import {
  ATTRIBUTE_FILTER_PREFIX,
  LIST_VALUE_OPERATORS,
  SEGMENT_MESSAGES,
  SEGMENT_OPERATORS,
  VALUELESS_OPERATORS,
  type AttributeCondition,
  type SegmentConditions,
  type SegmentOperator,
} from '../../../contract/segments';
import { validationError } from '../../core/errors';
import { containsPattern } from '../../core/paging';
import { contacts, contactTags } from './schema';

/** An attribute condition once checked: its definition's type, and its value(s) as stored. */
export interface CheckedAttributeCondition {
  key: string;
  type: ContactAttribute['type'];
  op: SegmentOperator;
  value: AttributeValue | string[] | null;
}
export type CheckedConditions = Omit<SegmentConditions, 'attributes'> & { attributes: CheckedAttributeCondition[] };

/** One attribute condition against its definition: the checked condition, or the message under `path`. */
function checkAttribute(condition: AttributeCondition, definitions: Map<string, ContactAttribute>, path: string, errors: FieldErrors): CheckedAttributeCondition | null {
  const definition = definitions.get(condition.key);
  if (!definition) {
    errors[`${path}.key`] = [CONTACT_MESSAGES.unknownAttribute(condition.key)];
    return null;
  }
  const allowed: readonly string[] = SEGMENT_OPERATORS[definition.type];
  if (!allowed.includes(condition.op)) {
    errors[`${path}.op`] = [SEGMENT_MESSAGES.operatorForType(definition.type, allowed)];
    return null;
  }
  const base = { key: definition.key, type: definition.type, op: condition.op };
  if (VALUELESS_OPERATORS.includes(condition.op)) return { ...base, value: null };
  const raw = condition.value;
  if (LIST_VALUE_OPERATORS.includes(condition.op)) {
    const list = Array.isArray(raw) ? raw : typeof raw === 'string' && raw.trim() ? [raw] : [];
    if (!list.length) {
      errors[`${path}.value`] = [SEGMENT_MESSAGES.needsValues];
      return null;
    }
    for (const item of list) {
      const checked = checkAttributeValue(definition, item);
      if (!checked.ok) {
        errors[`${path}.value`] = [checked.message];
        return null;
      }
    }
    return { ...base, value: [...new Set(list.map((v) => v.trim()))] };
  }
  if (raw === undefined || raw === null || Array.isArray(raw) || (typeof raw === 'string' && !raw.trim())) {
    errors[`${path}.value`] = [SEGMENT_MESSAGES.needsValue];
    return null;
  }
  // Contains looks for part of a text: any text will do.
  if (condition.op === 'contains' || condition.op === 'not_contains') return { ...base, value: String(raw).trim() };
  const checked = checkAttributeValue(definition, raw);
  if (!checked.ok) {
    errors[`${path}.value`] = [checked.message];
    return null;
  }
  return { ...base, value: checked.value };
}

/** The conditions read against the company's definitions; 400 with every problem on its field. */
export function checkConditions(conditions: SegmentConditions, definitions: ContactAttribute[], prefix = 'conditions'): CheckedConditions {
  const byKey = new Map(definitions.map((d) => [d.key, d]));
  const errors: FieldErrors = {};
  const attributes = conditions.attributes.map((c, i) => checkAttribute(c, byKey, `${prefix}.attributes.${i}`, errors));
  if (Object.keys(errors).length) throw validationError(errors);
  return { ...conditions, attributes: attributes as CheckedAttributeCondition[] };
}

/**
 * `attr.<key>=value` of a contacts list's query string (raw, as the URL has it): each an `eq` condition,
 * checked like a segment's (400 under `attr.<key>`).
 */
export function attributeFilters(url: string, definitions: ContactAttribute[]): CheckedAttributeCondition[] {
  const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
  const byKey = new Map(definitions.map((d) => [d.key, d]));
  const errors: FieldErrors = {};
  const out: CheckedAttributeCondition[] = [];
  let n = 0;
  for (const [name, value] of query) {
    if (!name.startsWith(ATTRIBUTE_FILTER_PREFIX)) continue;
    if (++n > 20) break;
    const key = name.slice(ATTRIBUTE_FILTER_PREFIX.length);
    const scratch: FieldErrors = {};
    const checked = checkAttribute({ key, op: 'eq', value: value.slice(0, 1000) }, byKey, 'x', scratch);
    if (checked) out.push(checked);
    else errors[name] = Object.values(scratch)[0];
  }
  if (Object.keys(errors).length) throw validationError(errors);
  return out;
}

/** The value under the key, as jsonb and as text. */
const jsonOf = (key: string) => sql`(${contacts.attributes} -> ${key}::text)`;
const textOf = (key: string) => sql`(${contacts.attributes} ->> ${key}::text)`;
const valueList = (values: string[]) => sql.join(values.map((v) => sql`${v}`), sql`, `);

/** One checked attribute condition on `contacts`. */
export function attributeWhere(c: CheckedAttributeCondition): SQL {
  const json = jsonOf(c.key);
  const text = textOf(c.key);
  if (c.op === 'set') return sql`${json} is not null`;
  if (c.op === 'not_set') return sql`${json} is null`;
  switch (c.type) {
    case 'text': {
      const v = String(c.value);
      if (c.op === 'eq') return sql`lower(${text}) = lower(${v})`;
      if (c.op === 'neq') return sql`lower(${text}) is distinct from lower(${v})`;
      if (c.op === 'contains') return sql`${text} ilike ${containsPattern(v)}`;
      if (c.op === 'not_contains') return sql`coalesce(${text}, '') not ilike ${containsPattern(v)}`;
      break;
    }
    case 'number': {
      const number = sql`(case when jsonb_typeof(${json}) = 'number' then (${text})::numeric end)`;
      const v = sql`${String(c.value)}::numeric`;
      if (c.op === 'eq') return sql`${number} = ${v}`;
      if (c.op === 'neq') return sql`${number} is distinct from ${v}`;
      if (c.op === 'gt') return sql`${number} > ${v}`;
      if (c.op === 'gte') return sql`${number} >= ${v}`;
      if (c.op === 'lt') return sql`${number} < ${v}`;
      if (c.op === 'lte') return sql`${number} <= ${v}`;
      break;
    }
    case 'date': {
      // YYYY-MM-DD texts order as the days they name.
      const day = sql`(case when jsonb_typeof(${json}) = 'string' then ${text} end)`;
      const v = String(c.value);
      if (c.op === 'eq') return sql`${day} = ${v}::text`;
      if (c.op === 'before') return sql`${day} < ${v}::text`;
      if (c.op === 'after') return sql`${day} > ${v}::text`;
      break;
    }
    case 'boolean':
      if (c.op === 'eq') return sql`${json} = ${JSON.stringify(c.value === true)}::jsonb`;
      break;
    case 'list': {
      if (c.op === 'eq') return sql`${text} = ${String(c.value)}::text`;
      if (c.op === 'neq') return sql`${text} is distinct from ${String(c.value)}::text`;
      const values = c.value as string[];
      if (c.op === 'in') return sql`${text} in (${valueList(values)})`;
      if (c.op === 'not_in') return sql`coalesce(${text} not in (${valueList(values)}), true)`;
      break;
    }
  }
  // checkConditions lets no other pair through.
  throw new Error(`No SQL for ${c.type} ${c.op}`);
}

/** The company's opt-out list (the broadcasts plugin's `opt_outs`, as a contact's opted_out reads it: its phone or its id on its channel). */
const optedOut = sql`exists (select 1 from opt_outs o where o.company_id = ${contacts.companyId} and o.phone in (${contacts.phone}, ${contacts.externalId}))`;

/** Checked conditions as SQL on `contacts` (the company scope is the caller's). `now` is the app's clock. */
export function segmentWhere(c: CheckedConditions, now: Date): SQL[] {
  const where: SQL[] = [];
  if (c.tags.length) where.push(sql`exists (select 1 from ${contactTags} where ${contactTags.contactId} = ${contacts.id} and ${inArray(contactTags.tagId, c.tags)})`);
  if (c.channels.length) where.push(inArray(contacts.pageId, c.channels));
  for (const a of c.attributes) where.push(attributeWhere(a));
  if (c.last_message_within_days !== null) {
    const since = new Date(now.getTime() - c.last_message_within_days * 86_400_000);
    where.push(sql`${contacts.lastMessageAt} >= ${since.toISOString()}::timestamptz`);
  }
  if (c.opted_in_only) where.push(sql`not ${optedOut}`);
  return where;
}
