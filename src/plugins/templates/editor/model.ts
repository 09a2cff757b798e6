/**
 * The template editor's form logic, free of React (issue #10): the draft the form edits, the
 * template it becomes in Meta's `message_templates` format, and the contract's zod errors
 * (contract/templates.ts, the same schemas the server validates with) mapped back to the form's
 * fields, so every error shows under the field it is about as the user types.
 */
import {
  AUTHENTICATION_PRESET_BODY,
  TEMPLATE_LIMITS,
  TemplateDefinition,
  TemplateEdit,
  templateErrors,
  variablesIn,
  type TemplateCategory,
  type TemplateComponent,
  type WhatsAppTemplate,
} from '../../../../contract/templates';
import type { EditorType } from './paths';

export type HeaderChoice = 'NONE' | 'TEXT' | 'IMAGE' | 'VIDEO' | 'DOCUMENT';
export type MediaFormat = 'IMAGE' | 'VIDEO' | 'DOCUMENT';
export type ButtonKind = 'QUICK_REPLY' | 'URL' | 'PHONE_NUMBER' | 'COPY_CODE';

export interface ButtonDraft {
  kind: ButtonKind;
  text: string;
  url: string;
  /** The example of the URL's {{1}} (the whole URL with a sample value, as Meta wants it). */
  urlExample: string;
  phone: string;
  /** COPY_CODE: the sample offer code. */
  code: string;
}

export interface MediaDraft {
  /** Meta's handle from the resumable upload (what example.header_handle carries). */
  handle: string;
  /** What the preview shows (an object URL of the chosen file, or a URL Meta listed). */
  previewUrl: string | null;
  fileName: string;
  fileType: string;
}

export interface EditorDraft {
  name: string;
  language: string;
  category: TemplateCategory;
  header: HeaderChoice;
  headerText: string;
  headerExample: string;
  media: MediaDraft | null;
  body: string;
  /** examples[i] is the sample value of {{i + 1}}. */
  bodyExamples: string[];
  footer: string;
  buttons: ButtonDraft[];
  // authentication
  securityRecommendation: boolean;
  /** Minutes as typed ('' = no expiry line). */
  codeExpiry: string;
  otpType: 'COPY_CODE' | 'ONE_TAP';
  otpText: string;
  autofillText: string;
  packageName: string;
  signatureHash: string;
}

export const LIMITS = TEMPLATE_LIMITS;

export function newButton(kind: ButtonKind): ButtonDraft {
  return { kind, text: kind === 'COPY_CODE' ? '' : '', url: kind === 'URL' ? 'https://' : '', urlExample: '', phone: '', code: '' };
}

/** The empty draft the editor starts with for a category and a type slug (editor/paths.ts). */
export function initialDraft(category: TemplateCategory, type: EditorType | string): EditorDraft {
  const draft: EditorDraft = {
    name: '',
    language: 'en_US',
    category,
    header: type === 'media' ? 'IMAGE' : 'NONE',
    headerText: '',
    headerExample: '',
    media: null,
    body: '',
    bodyExamples: [],
    footer: '',
    buttons: type === 'buttons' ? [newButton('QUICK_REPLY'), newButton('QUICK_REPLY')] : [],
    securityRecommendation: true,
    codeExpiry: '10',
    otpType: 'COPY_CODE',
    otpText: 'Copy code',
    autofillText: 'Autofill',
    packageName: '',
    signatureHash: '',
  };
  return draft;
}

// ---------- variables ----------

/** The highest {{n}} in a text (0 when there is none). */
export function highestVariable(text: string): number {
  return variablesIn(text).reduce((max, n) => Math.max(max, n), 0);
}

/**
 * Inserts the next variable ({{highest + 1}}) at the cursor (replacing a selection); returns the
 * new text and where the cursor goes (after the variable).
 */
export function insertVariable(text: string, selectionStart: number, selectionEnd = selectionStart): { text: string; cursor: number; number: number } {
  const start = Math.max(0, Math.min(selectionStart, text.length));
  const end = Math.max(start, Math.min(selectionEnd, text.length));
  const number = highestVariable(text.slice(0, start) + text.slice(end)) + 1;
  const token = `{{${number}}}`;
  return { text: text.slice(0, start) + token + text.slice(end), cursor: start + token.length, number };
}

