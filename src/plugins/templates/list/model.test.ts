import { describe, expect, it } from 'vitest';
import { applyTemplateEvent, canCreateWithin, duplicatePath, editorPath, limitWarnings, statusColor, templateType, typesFor } from './model';

const limits = (creations: number, templates: number, max: number | null = 250) => ({ creations_last_hour: creations, creations_per_hour: 100, templates, templates_max: max });

describe('templates list rules', () => {
  it('colours each review status', () => {
    expect(statusColor('APPROVED')).toBe('success');
    expect(statusColor('PENDING')).toBe('info');
    expect(statusColor('PAUSED')).toBe('warning');
    expect(statusColor('REJECTED')).toBe('error');
    expect(statusColor('ARCHIVED')).toBe('default');
  });

  it('warns before Meta’s limits are hit, and says when one is reached', () => {
    expect(limitWarnings(limits(5, 8))).toEqual([]);
    expect(limitWarnings(limits(92, 8))).toEqual([{ kind: 'creationsNear', count: 8, max: 100 }]);
    expect(limitWarnings(limits(100, 245))).toEqual([
      { kind: 'creationsReached', max: 100 },
      { kind: 'templatesNear', count: 5, max: 250 },
    ]);
    expect(limitWarnings(limits(0, 250))).toEqual([{ kind: 'templatesReached', max: 250 }]);
    // A verified business has no template cap.
    expect(limitWarnings(limits(0, 900, null))).toEqual([]);
    expect(canCreateWithin(limits(100, 1))).toBe(false);
    expect(canCreateWithin(limits(99, 249))).toBe(true);
    expect(canCreateWithin(null)).toBe(true);
  });

  it('a live event replaces its row, removes a deleted one, and leaves other pages alone', () => {
    const rows = [{ id: 1, status: 'PENDING' }, { id: 2, status: 'APPROVED' }];
    expect(applyTemplateEvent(rows, { id: 1, status: 'APPROVED' })).toEqual([{ id: 1, status: 'APPROVED' }, { id: 2, status: 'APPROVED' }]);
    expect(applyTemplateEvent(rows, { id: 2, status: 'DELETED' })).toEqual([{ id: 1, status: 'PENDING' }]);
    expect(applyTemplateEvent(rows, { id: 3, status: 'APPROVED' })).toBe(rows);
  });

  it('offers the kinds of each category; carousels are marketing only', () => {
    expect(typesFor('MARKETING')).toEqual(['text', 'media', 'buttons', 'carousel']);
    expect(typesFor('UTILITY')).toEqual(['text', 'media', 'buttons']);
    expect(typesFor('AUTHENTICATION')).toEqual(['authentication']);
  });

  it('"duplicate as new" opens the editor (or the carousel builder) of the template’s kind with its id and channel', () => {
    const base = { id: 9, channel_id: 3 };
    expect(duplicatePath({ ...base, category: 'UTILITY', components: [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'x' }] })).toBe('/templates/create-whatsapp-template/utility/media?channel=3&duplicate=9');
    expect(duplicatePath({ ...base, category: 'MARKETING', components: [{ type: 'BODY', text: 'x' }, { type: 'CAROUSEL', cards: [] }] })).toBe('/templates/create-whatsapp-carousel?channel=3&duplicate=9');
    expect(templateType({ category: 'AUTHENTICATION', components: [] })).toBe('authentication');
    expect(templateType({ category: 'MARKETING', components: [{ type: 'BODY', text: 'x' }, { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Yes' }] }] })).toBe('buttons');
    expect(templateType({ category: 'MARKETING', components: [{ type: 'HEADER', format: 'TEXT', text: 'Hi' }, { type: 'BODY', text: 'x' }] })).toBe('text');
    expect(editorPath('MARKETING', 'text')).toBe('/templates/create-whatsapp-template/marketing/text');
  });
});
