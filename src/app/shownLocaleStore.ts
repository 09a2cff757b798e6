import type { Store } from 'react-admin';

/**
 * react-admin's store, whose `locale` defaults to the language the console is shown in.
 *
 * Why: react-admin's I18nContextProvider renders nothing on its first pass when the store's locale differs from
 * the i18n provider's, which it does for everyone who never chose a language (no stored locale), and then mounts
 * the whole console from an effect. That mount ran as a cascade of the commit before it: synchronous, the longest
 * task of a signed-in page's load (about 250 ms of rendering at 4× CPU, bench/bundle README). With the locale
 * known, the console mounts in its first render, which ConsoleShell starts as a transition (rendered in slices).
 * Nothing is written: a stored choice still wins, and the store stays as react-admin keeps it.
 */
export function withShownLocale(store: Store, shownLocale: () => string): Store {
  return {
    ...store,
    getItem<T>(key: string, defaultValue?: T): T | undefined {
      if (key === 'locale' && defaultValue === undefined) return store.getItem<T>(key, shownLocale() as T);
      return store.getItem<T>(key, defaultValue);
    },
  };
}
