#!/usr/bin/env node
// `npm test`: every suite — type check, lint, unit and server integration (vitest), end-to-end (Playwright in
// a real Chromium against the server `npm start` runs) — then one closing line `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { ensureChromium } from './chromium.mjs';

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

function run(title, cmd, args, env = {}) {
  console.log(`\n=== ${title}: ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

/** The titles of the tests Playwright's JSON report marks flaky (failed, then passed on a retry). */
function flakyTitles(report) {
  const titles = [];
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) if (test.status === 'flaky') titles.push([...path, spec.title].join(' › '));
    }
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, [suite.title]);
  return titles;
}

function readJson(file) {
  try {
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
  } catch {
    return null;
  }
}

// 1. Types: a failing type check counts as one failed check.
const tsc = run('Type check', 'npm', ['run', '--silent', 'typecheck']);
if (tsc === 0) passed += 1;
else failed += 1;

// 1b. Lint: ESLint and the import boundaries (dependency-cruiser), one check like the type check.
const lint = run('Lint', 'npm', ['run', '--silent', 'lint']);
if (lint === 0) passed += 1;
else failed += 1;

// 2. Unit and server integration tests.
const vitestReport = `${reportDir}/vitest.json`;
const vitestStatus = run('Unit and server tests', 'npx', [
  'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`,
]);
const vitest = readJson(vitestReport);
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
  // A suite that failed to load has no tests but is a failure all the same.
  if (vitestStatus !== 0 && vitest.numFailedTests === 0) failed += Math.max(1, vitest.numFailedTestSuites ?? 1);
} else if (vitestStatus !== 0) failed += 1;

// 3. End-to-end tests (Playwright starts `npm start` itself, see playwright.config.ts).
const pwReport = `${reportDir}/playwright.json`;
const pwStatus = run('End-to-end tests', 'npx', ['playwright', 'test'], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: pwReport,
  // The browser found (or installed) above, so playwright.config.ts uses that very one.
  CHROMIUM_PATH: chromium.path,
});
const pw = readJson(pwReport);
if (pw?.stats) {
  // CI retries a failed end-to-end test once (playwright.config.ts): one that passed on its retry is `flaky`,
  // counted as passed and named here, so it is seen and fixed at its cause.
  passed += pw.stats.expected + (pw.stats.flaky ?? 0);
  failed += pw.stats.unexpected;
  skipped += pw.stats.skipped ?? 0;
  for (const title of flakyTitles(pw)) console.log(`flaky (passed on its retry): ${title}`);
  if (pwStatus !== 0 && pw.stats.unexpected === 0) failed += 1;
} else if (pwStatus !== 0) failed += 1;

console.log('');
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
