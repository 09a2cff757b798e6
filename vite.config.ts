/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The console is a static bundle; the API and the socket live on the same origin in
// production (server/main.ts). In `npm run dev` Vite proxies them to the API server.
const apiTarget = process.env.API_PROXY_TARGET ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  // VITE_OUT_DIR: the end-to-end runs build into their own folder, so parallel runs never share a dist.
  // 'hidden': the .map files are written (for an error tracker) but the bundles do not point at them,
  // and the server serves them only in demo mode (server/core/consoleStatic.ts).
  build: { outDir: process.env.VITE_OUT_DIR ?? 'dist', sourcemap: 'hidden', chunkSizeWarningLimit: 2000 },
  server: {
    proxy: {
      '/api': apiTarget,
      '/account': apiTarget,
      '/dev': apiTarget,
      '/media': apiTarget,
      '/bot-service': apiTarget,
      '/socket': { target: apiTarget, ws: true },
    },
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'server/**/*.test.ts', 'contract/**/*.test.ts', 'tests/unit/**/*.test.{ts,tsx}'],
    environment: 'node',
    setupFiles: ['tests/unit/setup.ts'],
    testTimeout: 30_000,
    // Like Playwright's: in CI a failed test runs once more (a loaded shared database can slow one
    // past its wait); a test that fails twice fails the run, and the retry shows in the log.
    retry: process.env.CI ? 1 : 0,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
