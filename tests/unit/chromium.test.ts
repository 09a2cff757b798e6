/** The end-to-end tests' browser lookup (scripts/chromium.mjs), shared by `npm test` and playwright.config.ts. */
import { describe, expect, it, vi } from 'vitest';
import { ensureChromium, findChromium, HEADLESS_SHELL, installHint } from '../../scripts/chromium.mjs';

const only = (...paths: string[]) => (path: string) => paths.includes(path);
const noPlaywright = () => null;
const installs = (installed: Set<string>, ...paths: string[]) =>
  vi.fn(() => {
    for (const path of paths) installed.add(path);
    return { status: paths.length ? 0 : 100 };
  });

describe('findChromium', () => {
  it('takes CHROMIUM_PATH when it exists, and nothing else when it does not', () => {
    expect(findChromium({ env: { CHROMIUM_PATH: '/opt/chrome' }, exists: only('/opt/chrome', HEADLESS_SHELL), playwrightPath: noPlaywright })).toBe('/opt/chrome');
    expect(findChromium({ env: { CHROMIUM_PATH: '/opt/none' }, exists: only(HEADLESS_SHELL), playwrightPath: noPlaywright })).toBeUndefined();
  });

  it("prefers Debian's headless shell, then its full Chromium, Chromium's other names and Chrome, then Playwright's own", () => {
    const pw = () => '/root/.cache/ms-playwright/chromium/chrome';
    expect(findChromium({ env: {}, exists: only('/usr/bin/chromium', HEADLESS_SHELL, pw()), playwrightPath: pw })).toBe(HEADLESS_SHELL);
    expect(findChromium({ env: {}, exists: only('/usr/bin/google-chrome', '/usr/bin/chromium', pw()), playwrightPath: pw })).toBe('/usr/bin/chromium');
    expect(findChromium({ env: {}, exists: only('/usr/bin/google-chrome', pw()), playwrightPath: pw })).toBe('/usr/bin/google-chrome');
    expect(findChromium({ env: {}, exists: only(pw()), playwrightPath: pw })).toBe(pw());
    expect(findChromium({ env: {}, exists: only(), playwrightPath: pw })).toBeUndefined();
  });
});

describe('ensureChromium', () => {
  it("installs Debian's headless shell as root with apt-get, on a bare machine and beside a full Chromium", () => {
    for (const before of [[], ['/usr/bin/chromium']]) {
      const installed = new Set(['/usr/bin/apt-get', ...before]);
      const run = installs(installed, HEADLESS_SHELL);
      const result = ensureChromium({ env: {}, exists: (p) => installed.has(p), isRoot: true, run, log: () => {}, playwrightPath: noPlaywright });
      expect(result).toEqual({ path: HEADLESS_SHELL });
      expect(run).toHaveBeenCalledWith('sh', ['-c', expect.stringContaining('apt-get install -y -qq chromium-headless-shell')], expect.anything());
    }
  });

  it('runs in the full Chromium found when the headless shell cannot be installed', () => {
    const installed = new Set(['/usr/bin/apt-get', '/usr/bin/chromium']);
    const failing = installs(installed);
    expect(ensureChromium({ env: {}, exists: (p) => installed.has(p), isRoot: true, run: failing, log: () => {}, playwrightPath: noPlaywright })).toEqual({ path: '/usr/bin/chromium' });
    const notRun = vi.fn();
    expect(ensureChromium({ env: {}, exists: (p) => installed.has(p), isRoot: false, run: notRun, log: () => {}, playwrightPath: noPlaywright })).toEqual({ path: '/usr/bin/chromium' });
    expect(notRun).not.toHaveBeenCalled();
  });

  it('installs nothing when the headless shell is there', () => {
    const run = vi.fn();
    expect(ensureChromium({ env: {}, exists: only('/usr/bin/apt-get', HEADLESS_SHELL), isRoot: true, run, log: () => {}, playwrightPath: noPlaywright })).toEqual({ path: HEADLESS_SHELL });
    expect(run).not.toHaveBeenCalled();
  });

  it('stops with the one command to run when it finds no Chromium and cannot install one', () => {
    const run = vi.fn(() => ({ status: 100 }));
    const notRoot = ensureChromium({ env: {}, exists: only('/usr/bin/apt-get'), isRoot: false, run, log: () => {}, playwrightPath: noPlaywright });
    expect(notRoot).toEqual({ error: 'No Chromium for the end-to-end tests. Run: sudo apt-get install -y chromium-headless-shell' });
    expect(run).not.toHaveBeenCalled();

    const failed = ensureChromium({ env: {}, exists: only('/usr/bin/apt-get'), isRoot: true, run, log: () => {}, playwrightPath: noPlaywright });
    expect(failed.error).toBe('No Chromium for the end-to-end tests. Run: apt-get install -y chromium-headless-shell');
    expect(ensureChromium({ env: {}, exists: only(), isRoot: false, run, log: () => {}, playwrightPath: noPlaywright }).error).toBe(
      'No Chromium for the end-to-end tests. Run: npx playwright install chromium',
    );
  });

  it('reports a wrong CHROMIUM_PATH instead of installing another browser', () => {
    const run = vi.fn(() => ({ status: 0 }));
    const result = ensureChromium({ env: { CHROMIUM_PATH: '/opt/none' }, exists: only('/usr/bin/apt-get', HEADLESS_SHELL), isRoot: true, run, log: () => {} });
    expect(result.error).toBe('No Chromium for the end-to-end tests: CHROMIUM_PATH=/opt/none does not exist (point it at a Chromium or Chrome, or unset it)');
    expect(run).not.toHaveBeenCalled();
    expect(installHint({ exists: only(), isRoot: true })).toBe('npx playwright install chromium');
  });
});
