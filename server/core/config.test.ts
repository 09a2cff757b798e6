import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isLoopbackHost, loadConfig } from './config';

/** A fresh DATA_DIR (the JWT secret is generated into it). */
function dataDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'console-data-'));
}

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'console-data-'));
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir,
      databaseUrl: null,
      pgliteDir: path.join(dataDir, 'pglite'),
      publicUrl: 'http://localhost:8080',
      accessTokenTtl: 900,
      refreshTokenTtl: 14 * 24 * 3600,
      smtpUrl: null,
      mailFrom: 'Console <no-reply@localhost>',
      seedDemo: true,
      demoPassword: 'Demo-Console-2026',
      logLevel: 'info',
      trustProxy: false,
      staticDir: path.resolve('./dist'),
      // A fresh `npm start` listens on loopback only, so it is the offline demo.
      demo: { enabled: true, setting: 'auto', servesOtherMachines: false },
      devOutbox: true,
      meta: { mode: 'local', appId: 'local-fake-app' },
      google: { mode: 'local', clientId: 'local-fake-google-client' },
      mediaShared: false,
      shutdownGraceMs: 10_000,
    });
  });

  it('generates the JWT secret once and keeps it private in DATA_DIR', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'console-data-'));
    const first = loadConfig({ DATA_DIR: dataDir }).jwtSecret;
    const file = path.join(dataDir, 'jwt-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(first);
  });

  it('reads the environment', () => {
    const config = loadConfig({
      PORT: '9000',
      PUBLIC_URL: 'https://console.example.com/',
      JWT_SECRET: 'x'.repeat(40),
      DATABASE_URL: 'postgres://db/console',
      SEED_DEMO: 'false',
      TRUST_PROXY: 'true',
      ACCESS_TOKEN_TTL: '60',
      MEDIA_SHARED: 'true',
      SHUTDOWN_GRACE_MS: '30000',
    });
    expect(config).toMatchObject({ port: 9000, publicUrl: 'https://console.example.com', databaseUrl: 'postgres://db/console', seedDemo: false, trustProxy: true, accessTokenTtl: 60 });
    expect(config).toMatchObject({ mediaShared: true, shutdownGraceMs: 30_000 });
  });

  it('refuses a short JWT secret and bad numbers', () => {
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(40), PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(40), SHUTDOWN_GRACE_MS: '10s' })).toThrow(/SHUTDOWN_GRACE_MS/);
  });
});

describe('demo mode (DEMO_MODE)', () => {
  const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir(), ...env });

  it('is on by default only while nobody else can reach the server', () => {
    const servingOthers: Record<string, string>[] = [{ HOST: '0.0.0.0' }, { HOST: '::' }, { HOST: '192.168.1.20' }, { PUBLIC_URL: 'https://console.example.com' }, { TRUST_PROXY: 'true' }];
    for (const env of servingOthers) {
      const config = load(env);
      expect(config.demo, JSON.stringify(env)).toEqual({ enabled: false, setting: 'auto', servesOtherMachines: true });
      // Nothing that lets a visitor in: no fake, no outbox page, no demo users with the published password.
      expect(config).toMatchObject({ devOutbox: false, seedDemo: false, meta: { mode: 'off', appId: '' }, google: { mode: 'off', clientId: '' } });
      expect(JSON.stringify(config.meta) + JSON.stringify(config.google)).not.toContain('/dev/');
    }
    expect(load({ HOST: 'localhost', PUBLIC_URL: 'http://127.0.0.1:8080' }).demo.enabled).toBe(true);
    expect(load({ HOST: '::1' }).demo.enabled).toBe(true);
  });

  it('is on wherever the operator names it, and off wherever they refuse it', () => {
    const named = load({ HOST: '0.0.0.0', DEMO_MODE: 'true' });
    expect(named.demo).toEqual({ enabled: true, setting: 'true', servesOtherMachines: true });
    expect(named).toMatchObject({ devOutbox: true, seedDemo: true, meta: { mode: 'local' }, google: { mode: 'local' } });
    const refused = load({ DEMO_MODE: 'false' });
    expect(refused.demo).toEqual({ enabled: false, setting: 'false', servesOtherMachines: false });
    expect(refused).toMatchObject({ devOutbox: false, meta: { mode: 'off' }, google: { mode: 'off' } });
    expect(() => load({ DEMO_MODE: 'maybe' })).toThrow(/DEMO_MODE must be auto, true or false/);
  });

  it('keeps configured providers live in any mode', () => {
    const env = { META_APP_ID: '1234', META_APP_SECRET: 's3cret', GOOGLE_CLIENT_ID: 'gid' };
    for (const host of ['127.0.0.1', '0.0.0.0']) {
      const config = load({ ...env, HOST: host });
      expect(config.meta).toMatchObject({ mode: 'live', appId: '1234', graphUrl: 'https://graph.facebook.com' });
      expect(config.google).toMatchObject({ mode: 'live', clientId: 'gid' });
    }
  });

  it('DEV_OUTBOX overrides the outbox page alone', () => {
    expect(load({ DEV_OUTBOX: 'false' })).toMatchObject({ devOutbox: false, demo: { enabled: true } });
    expect(load({ HOST: '0.0.0.0', DEV_OUTBOX: 'true' })).toMatchObject({ devOutbox: true, demo: { enabled: false }, meta: { mode: 'off' } });
  });

  it('recognises loopback addresses', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', 'console.example.com', 'localhost.example.com', '127.0.0.1.nip.io', '']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});
