// Vitest setup shared by every unit test (see vite.config.ts `test.setupFiles`).
import 'reflect-metadata';
import '@testing-library/jest-dom/vitest';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { emotionCache, resetSharedDocument } from './sharedDocument';
import { insertObservableRulesOnly } from './computedStyleRules';

// Testing Library only auto-cleans with vitest globals, which we do not enable.
afterEach(async () => {
  if (typeof document !== 'undefined') {
    const { cleanup } = await import('@testing-library/react');
    cleanup();
  }
});

// Component tests share 2 cores with the server suites: allow findBy*/waitFor more than the 1 s default
// before they fail, so a slow render under load is not taken for a missing element.
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 5_000 });
  // Only the rules jsdom can compute something from (tests/unit/computedStyleRules.ts).
  const sheet = (await emotionCache())?.sheet;
  if (sheet) insertObservableRulesOnly(sheet);
}

// Both projects run without isolation (vite.config.ts): the files of a worker share their globals and, for
// the jsdom ones, one document. Each file leaves them as a fresh worker would have them (tests/unit/sharedDocument.ts).
const globalsAtStart = new Set<string>();
beforeAll(() => {
  for (const name of Object.getOwnPropertyNames(globalThis)) globalsAtStart.add(name);
});
afterAll(async () => {
  await resetSharedDocument(globalsAtStart);
});
