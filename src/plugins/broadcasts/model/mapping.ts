/**
 * Template variables and where their values come from. A template's `{{n}}` may sit in the header
 * (text), the body or a URL button; each maps to a CSV column, a contact field or a fixed value.
 * The review renders the message as one recipient will see it from the same rules.
 */
import type { TemplateComponent } from '../../../../contract/templates';
import type { BroadcastVariables, ContactField, VariableMapping } from '../../../../contract/broadcasts';

/** What the console reads of a template (the API's WhatsAppTemplate, or the inbox's MessageTemplate). */
export interface TemplateLike {
  name: string;
  language: string;
  components: readonly (TemplateComponent | { type: string; format?: string; text?: string; buttons?: unknown[] })[];
}

export interface TemplateVariable {
  /** `header.1`, `body.2`, `button.0.1` */
  key: string;
  where: 'header' | 'body' | 'button';
  number: number;
  /** The button's index for button variables. */
  button?: number;
  /** Meta's example value, when the template has one. */
  example?: string;
}

const VARIABLE = /\{\{\s*(\d+)\s*\}\}/g;

function distinctNumbers(text: string | undefined): number[] {
  if (!text) return [];
  return [...new Set([...text.matchAll(VARIABLE)].map((m) => Number(m[1])))].sort((a, b) => a - b);
}

type AnyComponent = { type: string; format?: string; text?: string; buttons?: unknown[]; example?: unknown };

function components(template: TemplateLike): AnyComponent[] {
  return template.components as AnyComponent[];
}

export const MEDIA_HEADER_FORMATS = ['IMAGE', 'VIDEO', 'DOCUMENT'] as const;

/** The header's media format (IMAGE, VIDEO, DOCUMENT) when it takes a file, else null. */
export function mediaHeaderFormat(template: TemplateLike | null | undefined): (typeof MEDIA_HEADER_FORMATS)[number] | null {
  const header = template ? components(template).find((c) => c.type === 'HEADER') : undefined;
  const format = header?.format?.toUpperCase();
  return (MEDIA_HEADER_FORMATS as readonly string[]).includes(format ?? '') ? (format as (typeof MEDIA_HEADER_FORMATS)[number]) : null;
}

/** The file types the header's upload accepts. */
export function acceptFor(format: string | null): string {
  if (format === 'IMAGE') return 'image/jpeg,image/png';
  if (format === 'VIDEO') return 'video/mp4,video/3gpp';
  if (format === 'DOCUMENT') return 'application/pdf';
  return '';
}

/** Every variable of the template, header first, then body, then buttons. */
export function templateVariables(template: TemplateLike | null | undefined): TemplateVariable[] {
  if (!template) return [];
  const out: TemplateVariable[] = [];
  for (const c of components(template)) {
    if (c.type === 'HEADER' && (c.format ?? 'TEXT').toUpperCase() === 'TEXT') {
      const examples = (c.example as { header_text?: string[] } | undefined)?.header_text ?? [];
      for (const n of distinctNumbers(c.text)) out.push({ key: `header.${n}`, where: 'header', number: n, example: examples[n - 1] });
    }
  }
  for (const c of components(template)) {
    if (c.type === 'BODY') {
      const examples = (c.example as { body_text?: string[][] } | undefined)?.body_text?.[0] ?? [];
      for (const n of distinctNumbers(c.text)) out.push({ key: `body.${n}`, where: 'body', number: n, example: examples[n - 1] });
    }
  }
  for (const c of components(template)) {
    if (c.type === 'BUTTONS') {
      (c.buttons as { type?: string; url?: string; example?: string[] }[] | undefined)?.forEach((button, index) => {
        if (button.type !== 'URL') return;
        for (const n of distinctNumbers(button.url)) {
          out.push({ key: `button.${index}.${n}`, where: 'button', number: n, button: index, example: button.example?.[n - 1] });
        }
      });
    }
  }
  return out;
}

/** One recipient as the preview and the resolution see it. */
export interface SampleRecipient {
  name: string;
  phone: string;
  /** CSV columns of the recipient's row (empty for contacts). */
  columns: Record<string, string>;
  /** The recipient's contact attributes, when known (the preview shows `[key]` otherwise). */
  attributes?: Record<string, string | number | boolean>;
}

