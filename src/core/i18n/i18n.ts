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
  for (const extra of options.extra ?? []) resources = mergeResources(resources, withPlurals(extra));

  instance.use(initReactI18next).init({
    initAsync: false,
    lng: savedLocale(storage),
    fallbackLng: DEFAULT_LOCALE,
    resources: Object.fromEntries(Object.entries(resources).map(([l, msgs]) => [l, { translation: msgs }])),
    interpolation: { prefix: '%{', suffix: '}', escapeValue: false }, // React escapes; Polyglot-style placeholders
    nsSeparator: false, // labels may contain ':' ("Error : …")
    returnNull: false,
    // A language change re-renders every translated component. A plugin's bundle arriving does not: what shows its
    // strings waits for it inside PluginStrings, which renders again when it is there. Bound to the store's 'added',
    // react-i18next re-rendered the whole shell synchronously for each bundle of a load (its useSyncExternalStore
    // updates cannot be deferred): 42 + 24 ms of a /dashboard load at 4× CPU, bench/bundle README.
    react: { bindI18n: 'languageChanged', bindI18nStore: '' },
  });

  const bundles = createBundleLoader(instance);

  const provider: I18nProvider = {
    translate(key, opts = {}) {
      const { _: defaultValue, smart_count, ...rest } = opts as Record<string, unknown>;
      const params: Record<string, unknown> = { ...rest, smart_count };
      if (defaultValue !== undefined) params.defaultValue = defaultValue;
      if (typeof smart_count === 'number') params.count = smart_count;
      return String(instance.t(key, params as never));
    },
    async changeLocale(locale) {
      storage?.setItem(LOCALE_STORAGE_KEY, locale);
      // The opened plugins' strings in the new language first, so no page shows keys meanwhile.
      await bundles.loadOpened(locale);
      await instance.changeLanguage(locale);
    },
    getLocale: () => instance.language,
    getLocales: () => LOCALES,
  };

  return {
    i18n: instance,
    provider,
    addResources(extra) {
      for (const [locale, messages] of Object.entries(extra)) {
        addStrings(instance, locale, messages);
      }
    },
    registerBundle: bundles.register,
    loadBundles: bundles.load,
    bundlesReady: bundles.ready,
  };
}

type Loaders = Record<string, () => Promise<Record<string, unknown>>>;

/** Strings added after start-up (a plugin's, eager or lazy), merged deep over the language's, plurals as at start-up. */
function addStrings(instance: I18next, locale: string, messages: unknown): void {
  instance.addResourceBundle(locale, 'translation', polyglotToI18next(messages as never), true, true);
}

/**
 * Plugins' lazily loaded strings (ConsolePlugin.lazyTranslations): one loader per locale (a missing
 * locale loads the English one), called when a page of the plugin first opens
 * (src/core/routing/pluginRoutes.tsx), for the current language only. Bundles once opened are "opened": a language change (the provider's changeLocale,
 * or i18next's languageChanged) loads them in the new language too.
 */
function createBundleLoader(instance: I18next) {
  const loaders = new Map<string, Loaders>();
  const opened = new Set<string>();
  const loaded = new Map<string, Promise<void>>(); // `${locale}:${id}`
  const done = new Set<string>();

  function loadOne(id: string, locale: string): Promise<void> {
    const key = `${locale}:${id}`;
    let promise = loaded.get(key);
    if (!promise) {
      const loader = loaders.get(id)?.[locale] ?? loaders.get(id)?.[DEFAULT_LOCALE];
      promise = (loader ? loader() : Promise.resolve(undefined)).then(
        (messages) => {
          if (messages) addStrings(instance, locale, messages);
          done.add(key);
        },
        (error: unknown) => {
          loaded.delete(key); // a failed chunk load (offline) is tried again on the next visit
          throw error;
        },
      );
      loaded.set(key, promise);
    }
    return promise;
  }

  const currentLocale = () => instance.language || DEFAULT_LOCALE;

  function load(ids: readonly string[], locale = currentLocale()): Promise<void> {
    const wanted = ids.filter((id) => loaders.has(id));
    for (const id of wanted) opened.add(id);
    return Promise.all(wanted.map((id) => loadOne(id, locale))).then(() => undefined);
  }

  instance.on('languageChanged', (locale) => {
    if (opened.size) void load([...opened], locale).catch(() => undefined);
  });

  return {
    register(id: string, bundle: Loaders) {
      loaders.set(id, bundle);
    },
    load: (ids: readonly string[]) => load(ids),
    loadOpened: (locale: string) => load([...opened], locale),
    ready(ids: readonly string[]) {
      const locale = currentLocale();
      return ids.every((id) => !loaders.has(id) || done.has(`${locale}:${id}`));
    },
  };
}

/**
 * Plugins name their resources as react-admin does, "Contact |||| Contacts": react-admin asks for the name with a
 * count (its "No %{name} found" line), so their strings get i18next's plural keys as react-admin's own do.
 */
function withPlurals(resources: Resources): Resources {
  return Object.fromEntries(Object.entries(resources).map(([locale, messages]) => [locale, polyglotToI18next(messages as never)]));
}

function mergeResources(a: Resources, b: Resources): Resources {
  const out: Resources = { ...a };
  for (const [locale, messages] of Object.entries(b)) out[locale] = deepMerge(out[locale] ?? {}, messages);
  return out;
}
