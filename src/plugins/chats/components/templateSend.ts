/**
 * What sending an approved template from the inbox needs (issue #10): its body parameters, the file
 * of a media header (the template's sample when it is a link, an upload, or a link), and for a
 * carousel one header link and the body parameters of each card (the card count is fixed).
 */
import type { MessageTemplate } from '../../../../contract/channels';
import type { TemplateMedia } from '../service/chatService';

export type MediaKind = 'image' | 'video' | 'document';

interface LooseComponent {
  type: string;
  format?: string;
  text?: string;
  example?: { header_handle?: string[] };
  buttons?: { type: string; text?: string; url?: string; example?: unknown }[];
  cards?: { components: LooseComponent[] }[];
}

export interface CardNeeds {
  kind: 'image' | 'video';
  /** The card's sample media when Meta lists it as a link (usable as is). */
  example: string | null;
  body: string;
  parameterCount: number;
  buttons: string[];
}

/** A button that takes a value when sent. */
export interface ButtonInput {
  index: number;
  kind: 'url' | 'copy_code';
  label: string;
  /** The URL with its {{1}} (shown as a hint). */
  url: string | null;
}

export interface TemplateNeeds {
  buttonInputs: ButtonInput[];
  header: { kind: MediaKind; example: string | null } | null;
  /** A text header (shown in the preview). */
  headerText: string | null;
  /** The text header has a {{1}} to fill. */
  headerVariable: boolean;
  body: string;
  parameterCount: number;
  footer: string | null;
  buttons: string[];
  cards: CardNeeds[] | null;
}

const VARIABLE = /\{\{\s*(\d+)\s*\}\}/g;

export function parameterCount(text: string): number {
  const numbers = [...text.matchAll(VARIABLE)].map((m) => Number(m[1]));
  return numbers.length ? Math.max(...numbers) : 0;
}

/** The text with its {{n}} filled in (a blank value keeps the placeholder). */
export function fill(text: string, values: string[]): string {
  return text.replace(VARIABLE, (whole, n: string) => values[Number(n) - 1]?.trim() || whole);
}

/** A link Meta (and the preview) can fetch as is: https only. */
export function isHttpsLink(value: string | null | undefined): value is string {
  if (!value) return false;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' && !url.username && !url.password;
  } catch {
    return false;
  }
}

function mediaKind(format: string | undefined): MediaKind | null {
  return format === 'IMAGE' ? 'image' : format === 'VIDEO' ? 'video' : format === 'DOCUMENT' ? 'document' : null;
}

function buttonLabels(component: LooseComponent | undefined): string[] {
  return (component?.buttons ?? []).map((b) => b.text || (typeof b.example === 'string' ? b.example : b.type));
}

function exampleLink(component: LooseComponent | undefined): string | null {
  const handle = component?.example?.header_handle?.[0];
  return isHttpsLink(handle) ? handle : null;
}

/** What this template needs to be sent. */
export function templateNeeds(template: Pick<MessageTemplate, 'components'>): TemplateNeeds {
  const components = template.components as unknown as LooseComponent[];
  const find = (list: LooseComponent[], type: string) => list.find((c) => c.type === type);
  const header = find(components, 'HEADER');
  const kind = mediaKind(header?.format);
  const body = find(components, 'BODY')?.text ?? '';
  const carousel = find(components, 'CAROUSEL');
  return {
    header: kind ? { kind, example: exampleLink(header) } : null,
    headerText: header?.format === 'TEXT' ? (header.text ?? null) : null,
    headerVariable: header?.format === 'TEXT' && parameterCount(header.text ?? '') > 0,
    body,
    parameterCount: parameterCount(body),
    footer: find(components, 'FOOTER')?.text ?? null,
    buttons: buttonLabels(find(components, 'BUTTONS')),
    buttonInputs: (find(components, 'BUTTONS')?.buttons ?? []).flatMap((b, index): ButtonInput[] => {
      if (b.type === 'COPY_CODE') return [{ index, kind: 'copy_code', label: typeof b.example === 'string' ? b.example : '', url: null }];
      if (b.type === 'URL' && parameterCount(b.url ?? '') > 0) return [{ index, kind: 'url', label: b.text ?? '', url: b.url ?? null }];
      return [];
    }),
    cards: carousel
      ? (carousel.cards ?? []).map((card) => {
          const cardHeader = find(card.components, 'HEADER');
          const cardBody = find(card.components, 'BODY')?.text ?? '';
          return {
            kind: cardHeader?.format === 'VIDEO' ? 'video' : 'image',
            example: exampleLink(cardHeader),
            body: cardBody,
            parameterCount: parameterCount(cardBody),
            buttons: buttonLabels(find(card.components, 'BUTTONS')),
          };
        })
      : null,
  };
}

export interface CardInput {
  link: string;
  parameters: string[];
}

export interface SendForm {
  parameters: string[];
  /** The header's file: an https link or an upload's file_url. */
  headerUrl: string;
  headerMediaType: string | null;
  /** The header's file was uploaded here (its file_url is ours, not an https link to check). */
  headerUploaded: boolean;
  /** A text header's {{1}} value. */
  headerValue: string;
  /** One value per needs.buttonInputs. */
  buttonValues: string[];
  cards: CardInput[];
}

/** The form's starting values: empty parameters, the samples' links where Meta gives them. */
export function initialForm(needs: TemplateNeeds): SendForm {
  return {
    parameters: Array.from({ length: needs.parameterCount }, () => ''),
    headerUrl: needs.header?.example ?? '',
    headerMediaType: null,
    headerUploaded: false,
    headerValue: '',
    buttonValues: needs.buttonInputs.map((b) => (b.kind === 'copy_code' ? b.label : '')),
    cards: (needs.cards ?? []).map((card) => ({ link: card.example ?? '', parameters: Array.from({ length: card.parameterCount }, () => '') })),
  };
}

/** The problems that keep the form from being sent (field → true), none when complete. */
export function formProblems(needs: TemplateNeeds, form: SendForm): Record<string, true> {
  const problems: Record<string, true> = {};
  form.parameters.forEach((p, i) => {
    if (!p.trim()) problems[`parameter.${i}`] = true;
  });
  if (needs.headerVariable && !form.headerValue.trim()) problems.headerValue = true;
  if (needs.header && !(form.headerUploaded ? form.headerUrl.trim() : isHttpsLink(form.headerUrl))) problems.header = true;
  form.buttonValues.forEach((value, i) => {
    if (!value.trim()) problems[`button.${i}`] = true;
  });
  form.cards.forEach((card, i) => {
    if (!isHttpsLink(card.link)) problems[`card.${i}.link`] = true;
    card.parameters.forEach((p, j) => {
      if (!p.trim()) problems[`card.${i}.parameter.${j}`] = true;
    });
  });
  return problems;
}

/** What the chat service sends besides the body parameters. */
export function templateMedia(needs: TemplateNeeds, form: SendForm): TemplateMedia | undefined {
  const media: TemplateMedia = {};
  if (needs.header) media.header = { type: needs.header.kind, url: form.headerUrl.trim(), mediaType: form.headerMediaType };
  if (needs.headerVariable) media.headerText = form.headerValue.trim();
  if (needs.buttonInputs.length) media.buttons = needs.buttonInputs.map((b, i) => ({ index: b.index, sub_type: b.kind, value: form.buttonValues[i].trim() }));
  if (needs.cards) media.cards = needs.cards.map((card, i) => ({ type: card.kind, link: form.cards[i].link.trim(), parameters: form.cards[i].parameters.map((p) => p.trim()) }));
  return media.header || media.headerText || media.buttons || media.cards ? media : undefined;
}
