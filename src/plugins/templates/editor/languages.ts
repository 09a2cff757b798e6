/**
 * The languages Meta accepts for message templates, by Meta's code (WhatsApp Cloud API, "Supported
 * languages"). Names are shown in the console's language with Intl.DisplayNames.
 */
export const META_LANGUAGES = [
  'af', 'sq', 'ar', 'az', 'bn', 'bg', 'ca', 'zh_CN', 'zh_HK', 'zh_TW', 'hr', 'cs', 'da', 'nl', 'en', 'en_GB', 'en_US',
  'et', 'fil', 'fi', 'fr', 'ka', 'de', 'el', 'gu', 'ha', 'he', 'hi', 'hu', 'id', 'ga', 'it', 'ja', 'kn', 'kk', 'rw_RW',
  'ko', 'ky_KG', 'lo', 'lv', 'lt', 'mk', 'ms', 'ml', 'mr', 'nb', 'fa', 'pl', 'pt_BR', 'pt_PT', 'pa', 'ro', 'ru', 'sr',
  'sk', 'sl', 'es', 'es_AR', 'es_ES', 'es_MX', 'sw', 'sv', 'ta', 'te', 'th', 'tr', 'uk', 'ur', 'uz', 'vi', 'zu',
] as const;

/** "English (United States) — en_US" in the given UI locale (the code alone when the runtime has no names). */
export function languageLabel(code: string, uiLocale: string): string {
  try {
    const names = new Intl.DisplayNames([uiLocale], { type: 'language' });
    const name = names.of(code.replace('_', '-'));
    return name && name !== code ? `${name} — ${code}` : code;
  } catch {
    return code;
  }
}
