import { editorTranslations } from './editor/translations';
import { templatesTranslations } from './translations';

/** Merges the list/setup/detail pages' and the editor's translations per locale. */
function merged(...parts: Record<string, Record<string, unknown>>[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const part of parts) {
    for (const [locale, keys] of Object.entries(part)) {
      const target = (out[locale] ??= {});
      for (const [key, value] of Object.entries(keys)) {
        const existing = target[key];
        target[key] = existing && typeof existing === 'object' && value && typeof value === 'object' ? { ...existing, ...value } : value;
      }
    }
  }
  return out;
}

/** The templates pages' strings per locale, loaded with the plugin's pages (index.ts) and with the pages showing its phone preview (broadcasts, flows). */
export const lazyTranslations = merged(templatesTranslations, editorTranslations);
