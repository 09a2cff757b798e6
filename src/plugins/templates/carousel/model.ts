/**
 * The carousel builder's form logic (issue #10), free of React: a marketing template with a body
 * and 2–10 cards, each with an image or video header, a body and the SAME button layout (at most
 * two buttons: quick reply, URL, phone number), in Meta's format for
 * POST /api/whatsapp-template/submit_carousel_template/; the contract's errors mapped back to the
 * builder's fields.
 */
import {
  CarouselSubmission,
  TEMPLATE_LIMITS,
  TemplateEdit,
  templateErrors,
  variablesIn,
  type TemplateComponent,
  type WhatsAppTemplate,
} from '../../../../contract/templates';
import { examplesFor, type MediaDraft } from '../editor/model';

/** Meta: a carousel card's text has at most 160 characters. */
export const CARD_BODY_LIMIT = 160;

export type CarouselButtonKind = 'QUICK_REPLY' | 'URL' | 'PHONE_NUMBER';
export const CAROUSEL_BUTTON_KINDS: CarouselButtonKind[] = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER'];

export interface CardButtonDraft {
  text: string;
  url: string;
  urlExample: string;
  phone: string;
}

export interface CardDraft {
  /** A stable key for React and reordering (not sent). */
  key: string;
  media: MediaDraft | null;
  body: string;
  bodyExamples: string[];
  /** One per layout entry, in the layout's order. */
  buttons: CardButtonDraft[];
}

export interface CarouselDraft {
  name: string;
  language: string;
  body: string;
  bodyExamples: string[];
  headerFormat: 'IMAGE' | 'VIDEO';
  /** The button layout every card shares (1–2 kinds, in order). */
  layout: CarouselButtonKind[];
  cards: CardDraft[];
}

let keys = 0;
const nextKey = () => `card-${++keys}`;

const emptyButton = (): CardButtonDraft => ({ text: '', url: 'https://', urlExample: '', phone: '' });

export function newCard(layout: readonly CarouselButtonKind[]): CardDraft {
  return { key: nextKey(), media: null, body: '', bodyExamples: [], buttons: layout.map(emptyButton) };
}

export function initialCarousel(): CarouselDraft {
  const layout: CarouselButtonKind[] = ['QUICK_REPLY', 'URL'];
  return { name: '', language: 'en_US', body: '', bodyExamples: [], headerFormat: 'IMAGE', layout, cards: [newCard(layout), newCard(layout)] };
}

// ---------- cards ----------

export function addCard(draft: CarouselDraft): CarouselDraft {
  if (draft.cards.length >= TEMPLATE_LIMITS.carouselCardsMax) return draft;
  return { ...draft, cards: [...draft.cards, newCard(draft.layout)] };
}

export function removeCard(draft: CarouselDraft, index: number): CarouselDraft {
  if (draft.cards.length <= TEMPLATE_LIMITS.carouselCardsMin || index < 0 || index >= draft.cards.length) return draft;
  return { ...draft, cards: draft.cards.filter((_, i) => i !== index) };
}

/** Moves the card at `from` to position `to` (the others shift). */
export function moveCard(draft: CarouselDraft, from: number, to: number): CarouselDraft {
  if (from === to || from < 0 || to < 0 || from >= draft.cards.length || to >= draft.cards.length) return draft;
  const cards = [...draft.cards];
  const [card] = cards.splice(from, 1);
  cards.splice(to, 0, card);
  return { ...draft, cards };
}

export function updateCard(draft: CarouselDraft, index: number, change: Partial<CardDraft>): CarouselDraft {
  return { ...draft, cards: draft.cards.map((card, i) => (i === index ? { ...card, ...change } : card)) };
}

/** A new layout for every card at once (kept values follow their position). */
export function setLayout(draft: CarouselDraft, layout: CarouselButtonKind[]): CarouselDraft {
  const next = layout.slice(0, TEMPLATE_LIMITS.carouselCardButtons);
  return { ...draft, layout: next, cards: draft.cards.map((card) => ({ ...card, buttons: next.map((_, i) => card.buttons[i] ?? emptyButton()) })) };
}

// ---------- Meta's format ----------

function button(kind: CarouselButtonKind, value: CardButtonDraft): Record<string, unknown> {
  if (kind === 'QUICK_REPLY') return { type: 'QUICK_REPLY', text: value.text.trim() };
  if (kind === 'PHONE_NUMBER') return { type: 'PHONE_NUMBER', text: value.text.trim(), phone_number: value.phone.trim() };
  const url = value.url.trim();
  return variablesIn(url).length > 0 && value.urlExample.trim() ? { type: 'URL', text: value.text.trim(), url, example: [value.urlExample.trim()] } : { type: 'URL', text: value.text.trim(), url };
}

function body(text: string, examples: string[]): Record<string, unknown> {
  const values = examplesFor(text, examples).map((v) => v.trim());
  return values.length > 0 ? { type: 'BODY', text, example: { body_text: [values] } } : { type: 'BODY', text };
}

export function carouselComponents(draft: CarouselDraft): TemplateComponent[] {
  return [
    body(draft.body, draft.bodyExamples),
    {
      type: 'CAROUSEL',
      cards: draft.cards.map((card) => ({
        components: [
          card.media?.handle ? { type: 'HEADER', format: draft.headerFormat, example: { header_handle: [card.media.handle] } } : { type: 'HEADER', format: draft.headerFormat },
          body(card.body, card.bodyExamples),
          { type: 'BUTTONS', buttons: draft.layout.map((kind, i) => button(kind, card.buttons[i] ?? emptyButton())) },
        ],
      })),
    },
  ] as TemplateComponent[];
}

