/**
 * The URL contract of the template editor and the carousel builder (issue #10; spec §2 routes
 * /templates/create-whatsapp-template/{category}/{type} and /templates/create-whatsapp-carousel).
 *
 * {category}: `marketing`, `utility` or `authentication` (Meta's category, lower case).
 * {type} — what the editor starts with (everything stays editable in the form):
 *   - `text`           a text header slot, body and footer;
 *   - `media`          an image header (video or document selectable) to upload;
 *   - `buttons`        body with quick-reply buttons ready (URL, phone, copy code addable);
 *   - `authentication` Meta's preset code body, code expiry and the copy-code / one-tap button
 *                      (the only type of the authentication category).
 *   - `carousel`       not an editor type: editorPath() sends it to the carousel builder
 *                      (marketing only, feature whatsapp_carousel).
 *
 * Query: `channel=<channel id>` (required: the WhatsApp number the template belongs to);
 * `template=<template id>` edits that template (Meta lets the components and, for a rejected or
 * paused template, the category change; never the name or the language);
 * `duplicate=<template id>` starts a new template prefilled from that one.
 */

export const EDITOR_CATEGORIES = ['marketing', 'utility', 'authentication'] as const;
export type EditorCategory = (typeof EDITOR_CATEGORIES)[number];

/** The editor's `{type}` slugs (documented above), plus `carousel` for the carousel builder. */
export const EDITOR_TYPES = ['text', 'media', 'buttons', 'authentication', 'carousel'] as const;
export type EditorType = (typeof EDITOR_TYPES)[number];

/** Which types each category offers. */
export function editorTypesFor(category: string): EditorType[] {
  const c = category.toLowerCase();
  if (c === 'authentication') return ['authentication'];
  if (c === 'marketing') return ['text', 'media', 'buttons', 'carousel'];
  return ['text', 'media', 'buttons'];
}

export const CAROUSEL_PATH = '/templates/create-whatsapp-carousel';
export const EDITOR_ROUTE = '/templates/create-whatsapp-template/:category/:type';

export interface EditorQuery {
  channel: number | string;
  /** Edit this template. */
  template?: number | string;
  /** Start a new template from this one. */
  duplicate?: number | string;
}

function withQuery(base: string, query?: EditorQuery | Record<string, string | number | undefined>): string {
  if (!query) return base;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const search = params.toString();
  return search ? `${base}?${search}` : base;
}

/**
 * The editor's path for a category and type (`carousel` → the carousel builder), e.g.
 * editorPath('MARKETING', 'media', { channel: 3 }) → /templates/create-whatsapp-template/marketing/media?channel=3.
 */
export function editorPath(category: string, type: EditorType, query?: EditorQuery | Record<string, string | number | undefined>): string {
  if (type === 'carousel') return withQuery(CAROUSEL_PATH, query);
  return withQuery(`/templates/create-whatsapp-template/${encodeURIComponent(category.toLowerCase())}/${encodeURIComponent(type)}`, query);
}

/** The carousel builder's path (`template` / `duplicate` work as in the editor). */
export function carouselPath(query: EditorQuery): string {
  return withQuery(CAROUSEL_PATH, query);
}

/** Reads `channel`, `template` and `duplicate` from a location search string. */
export function readEditorQuery(search: string): { channel: number | null; template: number | null; duplicate: number | null } {
  const params = new URLSearchParams(search);
  const id = (key: string) => {
    const value = params.get(key);
    return value && /^\d{1,9}$/.test(value) ? Number(value) : null;
  };
  return { channel: id('channel'), template: id('template'), duplicate: id('duplicate') };
}
