/**
 * WhatsApp message templates (issue #10; spec §7 /api/channels/{id}/templates/, create_template,
 * submit_carousel_template, §8 strings) in Meta's published `message_templates` format, validated
 * the way Meta validates them, so nothing our rules could catch ever reaches Meta.
 *
 * Pure zod, shared by the server (request bodies) and the console's editor (inline errors): every
 * issue carries the path of the field it is about (`components.1.text`,
 * `components.2.buttons.0.url`, `components.0.cards.1.components.0.format`).
 *
 * Meta's rules followed here (WhatsApp Cloud API, "Message templates" → components, buttons,
 * authentication templates, media card carousel templates):
 * - name: lowercase letters, digits and underscores, at most 512 characters;
 * - header TEXT ≤ 60 characters and at most one variable; body ≤ 1024; footer ≤ 60, no variables;
 * - variables are `{{1}}`, `{{2}}`… numbered from 1 without gaps, each with an example value; a body
 *   may not start or end with a variable;
 * - buttons: at most 10 in all, 10 quick replies, 2 URL, 1 phone number, 1 copy code; quick replies
 *   grouped together (not between other buttons); button text ≤ 25, URL ≤ 2000 with at most one
 *   variable at its end (and an example), phone ≤ 20; copy code only in MARKETING, OTP only in
 *   AUTHENTICATION;
 * - authentication: Meta's preset body (no custom text), optional security recommendation, code
 *   expiry 1–90 minutes in the footer, exactly one OTP button (copy code, one tap or zero tap);
 * - carousel: MARKETING only, a body, then 2–10 cards, each with an IMAGE or VIDEO header, the same
 *   header format and the same button kinds in the same order on every card, 1–2 buttons per card.
 */
import { z } from 'zod';
import { MAX_PAGE_SIZE, pageQuery } from './team';

export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

/** Every review status Meta documents (message_template_status_update `event`). */
export const TEMPLATE_STATUSES = [
  'PENDING',
  'APPROVED',
  'REJECTED',
  'IN_APPEAL',
  'PAUSED',
  'DISABLED',
  'LIMIT_EXCEEDED',
  'PENDING_DELETION',
  'DELETED',
  'FLAGGED',
  'REINSTATED',
  'ARCHIVED',
] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

export const TEMPLATE_QUALITY_SCORES = ['GREEN', 'YELLOW', 'RED', 'UNKNOWN'] as const;
export type TemplateQualityScore = (typeof TEMPLATE_QUALITY_SCORES)[number];

export const HEADER_FORMATS = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'] as const;
export const BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE', 'OTP'] as const;
export type ButtonType = (typeof BUTTON_TYPES)[number];

export const TEMPLATE_LIMITS = {
  name: 512,
  headerText: 60,
  body: 1024,
  footer: 60,
  buttonText: 25,
  url: 2000,
  phone: 20,
  copyCodeExample: 15,
  buttons: 10,
  quickReplies: 10,
  urlButtons: 2,
  phoneButtons: 1,
  copyCodeButtons: 1,
  carouselCardsMin: 2,
  carouselCardsMax: 10,
  carouselCardButtons: 2,
  codeExpiryMin: 1,
  codeExpiryMax: 90,
  /** Meta: template creations per WhatsApp Business Account per hour. */
  creationsPerHour: 100,
  /** Meta: templates per WhatsApp Business Account that is not verified. */
  templatesPerUnverifiedAccount: 250,
} as const;

/** Spec §8, verbatim. */
export const TEMPLATE_MESSAGES = {
  created: 'Template successfully created.',
  deleted: 'Successfully deleted template.',
  updated: 'Successfully updated template.',
  deleteError: 'Error while deleting template.',
  updateError: 'Error while updating template.',
  duplicate: 'A template with this name and language already exists in this WhatsApp account.',
  notSupported: 'Message templates are not supported for this channel. Only WhatsApp numbers have templates.',
  hourlyLimit: `Meta allows ${TEMPLATE_LIMITS.creationsPerHour} template creations per WhatsApp account per hour. Try again later.`,
  accountLimit: `This WhatsApp account has reached Meta's limit of ${TEMPLATE_LIMITS.templatesPerUnverifiedAccount} templates for an unverified business. Delete a template or verify the business.`,
} as const;

