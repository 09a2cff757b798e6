import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from './config';
import { exposedDemoWarning, mediaLines, modeLines } from './startupBanner';

const load = (env: Record<string, string> = {}) => loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'console-banner-')), ...env });
const base = 'http://localhost:8080';

describe('start-up banner', () => {
  it('the local demo: says demo mode and where its pages are, without a warning', () => {
    const config = load();
    expect(modeLines(config, base)).toEqual([
      '  Demo mode: on (DEMO_MODE=auto, listening on loopback only): offline providers, nobody else can reach them',
      '  E-mail outbox: http://localhost:8080/dev/outbox (set SMTP_URL to send real e-mails)',
      '  Fake Meta (WhatsApp, Messenger, Instagram; play the customer): http://localhost:8080/dev/meta/ (set META_APP_ID for the real one)',
      '  Fake Google sign-in at /dev/google (set GOOGLE_CLIENT_ID for the real one)',
    ]);
    expect(exposedDemoWarning(config)).toBeNull();
  });

  it('a server for other machines: says why demo mode is off and what is not configured', () => {
    const config = load({ HOST: '0.0.0.0' });
    expect(modeLines(config, base)).toEqual([
      '  Demo mode: off (DEMO_MODE=auto: HOST=0.0.0.0 is not loopback); no fake provider, no outbox page',
      '  E-mail: NOT SENT, SMTP_URL is not set (sign-up, reset and invite e-mails are kept in the database only)',
      '  Meta (WhatsApp, Messenger, Instagram, Facebook sign-in): not configured (set META_APP_ID)',
      '  Google sign-in: not configured (set GOOGLE_CLIENT_ID)',
    ]);
    expect(exposedDemoWarning(config)).toBeNull();
    const live = load({ HOST: '0.0.0.0', SMTP_URL: 'smtp://mail:587', META_APP_ID: '1', META_APP_SECRET: 's', GOOGLE_CLIENT_ID: 'g' });
    expect(modeLines(live, base).slice(1)).toEqual(['  E-mail: sent through SMTP_URL', '  Meta: live (META_APP_ID)', '  Google sign-in: live (GOOGLE_CLIENT_ID)']);
  });

  it('warns loudly when demo doors are open to other machines', () => {
    const exposed = load({ HOST: '0.0.0.0', DEMO_MODE: 'true' });
    expect(modeLines(exposed, base)[0]).toBe('  Demo mode: on (DEMO_MODE=true): offline providers, OTHER MACHINES CAN REACH THEM (see the warning)');
    const warning = exposedDemoWarning(exposed)!;
    expect(warning.join('\n')).toContain('WARNING: DEMO DOORS OPEN ON A SERVER OTHER MACHINES CAN REACH');
    expect(warning.join('\n')).toContain('HOST=0.0.0.0 is not loopback');
    for (const door of ['/dev/meta', '/dev/google', '/dev/outbox', 'the demo users']) expect(warning.some((line) => line.includes(door)), door).toBe(true);

    // Only the outbox named outside demo mode: only the outbox listed.
    const outboxOnly = exposedDemoWarning(load({ PUBLIC_URL: 'https://console.example.com', DEV_OUTBOX: 'true' }))!;
    expect(outboxOnly.filter((line) => line.includes('/dev/'))).toEqual(['!!   /dev/outbox (every e-mail, password reset links included)']);
    expect(outboxOnly.join('\n')).toContain('PUBLIC_URL=https://console.example.com is not local');
  });

  it('says where media is, and warns a cluster (REDIS_URL) whose media is on each process\'s own folder', () => {
    const single = load();
    expect(mediaLines(single)).toEqual([`  Media: ${single.dataDir}/media`]);

    const cluster = load({ REDIS_URL: 'redis://redis:6379' });
    const [where, warning] = mediaLines(cluster);
    expect(where).toBe(`  Media: ${cluster.dataDir}/media`);
    expect(warning).toContain('WARNING: media is on this process\'s local folder');
    expect(warning).toContain('S3_BUCKET');
    expect(warning).toContain('MEDIA_SHARED=true');

    const shared = load({ REDIS_URL: 'redis://redis:6379', MEDIA_SHARED: 'true' });
    expect(mediaLines(shared)).toEqual([`  Media: ${shared.dataDir}/media (shared by every process: MEDIA_SHARED)`]);
    const bucket = load({ REDIS_URL: 'redis://redis:6379', S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' });
    expect(mediaLines(bucket)).toEqual(['  Media: bucket media (S3_BUCKET)']);
  });
});
