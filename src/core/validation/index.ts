/**
 * react-admin validators built on the shared rules of contract/validation.ts (spec §5).
 * Rules answer an i18n key, optionally with an argument after `|` ('validation.minLength|8');
 * validators return react-admin's `{ message, args }` so the form translates it.
 */
import type { Validator } from 'react-admin';
import { rules, runRules, type Rule, type RuleResult } from '../../../contract/validation';

/** Name of the interpolation argument per message key. */
const ARG_NAMES: Record<string, string> = { 'validation.minLength': 'min', 'validation.maxLength': 'max' };

/** Turns a rule result into react-admin's `{ message, args }` (undefined when valid). */
export function ruleMessage(result: RuleResult): { message: string; args: Record<string, unknown> } | undefined {
  if (result === true) return undefined;
  const [message, arg] = result.split('|');
  return { message, args: arg === undefined ? {} : { [ARG_NAMES[message] ?? 'value']: Number.isNaN(Number(arg)) ? arg : Number(arg) } };
}

/** Translates a rule result with any `t(key, args)` (react-i18next or react-admin). */
export function translateRule(t: (key: string, args?: Record<string, unknown>) => string, result: RuleResult): string | undefined {
  const msg = ruleMessage(result);
  return msg && t(msg.message, msg.args);
}

function toValidator(rule: Rule): Validator {
  return (value: unknown) => ruleMessage(runRules(value, [rule]));
}

export function required(): Validator {
  const validator = toValidator(rules.required());
  // react-admin shows the asterisk for validators flagged isRequired
  return Object.assign(validator, { isRequired: true });
}
export const email = (): Validator => toValidator(rules.email());
export const minLength = (min: number): Validator => toValidator(rules.minLength(min));
export const maxLength = (max: number): Validator => toValidator(rules.maxLength(max));

/**
 * Form props so validation runs on blur and on change (react-hook-form mode 'all'); react-admin
 * stops at the first failing validator of a field's array. Spec §9: validation debounce 5 ms.
 */
export const validateOnChangeAndBlur = { mode: 'all', reValidateMode: 'onChange', delayError: 5 } as const;
