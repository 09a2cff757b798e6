/**
 * §5's rules as the user types: the contract's zod schemas (contract/flows.ts), one field at a time,
 * the first failing message, translated.
 */
import type { TFunction } from 'i18next';
import type { ZodTypeAny } from 'zod';

/** The first message of `schema` for `value`, or null when it passes. */
export function fieldProblem(schema: ZodTypeAny, value: unknown): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? null);
}

/** The contract's English rule message in the user's language. */
export function translateRule(t: TFunction, message: string | null | undefined): string | null {
  if (!message) return null;
  if (message === 'This field may not be blank.') return t('flows.rules.blank');
  if (message === 'Enter a valid URL.') return t('flows.rules.url');
  if (message === 'This step does not exist in this flow.') return t('flows.rules.unknownStep');
  if (message === 'Two steps have the same step_id.') return t('flows.rules.duplicateStep');
  if (message === 'Use letters, digits, "_" and "-".') return t('flows.rules.stepId');
  const chars = /^Ensure this field has no more than (\d+) characters\.$/.exec(message);
  if (chars) return t('flows.rules.maxChars', { max: Number(chars[1]) });
  const items = /^Ensure this field has no more than (\d+) elements\.$/.exec(message);
  if (items) return t('flows.rules.maxItems', { max: Number(items[1]) });
  return message;
}