/** Meta's preset authentication body (English); the text itself is Meta's, never ours. */
export const AUTHENTICATION_PRESET_BODY = '*{{1}}* is your verification code.';

const NAME_PATTERN = /^[a-z0-9_]+$/;
const VARIABLE = /\{\{\s*(\d+)\s*\}\}/g;
/** Meta's language codes: `en`, `en_US`, `zh_CN`, `ha`, `fil`, `es_MX`… */
const LANGUAGE_PATTERN = /^[a-z]{2,3}(_[A-Z]{2}|_[A-Za-z]{4})?$/;

const max = (limit: number) => `Ensure this field has no more than ${limit} characters.`;
const blank = 'This field may not be blank.';

/** The variable numbers used in a text, in order of appearance (`{{2}} {{1}} {{2}}` → [2, 1, 2]). */
export function variablesIn(text: string): number[] {
  return [...text.matchAll(VARIABLE)].map((m) => Number(m[1]));
}

/** The number of distinct variables when they are exactly {{1}}…{{n}}; a message otherwise. */
function checkNumbering(text: string): { count: number } | { error: string } {
  const distinct = [...new Set(variablesIn(text))].sort((a, b) => a - b);
  for (let i = 0; i < distinct.length; i += 1) {
    if (distinct[i] !== i + 1) {
      return { error: `Variables must be numbered from {{1}} without gaps: {{${i + 1}}} is missing.` };
    }
  }
  return { count: distinct.length };
}

const text = (limit: number) => z.string().trim().min(1, blank).max(limit, max(limit));

// ---------- components (Meta's shapes) ----------

export const HeaderComponent = z.object({
  type: z.literal('HEADER'),
  format: z.enum(HEADER_FORMATS, { message: `Header format must be one of ${HEADER_FORMATS.join(', ')}.` }),
  text: z.string().max(TEMPLATE_LIMITS.headerText, max(TEMPLATE_LIMITS.headerText)).optional(),
  example: z
    .object({
      header_text: z.array(z.string().trim().min(1, blank)).optional(),
      /** Handles from Meta's resumable upload (`4::aW1h…`), or a sample URL with the fake. */
      header_handle: z.array(z.string().trim().min(1, blank)).optional(),
    })
    .optional(),
});

export const BodyComponent = z.object({
  type: z.literal('BODY'),
  text: z.string().max(TEMPLATE_LIMITS.body, max(TEMPLATE_LIMITS.body)).optional(),
  example: z.object({ body_text: z.array(z.array(z.string().trim().min(1, blank))).optional() }).optional(),
  /** Authentication only: adds Meta's "For your security, do not share this code." */
  add_security_recommendation: z.boolean().optional(),
});

export const FooterComponent = z.object({
  type: z.literal('FOOTER'),
  text: z.string().max(TEMPLATE_LIMITS.footer, max(TEMPLATE_LIMITS.footer)).optional(),
  /** Authentication only: "This code expires in N minutes." */
  code_expiration_minutes: z.number().int('Must be a whole number of minutes.').optional(),
});

const buttonText = text(TEMPLATE_LIMITS.buttonText);

