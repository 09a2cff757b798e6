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
