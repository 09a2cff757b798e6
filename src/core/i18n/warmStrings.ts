/**
 * Plugins' lazy strings fetched before the console exists. The shell warms the page it opens on (routing/warmRoute.ts)
 * while its first render waits; the i18n API created after it takes what arrived when the plugin registers its bundle
 * (i18n.ts), so the page renders at once. Otherwise PluginStrings suspends for strings whose chunk is already there:
 * a fallback is shown, and React holds the page back until 300 ms after it (bench/bundle README, the open room).
 */
type Messages = Record<string, unknown>;
type Loader = () => Promise<Messages>;

const fetching = new WeakMap<Loader, Promise<Messages>>();
const arrived = new WeakMap<Loader, Messages>();

/** Calls a plugin's loader for a locale once; a failure is forgotten (the page's own load tries again). */
export function warmStrings(loader: Loader): Promise<Messages> {
  let promise = fetching.get(loader);
  if (!promise) {
    promise = loader().then(
      (messages) => {
        arrived.set(loader, messages);
        return messages;
      },
      (error: unknown) => {
        fetching.delete(loader);
        throw error;
      },
    );
    fetching.set(loader, promise);
  }
  return promise;
}

/** What a warmed loader gave, if it has arrived. */
export function warmedStrings(loader: Loader): Messages | undefined {
  return arrived.get(loader);
}

/** The warm load of a loader still on its way, for the i18n API to share rather than call the loader again. */
export function warmingStrings(loader: Loader): Promise<Messages> | undefined {
  return fetching.get(loader);
}
