import { describe, expect, it } from 'vitest';
import { BOT_MESSAGES } from '../../../contract/bots';
import { translations } from './translations';

function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) => (typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`]));
}

/** The spec writes `{error}`; i18next here reads `%{error}`. */
const spec = (text: string) => text.replace(/\{(\w+)\}/g, '%{$1}');

describe('bots translations', () => {
  it('French has every English key', () => {
    expect(new Set(keys(translations.fr))).toEqual(new Set(keys(translations.en)));
  });

  it('keeps the spec strings (§8) verbatim', () => {
    const en = translations.en.bots;
    expect(en.create.success).toBe(BOT_MESSAGES.botCreated);
    expect(en.delete.success).toBe(BOT_MESSAGES.botDeleted);
    expect(en.delete.error).toBe(spec(BOT_MESSAGES.errorDeletingBot));
    expect(en.fetchError).toBe(spec(BOT_MESSAGES.errorFetchingBot));
    expect(en.canvas.stepAdded).toBe(BOT_MESSAGES.stepAdded);
    expect(en.canvas.stepUpdated).toBe(BOT_MESSAGES.stepUpdated);
    expect(en.canvas.stepDeleted).toBe(BOT_MESSAGES.stepDeleted);
    expect(en.canvas.deleteError).toBe(spec(BOT_MESSAGES.couldNotDeleteStep));
    expect(en.canvas.updateError).toBe(spec(BOT_MESSAGES.errorUpdatingStep));
    expect(en.canvas.createError).toBe(spec(BOT_MESSAGES.errorCreatingSteps));
    expect(en.panel.actionCreated).toBe(BOT_MESSAGES.actionCreated);
    expect(en.panel.actionError).toBe(BOT_MESSAGES.errorCreatingAction);
    expect(en.operations.error).toBe(BOT_MESSAGES.couldNotGenerateFunction);
  });
});