/** The body of POST /api/whatsapp-template/submit_carousel_template/ (spec §7). */
export function carouselSubmission(draft: CarouselDraft, phoneNumber: string): CarouselSubmission {
  return { name: draft.name.trim(), language: draft.language.trim(), category: 'MARKETING', components: carouselComponents(draft), phone_number: phoneNumber };
}

// ---------- errors per field ----------

/** Where a contract path lands: name, language, body, bodyExamples[.N], cards, cards.N, cards.N.media|body|bodyExamples[.M]|buttons|buttons.K.text|url|urlExample|phone, form. */
export function carouselFieldOfPath(path: string): string {
  if (path === 'name' || path === 'language' || path === 'phone_number') return path;
  if (path === 'category') return 'form';
  if (path === 'components') return 'cards';
  const top = /^components\.0(?:\.(.*))?$/.exec(path);
  if (top) {
    const example = /^example\.body_text(?:\.0\.(\d+))?/.exec(top[1] ?? '');
    if (example) return example[1] !== undefined ? `bodyExamples.${example[1]}` : 'bodyExamples';
    return 'body';
  }
  const cards = /^components\.1(?:\.cards(?:\.(\d+)(?:\.components(?:\.(\d+)(?:\.(.*))?)?)?)?)?$/.exec(path);
  if (!cards) return 'form';
  const [, card, component, rest = ''] = cards;
  if (card === undefined) return 'cards';
  const at = `cards.${card}`;
  if (component === undefined) return at;
  // Each card is [HEADER, BODY, BUTTONS] in that order (carouselComponents).
  if (component === '0') return `${at}.media`;
  if (component === '1') {
    const example = /^example\.body_text(?:\.0\.(\d+))?/.exec(rest);
    if (example) return example[1] !== undefined ? `${at}.bodyExamples.${example[1]}` : `${at}.bodyExamples`;
    return `${at}.body`;
  }
  const b = /^buttons\.(\d+)(?:\.(\w+))?/.exec(rest);
  if (!b) return `${at}.buttons`;
  const field = b[2] ? ({ text: 'text', url: 'url', phone_number: 'phone', example: 'urlExample' } as Record<string, string>)[b[2]] : undefined;
  return field ? `${at}.buttons.${b[1]}.${field}` : `${at}.buttons`;
}

export function carouselErrors(draft: CarouselDraft, editing = false): Record<string, string> {
  const result = editing ? TemplateEdit.safeParse({ category: 'MARKETING', components: carouselComponents(draft) }) : CarouselSubmission.safeParse(carouselSubmission(draft, 'preview'));
  const errors: Record<string, string> = {};
  for (const [path, messages] of Object.entries(templateErrors(result))) {
    const field = carouselFieldOfPath(path);
    if (field === 'phone_number') continue;
    errors[field] ??= messages[0];
  }
  if (draft.layout.length === 0) errors.layout ??= 'Each carousel card needs at least one button.';
  draft.cards.forEach((card, i) => {
    if (card.body.length > CARD_BODY_LIMIT) errors[`cards.${i}.body`] ??= `Ensure this field has no more than ${CARD_BODY_LIMIT} characters.`;
    if (!card.media?.handle) errors[`cards.${i}.media`] ??= `Upload a sample ${draft.headerFormat.toLowerCase()} for this card.`;
  });
  return errors;
}

// ---------- from an existing carousel (edit, duplicate) ----------

export function carouselFromTemplate(template: Pick<WhatsAppTemplate, 'name' | 'language' | 'components'>): CarouselDraft {
  const draft = initialCarousel();
  draft.name = template.name;
  draft.language = template.language;
  const top = template.components.find((c) => c.type === 'BODY');
  if (top && top.type === 'BODY') {
    draft.body = top.text ?? '';
    draft.bodyExamples = top.example?.body_text?.[0] ?? [];
  }
  const carousel = template.components.find((c) => c.type === 'CAROUSEL');
  if (!carousel || carousel.type !== 'CAROUSEL') return draft;
  const first = carousel.cards[0]?.components ?? [];
  const header = first.find((c) => c.type === 'HEADER');
  if (header && header.type === 'HEADER' && header.format === 'VIDEO') draft.headerFormat = 'VIDEO';
  const firstButtons = first.find((c) => c.type === 'BUTTONS');
  draft.layout = firstButtons && firstButtons.type === 'BUTTONS' ? (firstButtons.buttons.map((b) => b.type).filter((t): t is CarouselButtonKind => (CAROUSEL_BUTTON_KINDS as string[]).includes(t)) as CarouselButtonKind[]) : [];
  draft.cards = carousel.cards.map((card) => {
    const next = newCard(draft.layout);
    for (const component of card.components) {
      if (component.type === 'HEADER') {
        const handle = component.example?.header_handle?.[0];
        if (handle) next.media = { handle, previewUrl: /^https?:\/\//.test(handle) ? handle : null, fileName: '', fileType: '' };
      }
      if (component.type === 'BODY') {
        next.body = component.text ?? '';
        next.bodyExamples = component.example?.body_text?.[0] ?? [];
      }
      if (component.type === 'BUTTONS') {
        next.buttons = component.buttons.map((b) => ({
          text: 'text' in b && typeof b.text === 'string' ? b.text : '',
          url: b.type === 'URL' ? b.url : 'https://',
          urlExample: b.type === 'URL' ? (b.example?.[0] ?? '') : '',
          phone: b.type === 'PHONE_NUMBER' ? b.phone_number : '',
        }));
      }
    }
    return next;
  });
  return draft;
}