function normalized(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The value of one variable for one recipient ('' when the source gives nothing). */
export function resolveVariable(source: VariableMapping | undefined, recipient: SampleRecipient): string {
  if (!source) return '';
  if (source.source === 'fixed') return source.value;
  if (source.source === 'column') return recipient.columns[source.value] ?? '';
  if (source.source === 'attribute') return recipient.attributes ? String(recipient.attributes[source.value] ?? '') : `[${source.value}]`;
  const field = source.value as ContactField;
  if (field === 'phone') return recipient.phone;
  if (field === 'first_name') return recipient.name.trim().split(/\s+/)[0] ?? '';
  return recipient.name;
}

/** Is every variable mapped to something usable (a known column, a field, a non-blank fixed value)? */
export function isMappingComplete(variables: readonly TemplateVariable[], mapping: Record<string, VariableMapping>, columns: readonly string[]): boolean {
  return variables.every((v) => mappingProblem(mapping[v.key], columns) === null);
}

/** Why a source cannot be used: 'missing', 'unknownColumn' or 'blank'; null when fine. */
export function mappingProblem(source: VariableMapping | undefined, columns: readonly string[]): 'missing' | 'unknownColumn' | 'blank' | null {
  if (!source) return 'missing';
  if (source.source === 'column') return columns.includes(source.value) ? null : 'unknownColumn';
  if (source.source === 'fixed') return source.value.trim() ? null : 'blank';
  return source.value ? null : 'missing';
}

/**
 * A first mapping: a CSV column named after the variable (`1`, `var1`, `{{1}}`, `body_1`) is taken;
 * otherwise the variable stays unmapped. Existing choices are kept.
 */
export function suggestMapping(
  variables: readonly TemplateVariable[],
  columns: readonly string[],
  current: Record<string, VariableMapping> = {},
): Record<string, VariableMapping> {
  const next: Record<string, VariableMapping> = {};
  for (const v of variables) {
    const existing = current[v.key];
    if (existing && mappingProblem(existing, columns) !== 'unknownColumn') {
      next[v.key] = existing;
      continue;
    }
    const wanted = [`${v.number}`, `var${v.number}`, `variable${v.number}`, `${v.where}${v.number}`, `${v.where}var${v.number}`];
    const column = columns.find((c) => wanted.includes(normalized(c)));
    if (column) next[v.key] = { source: 'column', value: column };
  }
  return next;
}

function fill(text: string | undefined, where: string, mapping: Record<string, VariableMapping>, recipient: SampleRecipient): string {
  return (text ?? '').replace(VARIABLE, (whole, n: string) => {
    const value = resolveVariable(mapping[`${where}.${Number(n)}`], recipient);
    return value || whole;
  });
}

export interface RenderedMessage {
  header: { kind: 'text'; text: string } | { kind: 'media'; format: string; url: string | null } | null;
  body: string;
  footer: string | null;
  buttons: { type: string; text: string; url?: string }[];
}

/** The message one recipient receives: variables filled in, the header's file, footer and buttons. */
export function renderMessage(
  template: TemplateLike,
  mapping: Record<string, VariableMapping>,
  recipient: SampleRecipient,
  headerMediaUrl: string | null = null,
): RenderedMessage {
  let header: RenderedMessage['header'] = null;
  let body = '';
  let footer: string | null = null;
  let buttons: RenderedMessage['buttons'] = [];
  for (const c of components(template)) {
    if (c.type === 'HEADER') {
      const format = (c.format ?? 'TEXT').toUpperCase();
      if (format === 'TEXT') header = { kind: 'text', text: fill(c.text, 'header', mapping, recipient) };
      else header = { kind: 'media', format, url: headerMediaUrl };
    } else if (c.type === 'BODY') body = fill(c.text, 'body', mapping, recipient);
    else if (c.type === 'FOOTER') footer = c.text ?? null;
    else if (c.type === 'BUTTONS') {
      buttons = ((c.buttons ?? []) as { type: string; text: string; url?: string }[]).map((b, index) => ({
        type: b.type,
        text: b.text,
        url: b.url ? fill(b.url, `button.${index}`, mapping, recipient) : undefined,
      }));
    }
  }
  return { header, body, footer, buttons };
}

/**
 * The API's variables (contract BroadcastVariables): body and header by variable number, URL
 * buttons by their index (a button URL has one variable, at its end). Unmapped variables are left out.
 */
export function toApiVariables(mapping: Record<string, VariableMapping>, variables: readonly TemplateVariable[]): BroadcastVariables {
  const out: BroadcastVariables = { body: {} };
  for (const v of variables) {
    const m = mapping[v.key];
    if (!m) continue;
    const value = { source: m.source, value: m.value };
    if (v.where === 'body') out.body[String(v.number)] = value;
    else if (v.where === 'header') (out.header ??= {})[String(v.number)] = value;
    else if (v.button !== undefined) (out.buttons ??= {})[String(v.button)] = value;
  }
  return out;
}
