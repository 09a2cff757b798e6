/**
 * A template's variables and how a broadcast fills them: the template's shape (header, body,
 * footer, buttons in Meta's component format, contract/templates.ts), each recipient's values
 * from the mapping (CSV column, contact field, contact attribute or fixed text), the message as one recipient sees it,
 * and Meta's `components` parameters for the send call (used by the engine).
 */
import type { BroadcastVariables, RenderedMessage, ResolvedVariables, VariableMapping } from '../../../../contract/broadcasts';
import { variablesIn } from '../../../../contract/templates';
import type { OutboundContent } from '../../../providers/meta/types';

export interface TemplateShape {
  headerFormat: string | null;
  headerText: string | null;
  headerVariables: number;
  body: string;
  bodyVariables: number;
  footer: string | null;
  /** Every button, in order; `urlVariable` when its URL ends with {{1}}. */
  buttons: { index: number; type: string; text: string; url: string | null; urlVariable: boolean }[];
}

type Component = { type?: string; format?: string; text?: string; buttons?: { type?: string; text?: string; url?: string }[] };

const count = (text: string | null | undefined) => (text ? Math.max(0, ...variablesIn(text)) : 0);

export function templateShape(components: unknown[]): TemplateShape {
  const list = components as Component[];
  const header = list.find((c) => c.type === 'HEADER');
  const body = list.find((c) => c.type === 'BODY');
  const footer = list.find((c) => c.type === 'FOOTER');
  const buttons = list.find((c) => c.type === 'BUTTONS')?.buttons ?? [];
  const headerText = header?.format === 'TEXT' ? (header.text ?? '') : null;
  return {
    headerFormat: header?.format ?? null,
    headerText,
    headerVariables: count(headerText),
    body: body?.text ?? '',
    bodyVariables: count(body?.text),
    footer: footer?.text ?? null,
    buttons: buttons.map((b, index) => ({
      index,
      type: b.type ?? '',
      text: b.text ?? '',
      url: b.url ?? null,
      urlVariable: b.type === 'URL' && !!b.url && variablesIn(b.url).length > 0,
    })),
  };
}

export const MEDIA_HEADER_FORMATS = ['IMAGE', 'VIDEO', 'DOCUMENT'];

/** Field path → message for every variable the mapping leaves out (and for a missing media file). */
export function missingMappings(shape: TemplateShape, variables: BroadcastVariables, headerMediaUrl: string | undefined | null): Record<string, string> {
  const missing: Record<string, string> = {};
  for (let n = 1; n <= shape.bodyVariables; n += 1) if (!variables.body[String(n)]) missing[`variables.body.${n}`] = `Map the body variable {{${n}}}.`;
  for (let n = 1; n <= shape.headerVariables; n += 1) if (!variables.header?.[String(n)]) missing[`variables.header.${n}`] = `Map the header variable {{${n}}}.`;
  for (const b of shape.buttons) if (b.urlVariable && !variables.buttons?.[String(b.index)]) missing[`variables.buttons.${b.index}`] = `Map the variable of the button "${b.text}".`;
  if (shape.headerFormat && MEDIA_HEADER_FORMATS.includes(shape.headerFormat) && !headerMediaUrl) missing.header_media_url = 'This template has a media header: upload a file.';
  return missing;
}

/** Mappings whose CSV column does not exist (a contacts audience has no columns at all). */
export function unknownColumns(variables: BroadcastVariables, columns: string[]): Record<string, string> {
  const wrong: Record<string, string> = {};
  const check = (path: string, m: VariableMapping | undefined) => {
    if (m?.source === 'column' && !columns.includes(m.value)) {
      wrong[path] = columns.length ? `The CSV file has no column "${m.value}".` : 'Contacts have no CSV columns: map a contact field or a fixed value.';
    }
  };
  for (const [k, m] of Object.entries(variables.body)) check(`variables.body.${k}`, m);
  for (const [k, m] of Object.entries(variables.header ?? {})) check(`variables.header.${k}`, m);
  for (const [k, m] of Object.entries(variables.buttons ?? {})) check(`variables.buttons.${k}`, m);
  return wrong;
}

/** Mappings whose contact attribute the company has not defined. */
export function unknownAttributes(variables: BroadcastVariables, keys: string[]): Record<string, string> {
  const wrong: Record<string, string> = {};
  const check = (path: string, m: VariableMapping | undefined) => {
    if (m?.source === 'attribute' && !keys.includes(m.value)) wrong[path] = `There is no contact attribute "${m.value}".`;
  };
  for (const [k, m] of Object.entries(variables.body)) check(`variables.body.${k}`, m);
  for (const [k, m] of Object.entries(variables.header ?? {})) check(`variables.header.${k}`, m);
  for (const [k, m] of Object.entries(variables.buttons ?? {})) check(`variables.buttons.${k}`, m);
  return wrong;
}

/** Whether any variable takes a contact attribute. */
export function usesAttributes(variables: BroadcastVariables): boolean {
  return [...Object.values(variables.body), ...Object.values(variables.header ?? {}), ...Object.values(variables.buttons ?? {})].some((m) => m.source === 'attribute');
}

export interface RecipientFields {
  phone: string;
  name: string;
  values: Record<string, string>;
  /** The recipient's contact attributes (a recipient without a contact has none). */
  attributes?: Record<string, string | number | boolean>;
}

/** Meta rejects an empty parameter: a missing name or an empty cell becomes this. */
export const EMPTY_VALUE_FALLBACK = '-';

