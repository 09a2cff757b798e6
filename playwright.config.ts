import { defineConfig } from '@playwright/test';
// CHROMIUM_PATH, Debian's Chromium, Google's Chrome, else Playwright's own: the lookup `npm test` checks first.
import { findChromium } from './scripts/chromium.mjs';
import { consoleBuildDir, E2E_PORT, serverBuildDir } from './tests/e2e/support/consoleBuild';

const port = E2E_PORT;
const baseURL = `http://localhost:${port}`;
// E2E_TIMEZONE runs the browser and the server in that zone (an IANA name such as Etc/GMT+6): the suite run where it
// is just past midnight catches a test that holds only at some hours (CI runs at any hour; docs/testing.md).
const timezone = process.env.E2E_TIMEZONE;

export default defineConfig({
  testDir: 'tests/e2e',
  // Per port, like the build folder: a run on another port cleaning its results never deletes this run's traces.
  outputDir: `test-results-${port}`,
  // Budgets against a hang, not a measure of speed: the CI machine (2 shared cores) ran tests that take
  // 25-45 s here at 60-70 s (session 8's fresh-clone runs timed out two of them at 60 s), and a session-13
  // run on a slower day took 3-5 times the usual (a 25-s walk took 2.2 min at load 10); a long walk sets its
  // own budget on top of these.
  timeout: 240_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  // Three on the 2-core machine: with two, the cores were about 80 % busy (a worker waits on the server's clocks:
  // a broadcast's scheduled minute, a restart, a reconnect), with three about 98 %. The whole suite took 438 s
  // against 551 s with two (issue #20, together with the traces below); every budget above still holds.
  workers: 3,
  // No retries: a test that fails once fails the run, and is fixed at its cause.
  retries: 0,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL,
    // A failed test keeps its trace's actions, network, console and sources, not its screencast nor its DOM
    // snapshots: on the CI machine's two cores, recording the screencast of every page of every test took about
    // half as much CPU again as the browser itself (the GPU process encoding frames; 15 s against 10 s of
    // Chromium CPU for a 40-s walk), and the DOM snapshots before and after each action about a tenth of the
    // tests' time (19 tests: 205 and 204 s with them, 185 s without). The failure's own screenshot and its
    // error context (the page's accessibility tree at the failure) are still written.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false, sources: true },
    screenshot: 'only-on-failure',
    // The console follows the system's "reduce motion" (src/core/theme/theme.ts): no transitions to wait out
    // before a dialog, a menu or a drawer can be used, and no frames painted for them on two shared cores.
    reducedMotion: 'reduce',
    ...(timezone ? { timezoneId: timezone } : {}),
    launchOptions: {
      executablePath: findChromium(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
  // The same server `npm start` runs (build the console and the server, then the compiled server), on a fresh embedded database.
  webServer: {
    command: `rm -rf .test-data/e2e-${port} && npm start`,
    url: `${baseURL}/api/health/`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: `.test-data/e2e-${port}`,
      PUBLIC_URL: baseURL,
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      CONSOLE_FEATURES: 'branching_flows', // the operator's override: the branching view (off at start-up) is tested on
      // Each port builds its own console, so two runs side by side never overwrite each other's files.
      VITE_OUT_DIR: consoleBuildDir(port),
      STATIC_DIR: consoleBuildDir(port),
      SERVER_OUT_DIR: serverBuildDir(port),
      ...(timezone ? { TZ: timezone } : {}),
    },
  },
});
