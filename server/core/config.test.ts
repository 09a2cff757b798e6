import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from './config';

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'console-data-'));
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
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
    });
    expect(config).toMatchObject({ port: 9000, publicUrl: 'https://console.example.com', databaseUrl: 'postgres://db/console', seedDemo: false, trustProxy: true, accessTokenTtl: 60 });
  });

  it('refuses a short JWT secret and bad numbers', () => {
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(40), PORT: 'abc' })).toThrow(/PORT/);
  });
});
