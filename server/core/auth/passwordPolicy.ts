/**
 * The server-side password rules (Django's validators and messages, which the console shows
 * verbatim). The minimum length is also in the request schemas; it is repeated here because
 * password change reports every rule on `new_password2`.
 */
import { PASSWORD_MIN_LENGTH } from '../../../contract/validation';
import { isCommonPassword } from './commonPasswords';

export const PASSWORD_MESSAGES = {
  tooShort: `This password is too short. It must contain at least ${PASSWORD_MIN_LENGTH} characters.`,
  tooCommon: 'This password is too common.',
  entirelyNumeric: 'This password is entirely numeric.',
  mismatch: "The two password fields didn't match.",
} as const;

/** All messages for a password that breaks the rules; empty when it is acceptable. */
export function passwordProblems(password: string): string[] {
  const problems: string[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) problems.push(PASSWORD_MESSAGES.tooShort);
  if (isCommonPassword(password)) problems.push(PASSWORD_MESSAGES.tooCommon);
  if (/^\d+$/.test(password)) problems.push(PASSWORD_MESSAGES.entirelyNumeric);
  return problems;
}
