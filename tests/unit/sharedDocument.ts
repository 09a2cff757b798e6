/**
 * The console project runs with `isolate: false` (vite.config.ts): a worker loads react-admin, MUI and the
 * console once and runs file after file with them, in one jsdom document (vitest sets the environment up once
 * per worker). Loading them once per file was 116 of the project's 177 s (issue #20).
 *
 * What a file leaves in that document must not reach the next one, so after each file:
 * - emotion's style sheet is emptied and its memory of inserted rules forgotten. Left alone, every file's rules
 *   piled up in <head>, and jsdom's getComputedStyle (which Testing Library's role queries call on each
 *   ancestor) walks every rule: the run took 324 s instead of 83 s, each file slower than the one before.
 * - <head>, the storages (a file that chose French left `console.locale` for the next) and the address are reset;
 * - a global the file defined (a ResizeObserver polyfill, a fake Google SDK) is removed. Names starting with
 *   `__` are the flags libraries set once when they load (emotion's, tslib's helpers, zod's registry): they stay
 *   with the modules that set them.
 */
type EmotionCache = { sheet: { flush(): void; insert(rule: string): void }; inserted: Record<string, unknown> };

/** The default emotion cache MUI renders with (no CacheProvider in the console), read through emotion's own accessor. */
export async function emotionCache(): Promise<EmotionCache | undefined> {
  const [{ withEmotionCache }, { createElement }, { renderToStaticMarkup }] = await Promise.all([
    import('@emotion/react'),
    import('react'),
    import('react-dom/server'),
  ]);
  let cache: EmotionCache | undefined;
  const Read = withEmotionCache((_props: object, current) => {
    cache = current as unknown as EmotionCache;
    return null;
  });
  renderToStaticMarkup(createElement(Read));
  return cache;
}

const KEPT_GLOBALS = new Set(['IS_REACT_ACT_ENVIRONMENT']);

/** After a jsdom file (the node files of both projects share only modules and the clock, which realTimersGuard checks). */
export async function resetSharedDocument(globalsAtStart: ReadonlySet<string>): Promise<void> {
  if (typeof document === 'undefined') return;
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    if (!globalsAtStart.has(name) && !name.startsWith('__') && !KEPT_GLOBALS.has(name)) delete (globalThis as Record<string, unknown>)[name];
  }
  const cache = await emotionCache();
  if (cache) {
    cache.sheet.flush();
    for (const key of Object.keys(cache.inserted)) delete cache.inserted[key];
  }
  document.head.replaceChildren();
  document.body.replaceChildren();
  for (const attribute of [...document.documentElement.attributes]) document.documentElement.removeAttribute(attribute.name);
  document.title = '';
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
}