export const QuickReplyButton = z.object({ type: z.literal('QUICK_REPLY'), text: buttonText });
export const UrlButton = z.object({
  type: z.literal('URL'),
  text: buttonText,
  url: z.string().trim().min(1, blank).max(TEMPLATE_LIMITS.url, max(TEMPLATE_LIMITS.url)),
  example: z.array(z.string().trim().min(1, blank)).optional(),
});
export const PhoneNumberButton = z.object({
  type: z.literal('PHONE_NUMBER'),
  text: buttonText,
  phone_number: z
    .string()
    .trim()
    .min(1, blank)
    .max(TEMPLATE_LIMITS.phone, max(TEMPLATE_LIMITS.phone))
    .regex(/^\+?[0-9 ()-]+$/, 'Enter a phone number with its country code, e.g. +15550001234.'),
});
export const CopyCodeButton = z.object({
  type: z.literal('COPY_CODE'),
  /** The sample offer code Meta shows reviewers. */
  example: z.string().trim().min(1, blank).max(TEMPLATE_LIMITS.copyCodeExample, max(TEMPLATE_LIMITS.copyCodeExample)),
});
/** A signature hash as the app's hash, whether written plainly (`K8a/AINcGX7`) or URL-encoded (`K8a%2FAINcGX7`). */
export function decodedSignatureHash(hash: string): string {
  try {
    return decodeURIComponent(hash);
  } catch {
    return hash; // a lone `%`: not encoded, checked as written
  }
}

export const OtpButton = z.object({
  type: z.literal('OTP'),
  otp_type: z.enum(['COPY_CODE', 'ONE_TAP', 'ZERO_TAP'], { message: 'OTP type must be COPY_CODE, ONE_TAP or ZERO_TAP.' }),
  text: z.string().max(TEMPLATE_LIMITS.buttonText, max(TEMPLATE_LIMITS.buttonText)).optional(),
  autofill_text: z.string().max(TEMPLATE_LIMITS.buttonText, max(TEMPLATE_LIMITS.buttonText)).optional(),
  package_name: z.string().max(224, max(224)).optional(),
  /**
   * The Android app's 11-character signature hash. Meta's own example gives it URL-encoded (`K8a%2FAINcGX7`,
   * 13 characters, for `K8a/AINcGX7`): it is checked decoded and sent as written, which Meta takes either way.
   */
  signature_hash: z
    .string()
    .trim()
    .refine((hash) => decodedSignatureHash(hash).length === 11, 'The signature hash has 11 characters.')
    .optional(),
});

export const TemplateButton = z.discriminatedUnion('type', [QuickReplyButton, UrlButton, PhoneNumberButton, CopyCodeButton, OtpButton], {
  message: `Button type must be one of ${BUTTON_TYPES.join(', ')}.`,
});
export type TemplateButton = z.infer<typeof TemplateButton>;

export const ButtonsComponent = z.object({
  type: z.literal('BUTTONS'),
  buttons: z.array(TemplateButton).min(1, 'Add at least one button or remove the buttons.'),
});

/** A carousel card: its own header (image or video), body and buttons. */
export const CarouselCard = z.object({
  components: z.array(z.discriminatedUnion('type', [HeaderComponent, BodyComponent, ButtonsComponent], { message: 'A card has HEADER, BODY and BUTTONS components only.' })),
});
export type CarouselCard = z.infer<typeof CarouselCard>;

export const CarouselComponent = z.object({
  type: z.literal('CAROUSEL'),
  cards: z.array(CarouselCard),
});

export const TemplateComponent = z.discriminatedUnion('type', [HeaderComponent, BodyComponent, FooterComponent, ButtonsComponent, CarouselComponent], {
  message: 'Component type must be HEADER, BODY, FOOTER, BUTTONS or CAROUSEL.',
});
export type TemplateComponent = z.infer<typeof TemplateComponent>;
type Header = z.infer<typeof HeaderComponent>;
type Body = z.infer<typeof BodyComponent>;
type Buttons = z.infer<typeof ButtonsComponent>;

// ---------- cross-field rules ----------

type Path = (string | number)[];
type Report = (message: string, path: Path) => void;