function valueOf(m: VariableMapping | undefined, r: RecipientFields): string {
  if (!m) return EMPTY_VALUE_FALLBACK;
  let v: string;
  if (m.source === 'fixed') v = m.value;
  else if (m.source === 'column') v = r.values[m.value] ?? '';
  else if (m.source === 'attribute') v = r.attributes?.[m.value] === undefined ? '' : String(r.attributes[m.value]);
  else if (m.value === 'phone') v = r.phone;
  else if (m.value === 'first_name') v = r.name.trim().split(/\s+/)[0] ?? '';
  else v = r.name;
  // Meta: parameters may not hold new lines, tabs or more than 4 consecutive spaces.
  v = v.replace(/[\r\n\t]+/g, ' ').replace(/ {5,}/g, '    ').trim();
  return v || EMPTY_VALUE_FALLBACK;
}

export function resolveVariables(shape: TemplateShape, variables: BroadcastVariables, r: RecipientFields): ResolvedVariables {
  const resolved: ResolvedVariables = { body: [] };
  for (let n = 1; n <= shape.bodyVariables; n += 1) resolved.body.push(valueOf(variables.body[String(n)], r));
  if (shape.headerVariables) {
    resolved.header = [];
    for (let n = 1; n <= shape.headerVariables; n += 1) resolved.header.push(valueOf(variables.header?.[String(n)], r));
  }
  const urlButtons = shape.buttons.filter((b) => b.urlVariable);
  if (urlButtons.length) {
    resolved.buttons = {};
    for (const b of urlButtons) resolved.buttons[String(b.index)] = valueOf(variables.buttons?.[String(b.index)], r);
  }
  return resolved;
}

const fill = (text: string, values: string[]) => text.replace(/\{\{\s*(\d+)\s*\}\}/g, (all, n: string) => values[Number(n) - 1] ?? all);

/** The message as this recipient will see it (the review step). */
export function renderMessage(shape: TemplateShape, resolved: ResolvedVariables, headerMediaUrl: string | null): RenderedMessage {
  return {
    header: shape.headerText !== null ? fill(shape.headerText, resolved.header ?? []) : null,
    header_format: shape.headerFormat,
    header_media_url: shape.headerFormat && MEDIA_HEADER_FORMATS.includes(shape.headerFormat) ? headerMediaUrl : null,
    body: fill(shape.body, resolved.body),
    footer: shape.footer,
    buttons: shape.buttons.map((b) => b.text),
  };
}

/**
 * What one recipient was sent, as text (their recipient row and the report: who received what): the
 * text header and the body with their values. Media, footer and buttons are the same for everyone.
 */
export function recipientMessage(shape: TemplateShape, resolved: ResolvedVariables): string {
  const { header, body } = renderMessage(shape, resolved, null);
  return [header, body].filter((part) => !!part).join('\n');
}

/**
 * Meta's `template.components` of a send call (Cloud API "Send message templates"): header
 * parameters (text, or the media link), body parameters, URL button suffixes.
 */
export function metaComponents(shape: TemplateShape, resolved: ResolvedVariables, headerMediaUrl: string | null): unknown[] {
  const out: unknown[] = [];
  if (shape.headerFormat && MEDIA_HEADER_FORMATS.includes(shape.headerFormat) && headerMediaUrl) {
    const kind = shape.headerFormat.toLowerCase();
    out.push({ type: 'header', parameters: [{ type: kind, [kind]: { link: headerMediaUrl } }] });
  } else if (resolved.header?.length) {
    out.push({ type: 'header', parameters: resolved.header.map((text) => ({ type: 'text', text })) });
  }
  if (resolved.body.length) out.push({ type: 'body', parameters: resolved.body.map((text) => ({ type: 'text', text })) });
  for (const [index, text] of Object.entries(resolved.buttons ?? {})) {
    out.push({ type: 'button', sub_type: 'url', index, parameters: [{ type: 'text', text }] });
  }
  return out;
}

/**
 * What the engine sends for one recipient (the Graph adapter's template content): name, language,
 * body parameters, and the header — the recipient's header text variable, or the broadcast's media
 * file for an IMAGE / VIDEO / DOCUMENT header. Without the header, Meta (and the fake) refuse a
 * template whose header has a variable or media with 132000.
 */
export function templateOutbound(
  broadcast: { templateName: string; templateLanguage: string; templateComponents: unknown[]; headerMediaUrl: string | null },
  resolved: ResolvedVariables,
  /** Our own private file's stored URL → a link Meta can fetch (server/providers/storage/privateMedia.ts mediaUrlForCompany). */
  mediaLink: (storedUrl: string) => string = (url) => url,
): Extract<OutboundContent, { kind: 'template' }> {
  const shape = templateShape(broadcast.templateComponents ?? []);
  const content: Extract<OutboundContent, { kind: 'template' }> = {
    kind: 'template',
    name: broadcast.templateName,
    language: broadcast.templateLanguage,
    bodyParameters: resolved.body ?? [],
  };
  if (shape.headerFormat && MEDIA_HEADER_FORMATS.includes(shape.headerFormat) && broadcast.headerMediaUrl) {
    content.header = { type: shape.headerFormat.toLowerCase() as 'image' | 'video' | 'document', link: mediaLink(broadcast.headerMediaUrl) };
  } else if (shape.headerVariables > 0 && resolved.header?.length) {
    content.header = { type: 'text', text: resolved.header[0] };
  }
  // A URL button's {{1}}: the ending of its link for this recipient.
  const buttons = Object.entries(resolved.buttons ?? {}).map(([index, value]) => ({ index: Number(index), subType: 'url' as const, value }));
  if (buttons.length) content.buttons = buttons;
  return content;
}