/** Renumbers variables by order of first appearance: `{{3}} and {{1}}` → `{{1}} and {{2}}`; examples follow their variable. */
export function renumberVariables(text: string, examples: string[] = []): { text: string; examples: string[] } {
  const order: number[] = [];
  for (const n of variablesIn(text)) if (!order.includes(n)) order.push(n);
  const renumbered = text.replace(/\{\{\s*(\d+)\s*\}\}/g, (_m, n: string) => `{{${order.indexOf(Number(n)) + 1}}}`);
  return { text: renumbered, examples: order.map((n) => examples[n - 1] ?? '') };
}

/** One example per variable {{1}}…{{highest}}: the list grown or trimmed, values kept. */
export function examplesFor(text: string, examples: string[]): string[] {
  const count = highestVariable(text);
  return Array.from({ length: count }, (_, i) => examples[i] ?? '');
}

// ---------- the template in Meta's format ----------

const trim = (value: string) => value.trim();

function buttonOf(button: ButtonDraft): Record<string, unknown> {
  switch (button.kind) {
    case 'QUICK_REPLY':
      return { type: 'QUICK_REPLY', text: trim(button.text) };
    case 'URL': {
      const url = trim(button.url);
      return variablesIn(url).length > 0 && button.urlExample.trim() ? { type: 'URL', text: trim(button.text), url, example: [trim(button.urlExample)] } : { type: 'URL', text: trim(button.text), url };
    }
    case 'PHONE_NUMBER':
      return { type: 'PHONE_NUMBER', text: trim(button.text), phone_number: trim(button.phone) };
    case 'COPY_CODE':
      return { type: 'COPY_CODE', example: trim(button.code) };
  }
}

/** The components of a draft, in Meta's format and order (HEADER, BODY, FOOTER, BUTTONS). */
export function componentsOf(draft: EditorDraft): TemplateComponent[] {
  const components: Record<string, unknown>[] = [];
  if (draft.category === 'AUTHENTICATION') {
    components.push({ type: 'BODY', add_security_recommendation: draft.securityRecommendation });
    const minutes = draft.codeExpiry.trim();
    if (minutes) components.push({ type: 'FOOTER', code_expiration_minutes: /^-?\d+$/.test(minutes) ? Number(minutes) : Number.NaN });
    const otp: Record<string, unknown> = { type: 'OTP', otp_type: draft.otpType };
    if (draft.otpText.trim()) otp.text = draft.otpText.trim();
    if (draft.otpType === 'ONE_TAP') {
      if (draft.autofillText.trim()) otp.autofill_text = draft.autofillText.trim();
      otp.package_name = draft.packageName.trim();
      if (draft.signatureHash.trim()) otp.signature_hash = draft.signatureHash.trim();
    }
    components.push({ type: 'BUTTONS', buttons: [otp] });
    return components as TemplateComponent[];
  }
  if (draft.header === 'TEXT') {
    const text = draft.headerText;
    components.push(variablesIn(text).length > 0 && draft.headerExample.trim() ? { type: 'HEADER', format: 'TEXT', text, example: { header_text: [trim(draft.headerExample)] } } : { type: 'HEADER', format: 'TEXT', text });
  } else if (draft.header !== 'NONE') {
    components.push(draft.media?.handle ? { type: 'HEADER', format: draft.header, example: { header_handle: [draft.media.handle] } } : { type: 'HEADER', format: draft.header });
  }
  const examples = examplesFor(draft.body, draft.bodyExamples).map(trim);
  components.push(examples.length > 0 ? { type: 'BODY', text: draft.body, example: { body_text: [examples] } } : { type: 'BODY', text: draft.body });
  if (draft.footer.trim()) components.push({ type: 'FOOTER', text: draft.footer });
  if (draft.buttons.length > 0) components.push({ type: 'BUTTONS', buttons: draft.buttons.map(buttonOf) });
  return components as TemplateComponent[];
}

/** The body of POST /api/channels/{id}/create_template/: exactly Meta's template. */
export function definitionOf(draft: EditorDraft): TemplateDefinition {
  return { name: draft.name.trim(), language: draft.language.trim(), category: draft.category, components: componentsOf(draft) };
}

