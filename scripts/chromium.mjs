// The Chromium the end-to-end tests run in, found once for `npm test` (scripts/test-all.mjs) and
// playwright.config.ts alike: CHROMIUM_PATH, then Debian's headless shell, then Debian's or Google's
// full browser at their usual paths, then Playwright's own download. Without the headless shell, `npm test`
// installs Debian's when it can (root with apt-get); without any Chromium and no way to install one, it
// stops at once with the one command to run.
//
// Why the headless shell first: it is the same Chromium (Debian builds both from one source, same version)
// without the full browser's windowing, GPU and utility processes around the renderer, which is what
// Playwright itself runs headless tests in. On the 2-core CI machine the same 16 end-to-end tests took
// 328–368 CPU seconds in it against 426–451 in the full browser, alternating (docs/testing.md).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ensureDebianTool } from './debianTool.mjs';

export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const SYSTEM_CHROMIUMS = [HEADLESS_SHELL, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

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
  if (exists('/usr/bin/apt-get')) return `${isRoot ? '' : 'sudo '}apt-get install -y chromium-headless-shell`;
  return 'npx playwright install chromium';
}

/**
 * A Chromium for the end-to-end tests: CHROMIUM_PATH when set (reported when wrong, never replaced);
 * else Debian's headless shell, found or installed (root with apt-get: the README's `npm install && npm test`
 * on a bare machine); else any other Chromium found. Returns `{ path }` or `{ error }`, the error being one
 * line naming the command to run.
 */
export function ensureChromium({
  env = process.env,
  exists = existsSync,
  isRoot = process.getuid?.() === 0,
  run = spawnSync,
  log = console.log,
  playwrightPath = playwrightChromium,
} = {}) {
  const anyChromium = () => findChromium({ env, exists, playwrightPath });
  const tool = {
    purpose: 'the end-to-end tests',
    envVar: 'CHROMIUM_PATH',
    fixEnvVar: 'point it at a Chromium or Chrome',
    aptPackage: 'chromium-headless-shell',
    aptCommand: 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null',
    installHint,
  };
  if (env.CHROMIUM_PATH) return ensureDebianTool({ ...tool, name: 'Chromium', find: anyChromium }, { env, exists, isRoot, run, log });
  const shell = ensureDebianTool(
    { ...tool, name: "Chromium's headless shell", find: () => (exists(HEADLESS_SHELL) ? HEADLESS_SHELL : undefined) },
    { env, exists, isRoot, run, log },
  );
  if (shell.path) return shell;
  const other = anyChromium();
  return other ? { path: other } : { error: `No Chromium for the end-to-end tests. Run: ${installHint({ exists, isRoot })}` };
}
