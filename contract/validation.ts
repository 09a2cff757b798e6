/**
 * Generic validation rules of spec §5, shared by the console's forms and the server's request schemas.
 * A rule returns `true` when the value passes and an i18n message key otherwise.
 */
import { z } from 'zod';

export type RuleResult = true | string;
export type Rule = (value: unknown) => RuleResult;

/** Address pattern used everywhere an e-mail is checked. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Agent tags look like e-mail addresses: local part, @, domain, dot, letters (at least 2). */
export const AGENT_TAG_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;
/** The longest address (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254;

/**
 * An e-mail address by EMAIL_PATTERN, length first: the pattern backtracks quadratically on long
 * inputs with many dots (40 kB take seconds), so it never sees more than EMAIL_MAX_LENGTH characters.
 */
export function isEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value);
}

export const PASSWORD_MIN_LENGTH = 8;
export const FLOW_LIMITS = {
  flow_name: 128,
  description: 128,
  company_domain: 128,
  intro_msg: 512,
  find_out_more_msg: 512,
  call_to_action: 20,
} as const;

/** Required fails on empty, false, an empty array or whitespace-only text. */
export function isBlank(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

export const rules = {
  required: (): Rule => (v) => (isBlank(v) ? 'validation.required' : true),
  /** Empty passes: combine with `required` when the field is mandatory. */
  email: (): Rule => (v) => (v === '' || v == null || isEmail(String(v)) ? true : 'validation.email'),
  /** Empty passes. */
  minLength: (min: number): Rule => (v) =>
    v === '' || v == null || String(v).length >= min ? true : `validation.minLength|${min}`,
  maxLength: (max: number): Rule => (v) =>
    v == null || String(v).length <= max ? true : `validation.maxLength|${max}`,
};

/** Runs rules in order and stops at the first failing one. */
export function runRules(value: unknown, list: Rule[]): RuleResult {
  for (const rule of list) {
    const result = rule(value);
    if (result !== true) return result;
  }
  return true;
}

export function isAgentTag(name: string): boolean {
  return name.length <= EMAIL_MAX_LENGTH && AGENT_TAG_PATTERN.test(name);
}

// ---------- Request schemas (server validates with these; the console's types come from them) ----------

/** Request e-mails: the length guard runs inside the same check as the pattern (see isEmail). */
export const emailField = () => z.string().trim().toLowerCase().refine(isEmail, 'Enter a valid email address.');
const email = emailField();
const password = z.string().min(PASSWORD_MIN_LENGTH, `This password is too short. It must contain at least ${PASSWORD_MIN_LENGTH} characters.`).max(256);
const requiredText = (max = 150) => z.string().trim().min(1, 'This field may not be blank.').max(max, `Ensure this field has no more than ${max} characters.`);

/** Longest token (refresh, reset, verification, invite) a request may carry: ours are far shorter. */
const MAX_TOKEN = 4096;

export const LoginBody = z.object({ email, password: z.string().min(1, 'This field may not be blank.').max(1024) });
export const RegistrationBody = z.object({
  first_name: requiredText(),
  last_name: z.string().trim().max(150).default(''),
  email,
  password1: password,
  password2: z.string().max(256),
});
export const RefreshBody = z.object({ refresh: z.string().min(1, 'This field may not be blank.').max(MAX_TOKEN) });
export const LogoutBody = z.object({ refresh: z.string().max(MAX_TOKEN).optional() });
export const ResetPasswordBody = z.object({ email });
export const ResetPasswordConfirmBody = z.object({ token: z.string().min(1, 'This field may not be blank.').max(MAX_TOKEN), password });
export const PasswordChangeBody = z.object({
  old_password: z.string().min(1, 'This field may not be blank.').max(1024),
  new_password1: password,
  new_password2: z.string().max(256),
});
export const OnboardingSubmitBody = z.object({ email, needs_whatsapp_number: z.boolean().default(true) });
export const EmailQuery = z.object({ email });
export const TokenQuery = z.object({ token: z.string().min(1).max(MAX_TOKEN) });
export const CompanyCreateBody = z.object({ name: requiredText(100), logo: z.string().max(200_000).nullable().optional() });
export const CompanyUpdateBody = z.object({ name: requiredText(100).optional(), logo: z.string().max(200_000).nullable().optional() });

export type LoginBody = z.infer<typeof LoginBody>;
export type RegistrationBody = z.input<typeof RegistrationBody>;
export type PasswordChangeBody = z.infer<typeof PasswordChangeBody>;
export type CompanyCreateBody = z.infer<typeof CompanyCreateBody>;
export type CompanyUpdateBody = z.infer<typeof CompanyUpdateBody>;

/**
 * Password change as the server reads it: every rule on the new password (length included)
 * is reported on `new_password2`, as Django does, so the schema only requires the fields.
 */
export const PasswordChangeRequest = z.object({
  old_password: z.string().min(1, 'This field may not be blank.').max(1024),
  new_password1: z.string().min(1, 'This field may not be blank.').max(256),
  new_password2: z.string().max(256),
});
/** Query of GET /dev/outbox.json: optional recipient filter. */
export const OutboxQuery = z.object({ to: z.string().trim().toLowerCase().max(320).optional() });
export type PasswordChangeRequest = z.infer<typeof PasswordChangeRequest>;