/** The body of PATCH /api/channels/{id}/templates/{templateId}/ (Meta never changes name or language). */
export function editOf(draft: EditorDraft): TemplateEdit {
  return { category: draft.category, components: componentsOf(draft) };
}

// ---------- errors per field ----------

/** Form field keys: name, language, category, header, headerText, headerExample, media, body, bodyExamples, bodyExamples.N, footer, codeExpiry, buttons, buttons.N, buttons.N.text|url|urlExample|phone|code, packageName, signatureHash, otpText, form. */
export type FieldErrors = Record<string, string>;

/** Where a contract error path (`components.2.buttons.0.url`) lands in the editor's form. */
export function fieldOfPath(path: string, components: readonly TemplateComponent[]): string {
  if (path === 'name' || path === 'language' || path === 'category') return path;
  const match = /^components\.(\d+)(?:\.(.*))?$/.exec(path);
  if (!match) return path === 'components' ? 'body' : 'form';
  const component = components[Number(match[1])];
  const rest = match[2] ?? '';
  if (!component) return 'form';
  switch (component.type) {
    case 'HEADER':
      if (rest.startsWith('example.header_handle')) return 'media';
      if (rest.startsWith('example.header_text')) return 'headerExample';
      if (rest === 'text') return 'headerText';
      return 'header';
    case 'BODY': {
      const example = /^example\.body_text(?:\.0\.(\d+))?/.exec(rest);
      if (example) return example[1] !== undefined ? `bodyExamples.${example[1]}` : 'bodyExamples';
      return 'body';
    }
    case 'FOOTER':
      return rest === 'code_expiration_minutes' ? 'codeExpiry' : 'footer';
    case 'BUTTONS': {
      const button = /^buttons\.(\d+)(?:\.(\w+))?/.exec(rest);
      if (!button) return 'buttons';
      const [, index, field] = button;
      if (field === 'package_name') return 'packageName';
      if (field === 'signature_hash') return 'signatureHash';
      if (field === 'text' && component.buttons[Number(index)]?.type === 'OTP') return 'otpText';
      if (!field || field === 'type' || field === 'otp_type') return `buttons.${index}`;
      const key = { text: 'text', url: 'url', phone_number: 'phone', example: component.buttons[Number(index)]?.type === 'COPY_CODE' ? 'code' : 'urlExample' }[field];
      return key ? `buttons.${index}.${key}` : `buttons.${index}`;
    }
    default:
      return 'form';
  }
}

/** Client-side checks the contract leaves to the form (a code expiry that is not a number). */
function formChecks(draft: EditorDraft, errors: FieldErrors): void {
  if (draft.category === 'AUTHENTICATION' && draft.codeExpiry.trim() && !/^\d+$/.test(draft.codeExpiry.trim())) {
    errors.codeExpiry = `Enter a whole number of minutes between ${LIMITS.codeExpiryMin} and ${LIMITS.codeExpiryMax}.`;
  }
  if (draft.header !== 'NONE' && draft.header !== 'TEXT' && draft.category !== 'AUTHENTICATION' && !draft.media?.handle) {
    errors.media ??= `Upload a sample ${draft.header.toLowerCase()} for the header.`;
  }
}

/** The first error of each field, from the contract's schema (create, or edit when `editing`). */
export function draftErrors(draft: EditorDraft, editing = false): FieldErrors {
  const components = componentsOf(draft);
  const result = editing ? TemplateEdit.safeParse(editOf(draft)) : TemplateDefinition.safeParse(definitionOf(draft));
  const errors: FieldErrors = {};
  for (const [path, messages] of Object.entries(templateErrors(result))) {
    const field = fieldOfPath(path, components);
    errors[field] ??= messages[0];
  }
  formChecks(draft, errors);
  return errors;
}

/** A server's 400 body (`{field: [messages]}` with dotted contract paths, or `{detail}`) mapped onto the form. */
export function serverErrors(body: unknown, components: readonly TemplateComponent[]): FieldErrors {
  const errors: FieldErrors = {};
  if (!body || typeof body !== 'object') return errors;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const message = Array.isArray(value) ? value.find((v) => typeof v === 'string') : typeof value === 'string' ? value : null;
    if (!message || key === 'code') continue;
    const field = key === 'detail' || key === 'non_field_errors' ? 'form' : fieldOfPath(key, components);
    errors[field] ??= message;
  }
  return errors;
}

