// The Chromium the end-to-end tests run in, found once for `npm test` (scripts/test-all.mjs) and
// playwright.config.ts alike: CHROMIUM_PATH, then Debian's or Google's at their usual paths, then
// Playwright's own download. Without one, `npm test` installs Debian's when it can (root with
// apt-get), else stops at once with the one command to run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ensureDebianTool } from './debianTool.mjs';

export const SYSTEM_CHROMIUMS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** Where Playwright keeps its own Chromium (whether downloaded or not), or null without playwright-core. */
function playwrightChromium() {
  try {
    return createRequire(import.meta.url)('playwright-core').chromium.executablePath() || null;
  } catch {
    return null;
  }
}

/**
 * The first Chromium that exists, or undefined. An explicit CHROMIUM_PATH is the only one looked at:
 * a wrong path is reported rather than silently replaced by another browser.
 */
export function findChromium({ env = process.env, exists = existsSync, playwrightPath = playwrightChromium } = {}) {
  if (env.CHROMIUM_PATH) return exists(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : undefined;
  const own = playwrightPath();
  return [...SYSTEM_CHROMIUMS, ...(own ? [own] : [])].find((p) => exists(p));
}

/** The one command that gets a Chromium on this machine. */
export function installHint({ exists = existsSync, isRoot = process.getuid?.() === 0 } = {}) {
  if (exists('/usr/bin/apt-get')) return `${isRoot ? '' : 'sudo '}apt-get install -y chromium`;
  return 'npx playwright install chromium';
}

/**
 * A Chromium for the end-to-end tests: found, or installed from Debian's packages when running as
 * root with apt-get (the README's `npm install && npm test` on a bare machine). Returns
 * `{ path }` or `{ error }`, the error being one line naming the command to run.
 */
export function ensureChromium({ env = process.env, exists = existsSync, isRoot = process.getuid?.() === 0, run = spawnSync, log = console.log } = {}) {
  return ensureDebianTool(
    {
      name: 'Chromium',
      purpose: 'the end-to-end tests',
      envVar: 'CHROMIUM_PATH',
      fixEnvVar: 'point it at a Chromium or Chrome',
      aptPackage: 'chromium',
      aptCommand: 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null',
      find: () => findChromium({ env, exists }),
      installHint,
    },
    { env, exists, isRoot, run, log },
  );
}
