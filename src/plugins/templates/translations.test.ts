import { describe, expect, it } from 'vitest';
import { TEMPLATE_CATEGORIES, TEMPLATE_QUALITY_SCORES, TEMPLATE_STATUSES } from '../../../contract/templates';
import { templatesTranslations } from './translations';

function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key.replace(/_(one|many|other)$/, '')}`],
  );
}

describe('templates translations', () => {
  it('French has every English key', () => {
    expect(new Set(keys(templatesTranslations.fr))).toEqual(new Set(keys(templatesTranslations.en)));
  });

  it('keeps the spec’s delete strings verbatim', () => {
    expect(templatesTranslations.en.templates.delete.success).toBe('Successfully deleted template.');
    expect(templatesTranslations.en.templates.delete.error).toBe('Error while deleting template.');
  });

  it('names every status, category and quality score Meta documents', () => {
    for (const status of TEMPLATE_STATUSES) expect(templatesTranslations.en.templates.status[status]).toBeTruthy();
    for (const category of TEMPLATE_CATEGORIES) expect(templatesTranslations.en.templates.category[category]).toBeTruthy();
    for (const score of TEMPLATE_QUALITY_SCORES) expect(templatesTranslations.en.templates.quality[score]).toBeTruthy();
  });
});
