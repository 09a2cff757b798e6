import { describe, expect, it } from 'vitest';
import { AGENT_TEMPLATE_CREATE_ERROR } from '../../../../contract/agentTemplates';
import { savedRepliesTranslations } from './translations';

function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) => (typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`]));
}

describe('saved replies translations', () => {
  it('French has every English key', () => {
    expect(new Set(keys(savedRepliesTranslations.fr))).toEqual(new Set(keys(savedRepliesTranslations.en)));
  });

  it('keeps the spec strings verbatim (misspelling included)', () => {
    expect(savedRepliesTranslations.en.errors.create).toBe(AGENT_TEMPLATE_CREATE_ERROR);
    expect(AGENT_TEMPLATE_CREATE_ERROR).toBe('Error occured while creating agent template');
    expect(savedRepliesTranslations.en.created).toBe('Template successfully created.');
    expect(savedRepliesTranslations.en.updated).toBe('Successfully updated template.');
    expect(savedRepliesTranslations.en.deleted).toBe('Successfully deleted template.');
    expect(savedRepliesTranslations.en.errors.update).toBe('Error while updating template.');
    expect(savedRepliesTranslations.en.errors.delete).toBe('Error while deleting template.');
  });
});
