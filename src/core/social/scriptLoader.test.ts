// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SocialSdkUnavailableError } from '../apis';
import { createScriptLoader, SCRIPT_TIMEOUT_MS } from './scriptLoader';

const scripts = (url: string) => [...document.querySelectorAll('script')].filter((s) => s.getAttribute('src') === url);

describe('script loader', () => {
  beforeEach(() => document.head.querySelectorAll('script').forEach((s) => s.remove()));
  afterEach(() => vi.useRealTimers());

  it('adds one async script per URL and resolves on load; later calls reuse it', async () => {
    const loader = createScriptLoader();
    const first = loader.load('/dev/meta/sdk.js', 'facebook');
    const second = loader.load('/dev/meta/sdk.js', 'facebook');
    expect(second).toBe(first);
    const [script] = scripts('/dev/meta/sdk.js');
    expect(scripts('/dev/meta/sdk.js')).toHaveLength(1);
    expect(script.async).toBe(true);
    script.dispatchEvent(new Event('load'));
    await expect(first).resolves.toBeUndefined();
    await loader.load('/dev/meta/sdk.js', 'facebook');
    expect(scripts('/dev/meta/sdk.js')).toHaveLength(1);
  });

  it('rejects with SocialSdkUnavailableError on error, removes the element and retries next time', async () => {
    const loader = createScriptLoader();
    const url = 'https://connect.facebook.net/en_US/sdk.js';
    const attempt = loader.load(url, 'facebook');
    scripts(url)[0].dispatchEvent(new Event('error'));
    const error = await attempt.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SocialSdkUnavailableError);
    expect((error as SocialSdkUnavailableError).provider).toBe('facebook');
    expect(scripts(url)).toHaveLength(0);
    const retry = loader.load(url, 'facebook');
    expect(scripts(url)).toHaveLength(1);
    scripts(url)[0].dispatchEvent(new Event('load'));
    await expect(retry).resolves.toBeUndefined();
  });

  it('rejects after 15 s without a load event', async () => {
    vi.useFakeTimers();
    const loader = createScriptLoader();
    const attempt = loader.load('https://accounts.google.com/gsi/client', 'google');
    const settled = attempt.catch((e: unknown) => e);
    vi.advanceTimersByTime(SCRIPT_TIMEOUT_MS - 1);
    vi.advanceTimersByTime(1);
    const error = await settled;
    expect(SCRIPT_TIMEOUT_MS).toBe(15_000);
    expect(error).toBeInstanceOf(SocialSdkUnavailableError);
    expect((error as SocialSdkUnavailableError).provider).toBe('google');
  });
});
