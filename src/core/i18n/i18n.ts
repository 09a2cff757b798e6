import i18next, { type i18n as I18next } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { I18nProvider, TranslationMessages } from 'react-admin';
import englishMessages from 'ra-language-english';
import frenchMessages from 'ra-language-french';
import type { I18nApi } from '../apis';
import { en } from './en';
import { fr } from './fr';
import { polyglotToI18next } from './polyglot';

export const LOCALE_STORAGE_KEY = 'console.locale';
export const LOCALES = [
  { locale: 'en', name: 'English' },
  { locale: 'fr', name: 'Français' },
];
const DEFAULT_LOCALE = 'en';

type Resources = Record<string, Record<string, unknown>>;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function deepMerge(target: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...target };
  for (const [k, v] of Object.entries(source)) {
    out[k] = isObject(v) && isObject(out[k]) ? deepMerge(out[k] as Record<string, unknown>, v) : v;
  }
  return out;
}

const raMessages: Record<string, TranslationMessages> = { en: englishMessages, fr: frenchMessages };

function savedLocale(storage: Storage | undefined): string {
  const saved = storage?.getItem(LOCALE_STORAGE_KEY);
  return saved && LOCALES.some((l) => l.locale === saved) ? saved : DEFAULT_LOCALE;
}

/**
 * One i18next instance for the whole console: react-admin translates through the I18nProvider
 * below, and pages use react-i18next's `useTranslation()` on the same instance.
 */
export function createI18nApi(options: { storage?: Storage; extra?: Resources[] } = {}): I18nApi {
  const storage = options.storage ?? (typeof localStorage !== 'undefined' ? localStorage : undefined);
  const instance: I18next = i18next.createInstance();
  let resources: Resources = {};
  for (const locale of Object.keys(raMessages)) {
    const core = locale === 'fr' ? fr : en;
    resources[locale] = deepMerge(polyglotToI18next(raMessages[locale] as never), core);
  }
  for (const extra of options.extra ?? []) resources = mergeResources(resources, extra);

  instance.use(initReactI18next).init({
    initAsync: false,
    lng: savedLocale(storage),
    fallbackLng: DEFAULT_LOCALE,
    resources: Object.fromEntries(Object.entries(resources).map(([l, msgs]) => [l, { translation: msgs }])),
    interpolation: { prefix: '%{', suffix: '}', escapeValue: false }, // React escapes; Polyglot-style placeholders
    nsSeparator: false, // labels may contain ':' ("Error : …")
    returnNull: false,
  });

  const provider: I18nProvider = {
    translate(key, opts = {}) {
      const { _: defaultValue, smart_count, ...rest } = opts as Record<string, unknown>;
      const params: Record<string, unknown> = { ...rest, smart_count };
      if (defaultValue !== undefined) params.defaultValue = defaultValue;
      if (typeof smart_count === 'number') params.count = smart_count;
      return String(instance.t(key, params as never));
    },
    changeLocale(locale) {
      storage?.setItem(LOCALE_STORAGE_KEY, locale);
      return instance.changeLanguage(locale).then(() => undefined);
    },
    getLocale: () => instance.language,
    getLocales: () => LOCALES,
  };

  return {
    i18n: instance,
    provider,
    addResources(extra) {
      for (const [locale, messages] of Object.entries(extra)) {
        instance.addResourceBundle(locale, 'translation', messages, true, true);
      }
    },
  };
}

function mergeResources(a: Resources, b: Resources): Resources {
  const out: Resources = { ...a };
  for (const [locale, messages] of Object.entries(b)) out[locale] = deepMerge(out[locale] ?? {}, messages);
  return out;
}
