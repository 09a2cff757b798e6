/** The end-to-end tests' browser lookup (scripts/chromium.mjs), shared by `npm test` and playwright.config.ts. */
import { describe, expect, it, vi } from 'vitest';
import { ensureChromium, findChromium, installHint } from '../../scripts/chromium.mjs';

const only = (...paths: string[]) => (path: string) => paths.includes(path);
const noPlaywright = () => null;

describe('findChromium', () => {
  it('takes CHROMIUM_PATH when it exists, and nothing else when it does not', () => {
    expect(findChromium({ env: { CHROMIUM_PATH: '/opt/chrome' }, exists: only('/opt/chrome', '/usr/bin/chromium'), playwrightPath: noPlaywright })).toBe('/opt/chrome');
    expect(findChromium({ env: { CHROMIUM_PATH: '/opt/none' }, exists: only('/usr/bin/chromium'), playwrightPath: noPlaywright })).toBeUndefined();
  });

  it("prefers Debian's Chromium, then Chromium's other names and Chrome, then Playwright's own", () => {
    const pw = () => '/root/.cache/ms-playwright/chromium/chrome';
    expect(findChromium({ env: {}, exists: only('/usr/bin/google-chrome', '/usr/bin/chromium', pw()), playwrightPath: pw })).toBe('/usr/bin/chromium');
    expect(findChromium({ env: {}, exists: only('/usr/bin/google-chrome', pw()), playwrightPath: pw })).toBe('/usr/bin/google-chrome');
    expect(findChromium({ env: {}, exists: only(pw()), playwrightPath: pw })).toBe(pw());
    expect(findChromium({ env: {}, exists: only(), playwrightPath: pw })).toBeUndefined();
  });
});

describe('ensureChromium', () => {
  it("installs Debian's Chromium as root with apt-get, then finds it", () => {
    const installed = new Set(['/usr/bin/apt-get']);
    const run = vi.fn(() => {
      installed.add('/usr/bin/chromium');
      return { status: 0 };
    });
    const result = ensureChromium({ env: {}, exists: (p) => installed.has(p), isRoot: true, run, log: () => {} });
    expect(result).toEqual({ path: '/usr/bin/chromium' });
    expect(run).toHaveBeenCalledWith('sh', ['-c', expect.stringContaining('apt-get install -y -qq chromium')], expect.anything());
  });

  it('stops with the one command to run when it cannot install', () => {
    const run = vi.fn(() => ({ status: 100 }));
    const notRoot = ensureChromium({ env: {}, exists: only('/usr/bin/apt-get'), isRoot: false, run, log: () => {} });
    expect(notRoot).toEqual({ error: 'No Chromium for the end-to-end tests. Run: sudo apt-get install -y chromium' });
    expect(run).not.toHaveBeenCalled();

    const failed = ensureChromium({ env: {}, exists: only('/usr/bin/apt-get'), isRoot: true, run, log: () => {} });
    expect(failed.error).toBe('No Chromium for the end-to-end tests. Run: apt-get install -y chromium');
    expect(ensureChromium({ env: {}, exists: only(), isRoot: false, run, log: () => {} }).error).toBe('No Chromium for the end-to-end tests. Run: npx playwright install chromium');
  });

  it('reports a wrong CHROMIUM_PATH instead of installing another browser', () => {
    const run = vi.fn(() => ({ status: 0 }));
    const result = ensureChromium({ env: { CHROMIUM_PATH: '/opt/none' }, exists: only('/usr/bin/apt-get'), isRoot: true, run, log: () => {} });
    expect(result.error).toBe('No Chromium for the end-to-end tests: CHROMIUM_PATH=/opt/none does not exist (point it at a Chromium or Chrome, or unset it)');
    expect(run).not.toHaveBeenCalled();
    expect(installHint({ exists: only(), isRoot: true })).toBe('npx playwright install chromium');
  });
});
