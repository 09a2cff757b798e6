import { describe, expect, it } from 'vitest';
import { FLOW_MESSAGES } from '../../../contract/flows';
import { translations } from './translations';

function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) => (typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`]));
}

describe('flows translations', () => {
  it('French has every English key', () => {
    expect(new Set(keys(translations.fr))).toEqual(new Set(keys(translations.en)));
  });
  it('keeps the spec strings (§8) verbatim', () => {
    expect(translations.en.flows.editor.updated).toBe(FLOW_MESSAGES.updated);
    expect(translations.en.flows.editor.updated).toBe('Success : flow has been updated!');
  });
  it("the rule messages are the contract's in English", () => {
    expect(translations.en.flows.rules.blank).toBe('This field may not be blank.');
    expect(translations.en.flows.rules.url).toBe(FLOW_MESSAGES.invalidUrl);
    expect(translations.en.flows.rules.unknownStep).toBe(FLOW_MESSAGES.unknownStep);
    expect(translations.en.flows.rules.duplicateStep).toBe(FLOW_MESSAGES.duplicateStep);
  });
});
