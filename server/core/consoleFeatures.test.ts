import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ClientConfig } from '../../contract/channels';
import { createTestApp, type TestApp } from '../testing/testApp';
import { clientConfigOf } from '../providers/meta/clientConfigRoute';
import { consoleFeatureKeys, loadConfig, testConfig } from './config';

const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'console-data-')), ...env });

describe('CONSOLE_FEATURES (the operator turns a defined feature on, e.g. branching_flows)', () => {
  it('is empty by default: the console keeps its start-up keys alone', () => {
    expect(load({}).consoleFeatures).toEqual([]);
  });

  it('reads a comma list of keys, each once', () => {
    expect(load({ CONSOLE_FEATURES: 'branching_flows' }).consoleFeatures).toEqual(['branching_flows']);
    expect(consoleFeatureKeys(' branching_flows , stats,branching_flows,, ')).toEqual(['branching_flows', 'stats']);
  });

  it('stops the start on something that is not a key', () => {
    expect(() => load({ CONSOLE_FEATURES: 'branching-flows' })).toThrow(/CONSOLE_FEATURES/);
    expect(() => consoleFeatureKeys('a b')).toThrow(/CONSOLE_FEATURES/);
  });
});

describe('GET /api/client-config/ hands the keys to the console', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { consoleFeatures: ['branching_flows'] } });
  }, 180_000);
  afterAll(() => t.close());

  it('says nothing of features without the variable', () => {
    expect(clientConfigOf(testConfig())).not.toHaveProperty('features');
  });

  it('lists the operator-enabled keys, without login', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/client-config/' });
    expect(res.statusCode).toBe(200);
    expect(res.json<ClientConfig>().features).toEqual(['branching_flows']);
  });
});
