import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEMPLATE_MESSAGES } from '../../../../contract/templates';
import { editorTranslations } from './translations';

function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key.replace(/_(one|many|other)$/, '')}`],
  );
}

/** Every `templates.editor.*` / `templates.carousel.*` key the editor, carousel and phone-preview files name (the preview lives in core, src/core/components/whatsappPreview, and keeps the templates' keys). */
function usedKeys(): string[] {
  const dirs = ['.', '../carousel', '../../../core/components/whatsappPreview'].map((d) => path.resolve(__dirname, d));
  const found = new Set<string>();
  for (const dir of dirs) {
    for (const file of readdirSync(dir).filter((f) => /\.tsx?$/.test(f) && !/\.test\./.test(f) && f !== 'translations.ts')) {
      for (const match of readFileSync(path.join(dir, file), 'utf8').matchAll(/'(templates\.(?:editor|carousel)\.[\w.]+[\w])'/g)) found.add(match[1]);
    }
  }
  return [...found];
}

describe('editor translations', () => {
  it('French has every English key', () => {
    expect(new Set(keys(editorTranslations.fr))).toEqual(new Set(keys(editorTranslations.en)));
  });

  it('has every key the pages use', () => {
    const known = new Set(keys(editorTranslations.en));
    expect(usedKeys().length).toBeGreaterThan(50);
    expect(usedKeys().filter((key) => !known.has(key))).toEqual([]);
  });

  it('keeps the spec strings verbatim', () => {
    const { editor } = editorTranslations.en.templates;
    expect(editor.created).toBe(TEMPLATE_MESSAGES.created);
    expect(editor.updated).toBe(TEMPLATE_MESSAGES.updated);
    expect(editor.updateError).toBe(TEMPLATE_MESSAGES.updateError);
  });
});
