import { afterEach, describe, expect, it } from 'vitest';
import { definedFeatures, enabledFeatures } from '../../../plugins.config';
import { createFeatureFlags } from './featureFlags';
import { loadStartupFeatures, resolveEnabledFeatures } from './startupFeatures';
import { rememberedStartupConfig, rememberStartupConfig, requestStartupConfig } from './startupRequest';

// The shell's answer is kept for the social settings (clientConfig.ts): no file after this one finds it.
afterEach(() => rememberStartupConfig(null));

function flagsWith(keys: string[]) {
  const flags = createFeatureFlags();
  flags.setEnabled(keys);
  return flags;
}

const answer = (status: number, body: unknown) => async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('start-up feature keys', () => {
  it('by default branching_flows is defined but off (spec §6), the other start-up keys on', () => {
    expect(definedFeatures).toContain('branching_flows');
    expect(enabledFeatures).not.toContain('branching_flows');
    const keys = resolveEnabledFeatures(enabledFeatures, definedFeatures, undefined);
    expect(new Set(keys)).toEqual(new Set(enabledFeatures));
    expect(flagsWith(keys).isEnabled('branching_flows')).toBe(false);
    expect(flagsWith(keys).isEnabled('flows')).toBe(true);
  });

  it("the server's override (CONSOLE_FEATURES) turns branching_flows on, and keeps the defaults", () => {
    const keys = resolveEnabledFeatures(enabledFeatures, definedFeatures, ['branching_flows']);
    expect(flagsWith(keys).isEnabled('branching_flows')).toBe(true);
    for (const key of enabledFeatures) expect(keys).toContain(key);
    expect(keys.filter((k) => k === 'flows')).toHaveLength(1);
  });

  it('takes only keys the product defines', () => {
    const keys = resolveEnabledFeatures(enabledFeatures, definedFeatures, ['not_a_feature', 42, null, ' branching_flows ']);
    expect(keys).not.toContain('not_a_feature');
    expect(keys).toContain('branching_flows');
    expect(resolveEnabledFeatures(enabledFeatures, definedFeatures, 'branching_flows')).not.toContain('branching_flows');
  });

  it('reads the override from GET /api/client-config/ without login', async () => {
    const calls: [string, RequestInit | undefined][] = [];
    const fetch = (async (url: string, init?: RequestInit) => {
      calls.push([url, init]);
      return answer(200, { facebook: null, google: null, features: ['branching_flows'] })();
    }) as unknown as typeof globalThis.fetch;
    const keys = await loadStartupFeatures({ defaults: enabledFeatures, defined: definedFeatures, apiBase: 'https://api.example/', fetch });
    expect(keys).toContain('branching_flows');
    expect(calls).toEqual([['https://api.example/api/client-config/', expect.objectContaining({ credentials: 'omit' })]]);
    // Kept for the social sign-in's and the channels' settings, which then do not ask again (socialApi.test.ts).
    expect(rememberedStartupConfig()).toEqual({ facebook: null, google: null, features: ['branching_flows'] });
  });

  it('without the override, or when the server cannot say, starts with the defaults', async () => {
    const run = (fetch: unknown) => loadStartupFeatures({ defaults: enabledFeatures, defined: definedFeatures, apiBase: '', fetch: fetch as typeof globalThis.fetch });
    expect(await run(answer(200, { facebook: null, google: null }))).toEqual([...enabledFeatures]);
    expect(await run(answer(404, { detail: 'Not found.' }))).toEqual([...enabledFeatures]);
    expect(await run(answer(200, 'not an object'))).toEqual([...enabledFeatures]);
    expect(
      await run(async () => {
        throw new TypeError('Failed to fetch');
      }),
    ).toEqual([...enabledFeatures]);
  });
});

describe("the entry's early request", () => {
  it('is what the shell reads, once; a later start asks again', async () => {
    const asked: string[] = [];
    const fetch = (async (url: string) => {
      asked.push(url);
      return answer(200, { features: ['branching_flows'] })();
    }) as unknown as typeof globalThis.fetch;
    requestStartupConfig('', fetch);
    expect(asked).toEqual(['/api/client-config/']);
    const refuse = (async () => {
      throw new Error('the shell must not ask again');
    }) as unknown as typeof globalThis.fetch;
    expect(await loadStartupFeatures({ defaults: enabledFeatures, defined: definedFeatures, apiBase: '', fetch: refuse })).toContain('branching_flows');
    expect(await loadStartupFeatures({ defaults: enabledFeatures, defined: definedFeatures, apiBase: '', fetch })).toContain('branching_flows');
    expect(asked).toHaveLength(2);
  });

  it('failing, gives the defaults as a late one would', async () => {
    requestStartupConfig('', (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof globalThis.fetch);
    expect(await loadStartupFeatures({ defaults: enabledFeatures, defined: definedFeatures, apiBase: '' })).toEqual([...enabledFeatures]);
  });
});