function checkHeader(header: Header, at: Path, report: Report, media: 'any' | 'carousel'): void {
  if (media === 'carousel' && header.format !== 'IMAGE' && header.format !== 'VIDEO') {
    report('Each carousel card needs an IMAGE or VIDEO header.', [...at, 'format']);
    return;
  }
  if (header.format === 'TEXT') {
    const value = header.text ?? '';
    if (!value.trim()) return report('A text header needs its text.', [...at, 'text']);
    const numbering = checkNumbering(value);
    if ('error' in numbering) return report(numbering.error, [...at, 'text']);
    if (numbering.count > 1) return report('A header may contain at most one variable.', [...at, 'text']);
    if (numbering.count === 1 && !header.example?.header_text?.[0]) {
      report('Give an example value for {{1}}.', [...at, 'example', 'header_text']);
    }
    return;
  }
  if (header.text) report(`A ${header.format} header has no text.`, [...at, 'text']);
  if (header.format !== 'LOCATION' && !header.example?.header_handle?.[0]) {
    report(`Upload a sample ${header.format.toLowerCase()} for the header.`, [...at, 'example', 'header_handle']);
  }
}

function checkBody(body: Body, at: Path, report: Report): void {
  const value = body.text ?? '';
  if (!value.trim()) return report('The body needs its text.', [...at, 'text']);
  if (body.add_security_recommendation !== undefined) {
    report('Only authentication templates add the security recommendation.', [...at, 'add_security_recommendation']);
  }
  const numbering = checkNumbering(value);
  if ('error' in numbering) return report(numbering.error, [...at, 'text']);
  const trimmed = value.trim();
  if (/^\{\{\s*\d+\s*\}\}/.test(trimmed) || /\{\{\s*\d+\s*\}\}$/.test(trimmed)) {
    return report('The body may not start or end with a variable.', [...at, 'text']);
  }
  if (numbering.count === 0) return;
  const examples = body.example?.body_text?.[0] ?? [];
  if (examples.length !== numbering.count) {
    report(`Give one example value per variable: ${numbering.count} expected, ${examples.length} given.`, [...at, 'example', 'body_text']);
  }
}

