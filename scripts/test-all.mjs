#!/usr/bin/env node
// `npm test`: every suite — type check, lint, unit and server integration (vitest) with the cluster test (three
// built server processes behind HAProxy on PostgreSQL and Redis) beside it, end-to-end (Playwright in a real
// Chromium against the server `npm start` runs) — then one closing line `N passed, N failed`.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { ensureChromium } from './chromium.mjs';
import { ensureHaproxy } from './haproxy.mjs';
import { checkClusterServices } from './cluster-services.mjs';
import { failureDigest } from './failure-digest.mjs';

const testStarted = Date.now();

const reportDir = '.test-data/reports';
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

let passed = 0;
let failed = 0;
let skipped = 0;

// 0. A browser for the end-to-end tests, before minutes of other suites: found, installed (root with
// apt-get), or one line saying what to run — counted as a failure.
const chromium = ensureChromium();
if (chromium.error) {
  console.log(`\n${chromium.error}`);
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}

// 0b. HAProxy for the cluster test, the same way: found, installed (root with apt-get), or one line.
const haproxy = ensureHaproxy();
if (haproxy.error) {
  console.log(`\n${haproxy.error}`);
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}

/** Each phase says how long it took (issue #20: the whole run's time is a target). */
const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;

function readJson(file) {
  try {
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
  } catch {
    return null;
  }
}

/**
 * Starts a command whose output is kept and printed whole once `print` is awaited, so its log never interleaves
 * with the one running in the foreground. Resolves with the exit status.
 */
function startInBackground(title, cmd, args, env = {}) {
  const started = Date.now();
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  const status = new Promise((resolve) => {
    child.on('error', (err) => {
      output.push(Buffer.from(`${err.message}\n`));
      resolve(1);
    });
    child.on('close', (code) => {
      output.push(Buffer.from(`--- ${title}: ${seconds(started)}\n`));
      resolve(code ?? 1);
    });
  });
  return {
    async print() {
      const code = await status;
      console.log(`\n=== ${title}: ${cmd} ${args.join(' ')}`);
      process.stdout.write(Buffer.concat(output));
      return code;
    },
  };
}

/**
 * Runs commands side by side, each one's output printed whole once it ends (in the order given), so two logs
 * never interleave. For checks that each keep one core busy (tsc and ESLint are single-threaded): on the 2-core
 * machines of development and CI, two at once take the time of the longer one (issue #20).
 */
async function runSideBySide(steps) {
  const started = steps.map(({ title, cmd, args }) => startInBackground(title, cmd, args));
  const statuses = [];
  for (const step of started) statuses.push(await step.print());
  return statuses;
}

// 1. Types (the three projects of `npm run typecheck`, by their own scripts) and lint (ESLint, and the import
// boundaries by dependency-cruiser), in four steps side by side. Measured here (2026-12-01, CPU seconds): tsc of the
// console with its declarations 20 and of the end-to-end tests against them 2, of the server 23 (TypeScript 7's
// compiler: the `tsc` of node_modules/.bin is TypeScript 6's, a dependency of the lint's typescript6), ESLint 46,
// dependency-cruiser 10. `--force`: the console is checked whole, whatever an earlier check left in
// node_modules/.cache/tsc. The type check counts as one check, failed when any of its projects fails, and the lint
// as another.
const [consoleTypes, serverTypes, eslint, boundaries] = await runSideBySide([
  { title: 'Type check (console, end-to-end tests)', cmd: 'sh', args: ['-c', 'npm run --silent typecheck:console -- --force && npm run --silent typecheck:e2e'] },
  { title: 'Type check (server)', cmd: 'npm', args: ['run', '--silent', 'typecheck:server'] },
  { title: 'Lint (ESLint)', cmd: 'npm', args: ['run', '--silent', 'lint:eslint'] },
  { title: 'Lint (import boundaries)', cmd: 'npm', args: ['run', '--silent', 'lint:boundaries'] },
]);
for (const status of [consoleTypes === 0 && serverTypes === 0 ? 0 : 1, eslint === 0 && boundaries === 0 ? 0 : 1]) {
  if (status === 0) passed += 1;
  else failed += 1;
}

/** Adds a vitest JSON report to the counts. */
function countVitest(report, status) {
  const vitest = readJson(report);
  if (vitest) {
    passed += vitest.numPassedTests;
    failed += vitest.numFailedTests;
    skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
    // A suite that failed to load has no tests but is a failure all the same.
    if (status !== 0 && vitest.numFailedTests === 0) failed += Math.max(1, vitest.numFailedTestSuites ?? 1);
  } else if (status !== 0) failed += 1;
}

/** Runs a command in the foreground (its output straight to ours) without blocking this process's event loop. */
function runInForeground(title, cmd, args, env = {}) {
  console.log(`\n=== ${title}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', () => resolve(1));
    child.on('close', (code) => {
      console.log(`--- ${title}: ${seconds(started)}`);
      resolve(code ?? 1);
    });
  });
}

// 2. The cluster test (tests/cluster, issue #21), in the background while vitest runs: three built server
// processes started at once on a fresh PostgreSQL database and Redis, HAProxy in front. It spends most of its
// minute waiting on the product's own clocks (a 30-s lease after a kill -9, the 35-s presence bound, the 10-s
// resend age) with little CPU, so beside vitest it costs the run about nothing instead of a phase of its own
// (issue #20). Its server is built alone into a folder of its own (tests/cluster/globalSetup.ts, about 3 s).
// Without PostgreSQL or Redis: one line, one failure.
const clusterReport = `${reportDir}/cluster.json`;
const services = await checkClusterServices();
const cluster = services
  ? null
  : startInBackground('Cluster test (ran beside the unit and server tests)', 'npx', ['vitest', 'run', '--project', 'cluster', '--reporter=default', '--reporter=json', `--outputFile.json=${clusterReport}`], {
      HAPROXY_PATH: haproxy.path,
    });

// 3. Unit and server integration tests.
const vitestReport = `${reportDir}/vitest.json`;
const vitestStatus = await runInForeground('Unit and server tests', 'npx', [
  'vitest', 'run', '--project', 'console', '--project', 'server', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`,
]);
countVitest(vitestReport, vitestStatus);

if (services) {
  console.log(`\n=== Cluster test: ${services}`);
  failed += 1;
} else {
  countVitest(clusterReport, await cluster.print());
}

// 4. End-to-end tests (Playwright starts `npm start` itself, see playwright.config.ts).
const pwReport = `${reportDir}/playwright.json`;
const pwStatus = await runInForeground('End-to-end tests', 'npx', ['playwright', 'test'], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: pwReport,
  // The browser found (or installed) above, so playwright.config.ts uses that very one.
  CHROMIUM_PATH: chromium.path,
});
const pw = readJson(pwReport);
if (pw?.stats) {
  // No retries (playwright.config.ts), so no test should be `flaky`; one that is failed an attempt and counts as failed.
  passed += pw.stats.expected;
  failed += pw.stats.unexpected + (pw.stats.flaky ?? 0);
  skipped += pw.stats.skipped ?? 0;
  if (pwStatus !== 0 && pw.stats.unexpected + (pw.stats.flaky ?? 0) === 0) failed += 1;
} else if (pwStatus !== 0) failed += 1;

// What each failed end-to-end test's page showed, where the CI's tail of the output still holds it.
for (const line of failureDigest(pw)) console.log(line);

console.log(`\n--- npm test: ${seconds(testStarted)}`);
console.log('');
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
