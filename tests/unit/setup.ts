// Vitest setup shared by every unit test (see vite.config.ts `test.setupFiles`).
import 'reflect-metadata';
import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';

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
}