function checkButtons(component: Buttons, at: Path, category: TemplateCategory, report: Report): void {
  const buttons = component.buttons;
  const path = [...at, 'buttons'];
  if (buttons.length > TEMPLATE_LIMITS.buttons) return report(`A template has at most ${TEMPLATE_LIMITS.buttons} buttons.`, path);
  const count = (type: ButtonType) => buttons.filter((b) => b.type === type).length;
  const limits: [ButtonType, number, string][] = [
    ['QUICK_REPLY', TEMPLATE_LIMITS.quickReplies, 'quick reply buttons'],
    ['URL', TEMPLATE_LIMITS.urlButtons, 'URL buttons'],
    ['PHONE_NUMBER', TEMPLATE_LIMITS.phoneButtons, 'phone number button'],
    ['COPY_CODE', TEMPLATE_LIMITS.copyCodeButtons, 'copy code button'],
  ];
  for (const [type, limit, label] of limits) {
    if (count(type) > limit) return report(`A template has at most ${limit} ${label}.`, path);
  }
  // Quick replies form one group, before or after the other buttons, never between them.
  const kinds = buttons.map((b) => (b.type === 'QUICK_REPLY' ? 'q' : 'o')).join('').replace(/(.)\1+/g, '$1');
  if (kinds.length > 2) return report('Group the quick reply buttons together, before or after the other buttons.', path);
  buttons.forEach((button, index) => {
    const here = [...path, index];
    if (button.type === 'OTP' && category !== 'AUTHENTICATION') report('OTP buttons are for authentication templates only.', [...here, 'type']);
    if (button.type === 'COPY_CODE' && category !== 'MARKETING') report('Copy code buttons are for marketing templates only.', [...here, 'type']);
    if (button.type === 'URL') {
      const vars = variablesIn(button.url);
      if (!/^https?:\/\//i.test(button.url)) report('The URL must start with https:// or http://.', [...here, 'url']);
      else if (vars.length > 1) report('A URL may contain at most one variable.', [...here, 'url']);
      else if (vars.length === 1 && (vars[0] !== 1 || !/\{\{\s*1\s*\}\}$/.test(button.url))) {
        report('The URL variable must be {{1}}, at the end of the URL.', [...here, 'url']);
      } else if (vars.length === 1 && !button.example?.[0]) report('Give an example URL for {{1}}.', [...here, 'example']);
    }
  });
}

function checkAuthentication(components: TemplateComponent[], report: Report): void {
  components.forEach((component, index) => {
    const at = ['components', index];
    if (component.type === 'HEADER' || component.type === 'CAROUSEL') report('Authentication templates have no header or carousel.', [...at, 'type']);
    if (component.type === 'BODY' && component.text !== undefined && component.text !== AUTHENTICATION_PRESET_BODY) {
      report("Authentication templates use Meta's preset body; leave the text out.", [...at, 'text']);
    }
    if (component.type === 'FOOTER') {
      if (component.text) report('Authentication templates have no footer text; set code_expiration_minutes instead.', [...at, 'text']);
      const minutes = component.code_expiration_minutes;
      if (minutes !== undefined && (minutes < TEMPLATE_LIMITS.codeExpiryMin || minutes > TEMPLATE_LIMITS.codeExpiryMax)) {
        report(`The code expiry is between ${TEMPLATE_LIMITS.codeExpiryMin} and ${TEMPLATE_LIMITS.codeExpiryMax} minutes.`, [...at, 'code_expiration_minutes']);
      }
    }
    if (component.type === 'BUTTONS') {
      if (component.buttons.length !== 1 || component.buttons[0].type !== 'OTP') {
        report('Authentication templates have exactly one OTP button (copy code, one tap or zero tap).', [...at, 'buttons']);
      } else if (component.buttons[0].otp_type !== 'COPY_CODE' && !component.buttons[0].package_name) {
        report('One-tap and zero-tap buttons need the Android package name.', [...at, 'buttons', 0, 'package_name']);
      }
    }
  });
  const buttons = components.find((c) => c.type === 'BUTTONS');
  if (!buttons) report('Authentication templates have exactly one OTP button (copy code, one tap or zero tap).', ['components']);
}

/** The button kinds of a card in order, e.g. "QUICK_REPLY,URL" (every card must match the first). */
function cardLayout(card: CarouselCard): string {
  const header = card.components.find((c): c is Header => c.type === 'HEADER');
  const buttons = card.components.find((c): c is Buttons => c.type === 'BUTTONS');
  const body = card.components.some((c) => c.type === 'BODY');
  return `${header?.format ?? '-'}|${body ? 'BODY' : '-'}|${(buttons?.buttons ?? []).map((b) => b.type).join(',')}`;
}

function checkCarousel(components: TemplateComponent[], report: Report): void {
  const index = components.findIndex((c) => c.type === 'CAROUSEL');
  const carousel = components[index] as z.infer<typeof CarouselComponent>;
  const at: Path = ['components', index, 'cards'];
  components.forEach((component, i) => {
    if (component.type !== 'BODY' && component.type !== 'CAROUSEL') report('A carousel template has a body and cards only.', ['components', i, 'type']);
  });
  const { cards } = carousel;
  if (cards.length < TEMPLATE_LIMITS.carouselCardsMin || cards.length > TEMPLATE_LIMITS.carouselCardsMax) {
    return report(`A carousel has ${TEMPLATE_LIMITS.carouselCardsMin} to ${TEMPLATE_LIMITS.carouselCardsMax} cards.`, at);
  }
  cards.forEach((card, cardIndex) => {
    const cardPath = [...at, cardIndex, 'components'];
    const header = card.components.findIndex((c) => c.type === 'HEADER');
    if (header < 0) report('Each carousel card needs an IMAGE or VIDEO header.', cardPath);
    card.components.forEach((component, i) => {
      const here = [...cardPath, i];
      if (component.type === 'HEADER') checkHeader(component, here, report, 'carousel');
      if (component.type === 'BODY') checkBody(component, here, report);
      if (component.type === 'BUTTONS') {
        if (component.buttons.length > TEMPLATE_LIMITS.carouselCardButtons) {
          report(`A carousel card has at most ${TEMPLATE_LIMITS.carouselCardButtons} buttons.`, [...here, 'buttons']);
        } else checkButtons(component, here, 'MARKETING', report);
      }
    });
    if (!card.components.some((c) => c.type === 'BUTTONS')) report('Each carousel card needs at least one button.', cardPath);
    if (cardIndex > 0 && cardLayout(card) !== cardLayout(cards[0])) {
      report('Every card has the same header format, components and buttons as the first card.', cardPath);
    }
  });
}

/** Shared by create and carousel submissions: Meta's whole-template rules. */
function checkTemplate(template: { category: TemplateCategory; components: TemplateComponent[] }, ctx: z.RefinementCtx): void {
  const report: Report = (message, path) => ctx.addIssue({ code: 'custom', message, path });
  const { components, category } = template;
  const countOf = (type: TemplateComponent['type']) => components.filter((c) => c.type === type).length;
  for (const type of ['HEADER', 'BODY', 'FOOTER', 'BUTTONS', 'CAROUSEL'] as const) {
    if (countOf(type) > 1) {
      report(`A template has at most one ${type} component.`, ['components', components.findLastIndex((c) => c.type === type), 'type']);
      return;
    }
  }
  if (countOf('BODY') === 0) return report('A template needs a BODY component.', ['components']);
  if (category === 'AUTHENTICATION') return checkAuthentication(components, report);
  if (countOf('CAROUSEL') > 0) {
    if (category !== 'MARKETING') return report('Carousel templates are marketing templates.', ['category']);
    components.forEach((c, i) => c.type === 'BODY' && checkBody(c, ['components', i], report));
    return checkCarousel(components, report);
  }
  components.forEach((component, index) => {
    const at = ['components', index];
    if (component.type === 'HEADER') checkHeader(component, at, report, 'any');
    if (component.type === 'BODY') checkBody(component, at, report);
    if (component.type === 'FOOTER') {
      if (!component.text?.trim()) report('The footer needs its text.', [...at, 'text']);
      else if (variablesIn(component.text).length > 0) report('The footer may not contain variables.', [...at, 'text']);
      if (component.code_expiration_minutes !== undefined) report('Only authentication templates have a code expiry.', [...at, 'code_expiration_minutes']);
    }
    if (component.type === 'BUTTONS') checkButtons(component, at, category, report);
  });
}

const templateFields = {
  name: z
    .string()
    .trim()
    .min(1, blank)
    .max(TEMPLATE_LIMITS.name, max(TEMPLATE_LIMITS.name))
    .regex(NAME_PATTERN, 'Use lowercase letters, digits and underscores only.'),
  language: z.string().trim().regex(LANGUAGE_PATTERN, 'Enter a language code Meta knows, e.g. en_US or fr.'),
  category: z.enum(TEMPLATE_CATEGORIES, { message: 'Category must be MARKETING, UTILITY or AUTHENTICATION.' }),
  components: z.array(TemplateComponent).min(1, 'A template needs a BODY component.'),
  /** Authentication: a code expiry in minutes applies; Meta's message_send_ttl_seconds is optional. */
  message_send_ttl_seconds: z.number().int().min(30).max(43200).optional(),
};

/** POST /api/channels/{id}/create_template/ and the template edit: a template as Meta takes it. */
export const TemplateDefinition = z.object(templateFields).superRefine(checkTemplate);
export type TemplateDefinition = z.infer<typeof TemplateDefinition>;

/** Editing: Meta lets the category and components change, never the name or the language. */
export const TemplateEdit = z
  .object({ category: templateFields.category, components: templateFields.components })
  .superRefine(checkTemplate);
export type TemplateEdit = z.infer<typeof TemplateEdit>;

/** POST /api/whatsapp-template/submit_carousel_template/ (spec §7): the channel by its phone number. */
export const CarouselSubmission = z
  .object({ ...templateFields, phone_number: z.string().trim().min(1, blank).max(64, max(64)) })
  .superRefine((value, ctx) => {
    if (!value.components.some((c) => c.type === 'CAROUSEL')) {
      ctx.addIssue({ code: 'custom', message: 'A carousel template needs a CAROUSEL component with its cards.', path: ['components'] });
      return;
    }
    checkTemplate(value, ctx);
  });
export type CarouselSubmission = z.infer<typeof CarouselSubmission>;

/** Number of cards of a carousel template (fixed once approved: a send must carry exactly as many). */
export function carouselCardCount(components: readonly TemplateComponent[]): number | null {
  const carousel = components.find((c) => c.type === 'CAROUSEL');
  return carousel && carousel.type === 'CAROUSEL' ? carousel.cards.length : null;
}

// ---------- what the API answers ----------

export interface WhatsAppTemplate {
  id: number;
  channel_id: number;
  meta_template_id: string | null;
  name: string;
  language: string;
  category: TemplateCategory;
  components: TemplateComponent[];
  status: TemplateStatus;
  rejected_reason: string | null;
  quality_score: TemplateQualityScore;
  created_at: string;
  updated_at: string;
}

export interface TemplateStatusChange {
  status: TemplateStatus;
  reason: string | null;
  at: string;
}

/** GET /api/channels/{id}/templates/ → limits: Meta's limits and the account's use of them. */
export interface TemplateLimitsUsage {
  creations_last_hour: number;
  creations_per_hour: number;
  templates: number;
  /** null when the business is verified (no template cap). */
  templates_max: number | null;
}

export interface TemplateStats {
  sent: number;
  delivered: number;
  read: number;
  replied: number;
  failed: number;
}

export const TemplateListQuery = z.object({
  status: z.enum(TEMPLATE_STATUSES).optional(),
  category: z.enum(TEMPLATE_CATEGORIES).optional(),
  language: z.string().trim().max(20).optional(),
  ...pageQuery,
  /** 100 by default: the inbox's template dialog loads one page of a channel's templates. */
  page_size: z.coerce
    .number()
    .int('A valid integer is required.')
    .min(1, 'Ensure this value is greater than or equal to 1.')
    .default(100)
    .transform((n) => Math.min(n, MAX_PAGE_SIZE)),
  /** `true`: wait for Meta's list before answering (on demand sync). */
  refresh: z.enum(['true', 'false']).optional(),
});
export type TemplateListQuery = z.input<typeof TemplateListQuery>;

/** Dotted field → messages, the contract's error shape (for the console's editor and tests). */
export function templateErrors(result: { success: boolean; error?: z.ZodError }): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (result.success || !result.error) return errors;
  for (const issue of result.error.issues) {
    const key = issue.path.length ? issue.path.join('.') : 'non_field_errors';
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}

// ---------- media header samples (Meta's resumable upload) ----------

/** The file types Meta takes for a media header's sample, per header format. */
export const TEMPLATE_MEDIA_TYPES = {
  IMAGE: ['image/jpeg', 'image/png'],
  VIDEO: ['video/mp4'],
  DOCUMENT: ['application/pdf'],
} as const;
export type TemplateMediaFormat = keyof typeof TEMPLATE_MEDIA_TYPES;

/** Meta's size limits of header samples (images 5 MB, videos 16 MB, documents 100 MB). */
export const TEMPLATE_MEDIA_MAX_BYTES: Record<TemplateMediaFormat, number> = {
  IMAGE: 5 * 1024 * 1024,
  VIDEO: 16 * 1024 * 1024,
  DOCUMENT: 100 * 1024 * 1024,
};

/**
 * POST /api/channels/{id}/templates/media_handle/: a file uploaded through the presigned upload
 * (GET /api/chats/presigned_url/), by its URL, sent on to Meta's resumable upload; the answer's
 * `handle` goes in the header's `example.header_handle`.
 */
export const TemplateMediaHandleRequest = z.object({
  media_url: z.string().trim().min(1, blank).max(2000, max(2000)),
  format: z.enum(['IMAGE', 'VIDEO', 'DOCUMENT'], { message: 'Header format must be IMAGE, VIDEO or DOCUMENT.' }),
});
export type TemplateMediaHandleRequest = z.infer<typeof TemplateMediaHandleRequest>;

export interface TemplateMediaHandle {
  handle: string;
  media_url: string;
  file_type: string;
}
