/** Pure rules of the templates list and detail: status colours, limits, live events, duplicate links. */
import type { TemplateComponent, TemplateLimitsUsage, TemplateStatus, WhatsAppTemplate } from '../../../../contract/templates';

export type ChipColor = 'default' | 'success' | 'warning' | 'error' | 'info';

/** The chip colour of a review status. */
export function statusColor(status: TemplateStatus | string): ChipColor {
  switch (status) {
    case 'APPROVED':
    case 'REINSTATED':
      return 'success';
    case 'PENDING':
    case 'IN_APPEAL':
    case 'PENDING_DELETION':
      return 'info';
    case 'PAUSED':
    case 'FLAGGED':
    case 'LIMIT_EXCEEDED':
      return 'warning';
    case 'REJECTED':
    case 'DISABLED':
      return 'error';
    default:
      return 'default';
  }
}

export function qualityColor(score: string): ChipColor {
  return score === 'GREEN' ? 'success' : score === 'YELLOW' ? 'warning' : score === 'RED' ? 'error' : 'default';
}

/** Below this many remaining creations (or templates), the list warns before the limit is hit. */
export const NEAR_LIMIT = 10;

export type LimitWarning =
  | { kind: 'creationsReached'; max: number }
  | { kind: 'creationsNear'; count: number; max: number }
  | { kind: 'templatesReached'; max: number }
  | { kind: 'templatesNear'; count: number; max: number };

/** What the list warns about Meta's limits (hourly creations, templates of an unverified account). */
export function limitWarnings(limits: TemplateLimitsUsage | null | undefined): LimitWarning[] {
  if (!limits) return [];
  const out: LimitWarning[] = [];
  const creationsLeft = limits.creations_per_hour - limits.creations_last_hour;
  if (creationsLeft <= 0) out.push({ kind: 'creationsReached', max: limits.creations_per_hour });
  else if (creationsLeft <= NEAR_LIMIT) out.push({ kind: 'creationsNear', count: creationsLeft, max: limits.creations_per_hour });
  if (limits.templates_max !== null) {
    const left = limits.templates_max - limits.templates;
    if (left <= 0) out.push({ kind: 'templatesReached', max: limits.templates_max });
    else if (left <= NEAR_LIMIT) out.push({ kind: 'templatesNear', count: left, max: limits.templates_max });
  }
  return out;
}

/** True when a new template can be created now (neither limit reached). */
export function canCreateWithin(limits: TemplateLimitsUsage | null | undefined): boolean {
  return !limitWarnings(limits).some((w) => w.kind === 'creationsReached' || w.kind === 'templatesReached');
}

/**
 * A live `template_status` event (the whole template as the server now has it) applied to a page
 * of the list: the row is replaced, or removed when Meta deleted it. Returns the same array when
 * the template is not on the page.
 */
export function applyTemplateEvent<T extends Pick<WhatsAppTemplate, 'id'>>(rows: T[], event: T & { status?: string }): T[] {
  const index = rows.findIndex((r) => r.id === event.id);
  if (index < 0) return rows;
  if (event.status === 'DELETED') return rows.filter((r) => r.id !== event.id);
  return rows.map((r, i) => (i === index ? { ...r, ...event } : r));
}

/** The setup's template kinds (the editor's `{type}` path segment). */
export const TEMPLATE_TYPES = ['text', 'media', 'buttons', 'authentication', 'carousel'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

/** Which kinds each category allows (authentication is its own kind; carousels are marketing only). */
export function typesFor(category: string): TemplateType[] {
  if (category === 'AUTHENTICATION') return ['authentication'];
  if (category === 'MARKETING') return ['text', 'media', 'buttons', 'carousel'];
  return ['text', 'media', 'buttons'];
}

/** The kind of an existing template (for "duplicate as new"). */
export function templateType(template: Pick<WhatsAppTemplate, 'category' | 'components'>): TemplateType {
  if (template.category === 'AUTHENTICATION') return 'authentication';
  const components = template.components as TemplateComponent[];
  if (components.some((c) => c.type === 'CAROUSEL')) return 'carousel';
  const header = components.find((c) => c.type === 'HEADER');
  if (header && header.type === 'HEADER' && header.format !== 'TEXT') return 'media';
  if (components.some((c) => c.type === 'BUTTONS')) return 'buttons';
  return 'text';
}

/** The editor's (or the carousel builder's) path for a new template of this category and kind. */
export function editorPath(category: string, type: TemplateType, query?: Record<string, string | number>): string {
  const base = type === 'carousel' ? '/templates/create-whatsapp-carousel' : `/templates/create-whatsapp-template/${category.toLowerCase()}/${type}`;
  const search = query ? new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString() : '';
  return search ? `${base}?${search}` : base;
}

/** "Duplicate as new": the editor prefilled from this template (it reads `duplicate` and `channel`). */
export function duplicatePath(template: Pick<WhatsAppTemplate, 'id' | 'channel_id' | 'category' | 'components'>): string {
  return editorPath(template.category, templateType(template), { channel: template.channel_id, duplicate: template.id });
}

/** The detail page of a template. */
export function detailPath(template: Pick<WhatsAppTemplate, 'id' | 'channel_id'>): string {
  return `/templates/${template.channel_id}/${template.id}`;
}