// ---------- counters ----------

/** `used/limit` of a field's characters. */
export function counter(value: string, limit: number): { used: number; limit: number; over: boolean } {
  return { used: value.length, limit, over: value.length > limit };
}

// ---------- from an existing template (edit, duplicate) ----------

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A draft holding an existing template (edit keeps name and language; duplicate renames). */
export function draftFromTemplate(template: Pick<WhatsAppTemplate, 'name' | 'language' | 'category' | 'components'>): EditorDraft {
  const draft = initialDraft(template.category, template.category === 'AUTHENTICATION' ? 'authentication' : 'text');
  draft.name = template.name;
  draft.language = template.language;
  draft.buttons = [];
  for (const component of template.components) {
    if (component.type === 'HEADER') {
      draft.header = component.format === 'LOCATION' ? 'NONE' : component.format;
      draft.headerText = textOf(component.text);
      draft.headerExample = textOf(component.example?.header_text?.[0]);
      const handle = component.example?.header_handle?.[0];
      if (handle) draft.media = { handle, previewUrl: /^https?:\/\//.test(handle) ? handle : null, fileName: '', fileType: '' };
    }
    if (component.type === 'BODY') {
      draft.body = textOf(component.text);
      draft.bodyExamples = component.example?.body_text?.[0] ?? [];
      if (component.add_security_recommendation !== undefined) draft.securityRecommendation = component.add_security_recommendation;
    }
    if (component.type === 'FOOTER') {
      draft.footer = textOf(component.text);
      draft.codeExpiry = component.code_expiration_minutes !== undefined ? String(component.code_expiration_minutes) : template.category === 'AUTHENTICATION' ? '' : draft.codeExpiry;
    }
    if (component.type === 'BUTTONS') {
      for (const button of component.buttons) {
        if (button.type === 'OTP') {
          draft.otpType = button.otp_type === 'ONE_TAP' ? 'ONE_TAP' : 'COPY_CODE';
          draft.otpText = textOf(button.text);
          draft.autofillText = textOf(button.autofill_text) || draft.autofillText;
          draft.packageName = textOf(button.package_name);
          draft.signatureHash = textOf(button.signature_hash);
          continue;
        }
        const next = newButton(button.type);
        if (button.type === 'QUICK_REPLY') next.text = button.text;
        if (button.type === 'URL') Object.assign(next, { text: button.text, url: button.url, urlExample: button.example?.[0] ?? '' });
        if (button.type === 'PHONE_NUMBER') Object.assign(next, { text: button.text, phone: button.phone_number });
        if (button.type === 'COPY_CODE') next.code = button.example;
        draft.buttons.push(next);
      }
    }
  }
  if (template.category === 'AUTHENTICATION' && !template.components.some((c) => c.type === 'FOOTER')) draft.codeExpiry = '';
  return draft;
}

/** "Duplicate as new": the same content under a new name; a media sample Meta listed as a URL must be uploaded again. */
export function duplicateDraft(template: Pick<WhatsAppTemplate, 'name' | 'language' | 'category' | 'components'>): EditorDraft {
  const draft = draftFromTemplate(template);
  draft.name = `${template.name}_copy`.slice(0, LIMITS.name);
  if (draft.media && /^https?:\/\//.test(draft.media.handle)) draft.media = null;
  return draft;
}

// ---------- Meta's edit rules ----------

/** Meta edits only APPROVED, REJECTED and PAUSED templates. */
export function canEdit(status: string): boolean {
  return status === 'APPROVED' || status === 'REJECTED' || status === 'PAUSED';
}

/** The category of an approved template is Meta's to decide; a rejected or paused one may change it. */
export function canChangeCategory(status: string): boolean {
  return status === 'REJECTED' || status === 'PAUSED';
}

// ---------- the preview ----------

/** The text with each {{n}} replaced by its sample value (kept as {{n}} while the sample is empty). */
export function fillVariables(text: string, examples: readonly string[]): string {
  return text.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => examples[Number(n) - 1]?.trim() || whole);
}

/** Meta's preset authentication body with a sample code. */
export const AUTH_SAMPLE_CODE = '123456';
export function authenticationBody(): string {
  return fillVariables(AUTHENTICATION_PRESET_BODY, [AUTH_SAMPLE_CODE]);
}
