/**
 * Fair login limits (server/core/auth/loginThrottle.ts): others' wrong passwords never refuse the
 * owner's own client; guessing is slowed per account+client, per client and per account; a reset or an
 * e-mail verification lifts an account's blocks; limits count by the real client address behind a
 * trusted proxy only; with Redis they are shared by app instances and survive a restart.
 * Time moves with the test app's ManualClock only.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../core/app';
import { serverPlugins } from '../../plugins.config';
import { testConfig, trustProxySetting } from '../../core/config';
import { ACCOUNT_THROTTLED_MESSAGE, LOGIN_LIMITS } from '../../core/auth/loginThrottle';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../testing/testApp';

const THROTTLED = { detail: 'Too many attempts. Please try again later.', code: 'throttled' };
const ACCOUNT_THROTTLED = { detail: ACCOUNT_THROTTLED_MESSAGE, code: 'account_throttled' };

/** The `name=value` of the known-device cookie a sign-in answered with. */
function knownDeviceCookie(setCookie: string | string[] | undefined): string {
  const header = [setCookie ?? []].flat().find((c) => c.startsWith('known_device_'));
  if (!header) throw new Error('no known-device cookie');
  expect(header).toMatch(/; Path=\/account\/login\/; Max-Age=\d+; HttpOnly; SameSite=Strict/);
  return header.split(';')[0];
}
const WRONG = 'Wrong-Password-1';
const [PAIR_15_MIN] = LOGIN_LIMITS.pair;

let counter = 0;
const uniqueEmail = (label: string) => `${label}-${++counter}@example.com`;

function loginWith(app: () => FastifyInstance) {
  return (email: string, password: string, ip: string, headers: Record<string, string> = {}) =>
    app().inject({ method: 'POST', url: '/account/login/', payload: { email, password }, remoteAddress: ip, headers });
}

/** Moves the clock to the start of the next window of this length (windows are aligned on the epoch). */
function toNextWindow(t: TestApp, windowSeconds: number): void {
  const ms = windowSeconds * 1000;
  t.clock.advance(ms - (t.clock.now().getTime() % ms));
}

describe('fair login limits', () => {
  let t: TestApp;
  const login = loginWith(() => t.app);
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('the owner signs in from their own client while an attacker from another address has failed 50 times', async () => {
    const email = uniqueEmail('owner');
    await t.seed.user({ email });
    toNextWindow(t, 24 * 3600);
    const attacker: number[] = [];
    for (let i = 0; i < 50; i++) attacker.push((await login(email, WRONG, '203.0.113.66')).statusCode);
    // Its pair threshold: 5 wrong passwords answered, then refused before any password is checked.
    expect(attacker.slice(0, PAIR_15_MIN.limit)).toEqual(Array(PAIR_15_MIN.limit).fill(400));
    expect(attacker.slice(PAIR_15_MIN.limit)).toEqual(Array(50 - PAIR_15_MIN.limit).fill(429));
    const refused = await login(email, TEST_PASSWORD, '203.0.113.66');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(THROTTLED);
    // The whole 15-minute window is left: the clock sits at its start.
    expect(refused.headers['retry-after']).toBe(String(15 * 60));

    const owner = await login(email, TEST_PASSWORD, '198.51.100.7');
    expect(owner.statusCode).toBe(200);
    expect(owner.json().user.email).toBe(email);
  });

  it('the attacker’s waits grow: 15 minutes, then the hour, then the day', async () => {
    const email = uniqueEmail('stairs');
    await t.seed.user({ email });
    const ip = '203.0.113.70';
    toNextWindow(t, 24 * 3600);
    const failures = async (n: number) => {
      for (let i = 0; i < n; i++) expect((await login(email, WRONG, ip)).statusCode).toBe(400);
    };
    await failures(5);
    expect((await login(email, WRONG, ip)).headers['retry-after']).toBe(String(15 * 60));
    t.clock.advance(15 * 60 * 1000);
    await failures(5);
    // 10 in this hour: the rest of the hour (45 minutes).
    expect((await login(email, WRONG, ip)).headers['retry-after']).toBe(String(45 * 60));
    t.clock.advance(45 * 60 * 1000);
    await failures(5);
    t.clock.advance(60 * 60 * 1000);
    await failures(5);
    // 20 today (it is 2 o'clock): until the day ends.
    const blocked = await login(email, TEST_PASSWORD, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe(String(22 * 3600));
    // Still only this pair: the owner elsewhere is not held back.
    expect((await login(email, TEST_PASSWORD, '198.51.100.8')).statusCode).toBe(200);
  });

  it('a successful login clears its own pair only', async () => {
    const email = uniqueEmail('forgetful');
    await t.seed.user({ email });
    toNextWindow(t, 3600);
    for (let i = 0; i < 4; i++) await login(email, WRONG, '198.51.100.9');
    expect((await login(email, TEST_PASSWORD, '198.51.100.9')).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login(email, WRONG, '198.51.100.9')).statusCode).toBe(400);
    expect((await login(email, TEST_PASSWORD, '198.51.100.9')).statusCode).toBe(429);
  });

  it('many addresses guessing one account: past its own cap every new address waits, the owner’s known device still signs in', async () => {
    const email = uniqueEmail('targeted');
    await t.seed.user({ email });
    toNextWindow(t, 24 * 3600);
    // The owner signed in from this browser before: it holds the account's known-device cookie.
    const first = await login(email, TEST_PASSWORD, '198.51.100.10');
    expect(first.statusCode).toBe(200);
    const cookie = knownDeviceCookie(first.headers['set-cookie']);
    const [{ limit }] = LOGIN_LIMITS.account;
    for (let i = 0; i < limit; i++) expect((await login(email, WRONG, `192.0.2.${i + 1}`)).statusCode).toBe(400);
    // A fresh address per guess is no fresh allowance: refused before the password, with words saying how the owner gets in.
    const fresh = await login(email, TEST_PASSWORD, '192.0.2.250');
    expect(fresh.statusCode).toBe(429);
    expect(fresh.json()).toEqual(ACCOUNT_THROTTLED);
    expect(fresh.headers['retry-after']).toBe(String(15 * 60));
    // The owner's browser, from any address, is let through to the password check.
    expect((await login(email, TEST_PASSWORD, '203.0.113.77', { cookie })).statusCode).toBe(200);
    // A cookie of another account, or a forged one, is not the owner's.
    const other = uniqueEmail('other');
    await t.seed.user({ email: other });
    const otherCookie = knownDeviceCookie((await login(other, TEST_PASSWORD, '198.51.100.10')).headers['set-cookie']);
    expect((await login(email, TEST_PASSWORD, '198.51.100.10', { cookie: otherCookie })).statusCode).toBe(429);
    const forged = cookie.replace(/=(\d+)\./, (_, at: string) => `=${Number(at) + 1}.`);
    expect((await login(email, TEST_PASSWORD, '198.51.100.10', { cookie: forged })).statusCode).toBe(429);
  });

  it('the account’s daily cap holds across 15-minute windows', async () => {
    const email = uniqueEmail('daily');
    await t.seed.user({ email });
    toNextWindow(t, 24 * 3600);
    const [perWindow, perDay] = LOGIN_LIMITS.account;
    let guesses = 0;
    while (guesses < perDay.limit) {
      for (let i = 0; i < perWindow.limit && guesses < perDay.limit; i++, guesses++) expect((await login(email, WRONG, `10.1.${guesses >> 8}.${guesses & 255}`)).statusCode).toBe(400);
      t.clock.advance(perWindow.windowSeconds * 1000);
    }
    expect((await login(email, TEST_PASSWORD, '10.9.9.9')).statusCode).toBe(429);
  });

  it('a password sprayer gets no second guess on an account, while a correct password of an account not under attack gets in from the same address', async () => {
    toNextWindow(t, 15 * 60);
    const office = '203.0.113.90';
    const [{ limit }] = LOGIN_LIMITS.client;
    const sprayed = uniqueEmail('sprayed');
    await t.seed.user({ email: sprayed });
    expect((await login(sprayed, WRONG, office)).statusCode).toBe(400);
    for (let i = 0; i < limit + 5; i++) expect((await login(uniqueEmail('spray'), WRONG, office)).statusCode).toBe(400);
    // An account this address has already failed on: refused before the password, even the right one.
    const again = await login(sprayed, TEST_PASSWORD, office);
    expect(again.statusCode).toBe(429);
    expect(again.json()).toEqual(THROTTLED);
    // A colleague behind the same address signs in.
    const colleague = uniqueEmail('colleague');
    await t.seed.user({ email: colleague });
    expect((await login(colleague, TEST_PASSWORD, office)).statusCode).toBe(200);
    // And another address is not held by this one's count.
    expect((await login(sprayed, TEST_PASSWORD, '198.51.100.11')).statusCode).toBe(200);
  });

  it('behind one address, 100 failures a day on other accounts do not keep a colleague out', async () => {
    toNextWindow(t, 24 * 3600);
    const office = '203.0.113.91';
    const [, perDay] = LOGIN_LIMITS.client;
    for (let i = 0; i < perDay.limit + 5; i++) await login(uniqueEmail('noise'), WRONG, office);
    const colleague = uniqueEmail('colleague');
    await t.seed.user({ email: colleague });
    expect((await login(colleague, TEST_PASSWORD, office)).statusCode).toBe(200);
  });

  it('social sign-in from an address past its limit is still refused before the token is checked', async () => {
    toNextWindow(t, 15 * 60);
    const sprayer = '203.0.113.92';
    const [{ limit }] = LOGIN_LIMITS.client;
    for (let i = 0; i < limit; i++) await login(uniqueEmail('spray'), WRONG, sprayer);
    const social = await t.app.inject({ method: 'POST', url: '/account/google/', payload: { access_token: 'whatever' }, remoteAddress: sprayer });
    expect(social.statusCode).toBe(429);
  });

  it('a password reset lifts the account’s blocks, the owner’s own included', async () => {
    const email = uniqueEmail('reset');
    await t.seed.user({ email });
    toNextWindow(t, 24 * 3600);
    const home = '198.51.100.12';
    for (let i = 0; i < 5; i++) await login(email, WRONG, home);
    expect((await login(email, TEST_PASSWORD, home)).statusCode).toBe(429);

    await t.app.inject({ method: 'POST', url: '/account/reset-password/', payload: { email }, remoteAddress: home });
    const token = decodeURIComponent((await t.outbox.link(email)).split('/auth/reset-password/')[1]);
    const confirmed = await t.app.inject({ method: 'POST', url: '/account/reset-password/confirm/', payload: { token, password: 'Brand-New-Secret-71' } });
    expect(confirmed.statusCode).toBe(200);
    expect((await login(email, 'Brand-New-Secret-71', home)).statusCode).toBe(200);
  });

  it('an e-mail verification lifts the blocks of that address', async () => {
    const email = uniqueEmail('verify');
    toNextWindow(t, 24 * 3600);
    const ip = '198.51.100.13';
    for (let i = 0; i < 5; i++) await login(email, WRONG, ip);
    expect((await login(email, WRONG, ip)).statusCode).toBe(429);
    await t.app.inject({ method: 'POST', url: '/api/onboarding-request/submit/', payload: { email, needs_whatsapp_number: false } });
    const token = new URL(await t.outbox.link(email)).searchParams.get('token')!;
    expect((await t.app.inject({ method: 'GET', url: `/api/onboarding-request/verify/?token=${encodeURIComponent(token)}` })).statusCode).toBe(200);
    expect((await login(email, WRONG, ip)).statusCode).toBe(400);
  });

  it('a throttled attempt is refused before the password is checked, so it is not counted again', async () => {
    const email = uniqueEmail('quiet');
    await t.seed.user({ email });
    toNextWindow(t, 24 * 3600);
    for (let i = 0; i < 5; i++) await login(email, WRONG, '203.0.113.99');
    for (let i = 0; i < 20; i++) expect((await login(email, WRONG, '203.0.113.99')).statusCode).toBe(429);
    // 25 attempts, but only 5 failures: the next 15-minute window gives the next 5 (the hour's 10 are not reached).
    t.clock.advance(15 * 60 * 1000);
    for (let i = 0; i < 5; i++) expect((await login(email, WRONG, '203.0.113.99')).statusCode).toBe(400);
  });
});

describe('the client address behind a proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('X-Forwarded-For is ignored without TRUST_PROXY: a client cannot pick a fresh address per guess', async () => {
    const login = loginWith(() => t.app);
    const email = uniqueEmail('noproxy');
    await t.seed.user({ email });
    toNextWindow(t, 15 * 60);
    for (let i = 0; i < 5; i++) expect((await login(email, WRONG, '198.51.100.20', { 'x-forwarded-for': `10.9.9.${i}` })).statusCode).toBe(400);
    expect((await login(email, TEST_PASSWORD, '198.51.100.20', { 'x-forwarded-for': '10.9.9.200' })).statusCode).toBe(429);
  });

  for (const setting of ['1', '10.0.0.1', '10.0.0.0/8']) {
    it(`TRUST_PROXY=${setting}: requests through the proxy count by the address it forwards`, async () => {
      // Another app on the same database, configured as behind a proxy at 10.0.0.1.
      const proxied = await buildApp({ plugins: serverPlugins, config: { ...t.config, trustProxy: trustProxySetting(setting) }, db: t.db, overrides: { Clock: t.clock } });
      try {
        const login = loginWith(() => proxied);
        const email = uniqueEmail('proxied');
        await t.seed.user({ email });
        toNextWindow(t, 15 * 60);
        const via = (client: string) => ({ 'x-forwarded-for': client });
        for (let i = 0; i < 5; i++) expect((await login(email, WRONG, '10.0.0.1', via('203.0.113.5'))).statusCode).toBe(400);
        expect((await login(email, TEST_PASSWORD, '10.0.0.1', via('203.0.113.5'))).statusCode).toBe(429);
        // The owner comes through the same proxy from their own address.
        expect((await login(email, TEST_PASSWORD, '10.0.0.1', via('198.51.100.30'))).statusCode).toBe(200);
        // A forged entry to the left of the proxy's is not believed.
        expect((await login(email, WRONG, '10.0.0.1', via('198.51.100.99, 203.0.113.5'))).statusCode).toBe(429);
      } finally {
        await proxied.close();
      }
    });
  }

  it('TRUST_PROXY=true: 120 guesses on one account, each from a new forwarded address, are capped per account; the owner’s device still signs in', async () => {
    const proxied = await buildApp({ plugins: serverPlugins, config: { ...t.config, trustProxy: trustProxySetting('true') }, db: t.db, overrides: { Clock: t.clock } });
    try {
      const login = loginWith(() => proxied);
      const email = uniqueEmail('rotating');
      await t.seed.user({ email });
      toNextWindow(t, 24 * 3600);
      const cookie = knownDeviceCookie((await login(email, TEST_PASSWORD, '10.0.0.1', { 'x-forwarded-for': '198.51.100.50' })).headers['set-cookie']);
      const answers: number[] = [];
      for (let i = 0; i < 120; i++) answers.push((await login(email, WRONG, '10.0.0.1', { 'x-forwarded-for': `100.64.${i >> 8}.${i & 255}` })).statusCode);
      const [{ limit }] = LOGIN_LIMITS.account;
      expect(answers.slice(0, limit)).toEqual(Array(limit).fill(400));
      expect(answers.slice(limit)).toEqual(Array(120 - limit).fill(429));
      expect((await login(email, TEST_PASSWORD, '10.0.0.1', { 'x-forwarded-for': '100.64.9.9' })).statusCode).toBe(429);
      expect((await login(email, TEST_PASSWORD, '10.0.0.1', { 'x-forwarded-for': '198.51.100.51', cookie })).statusCode).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('TRUST_PROXY accepts true/false, a hop count and address lists, and refuses anything else', () => {
    expect([undefined, '', 'false', '0', 'off'].map(trustProxySetting)).toEqual([false, false, false, false, false]);
    expect(['true', 'yes', 'ON'].map(trustProxySetting)).toEqual([true, true, true]);
    expect(trustProxySetting('2')).toBe(2);
    expect(trustProxySetting('10.0.0.1, 192.168.0.0/16,::1,fd00::/8, loopback')).toEqual(['10.0.0.1', '192.168.0.0/16', '::1', 'fd00::/8', 'loopback']);
    for (const bad of ['maybe', '10.0.0.0/33', '300.1.1.1', '10.0.0.1/8/1', 'proxy.example.com']) expect(() => trustProxySetting(bad)).toThrow(/TRUST_PROXY/);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
(redisUrl ? describe : describe.skip)(
  redisUrl ? 'login limits through Redis (TEST_REDIS_URL)' : 'login limits through Redis: skipped because TEST_REDIS_URL is not set',
  () => {
    let t: TestApp;
    let second: FastifyInstance;
    beforeAll(async () => {
      const realtime = { ...testConfig().realtime, redisPrefix: `test-limits-${randomBytes(4).toString('hex')}` };
      t = await createTestApp({ config: { redisUrl, realtime } });
      second = await buildApp({ plugins: serverPlugins, config: t.config, db: t.db, overrides: { Clock: t.clock } });
      await second.ready();
    });
    afterAll(async () => {
      await second?.close();
      await t?.close();
    });

    it('two app instances share an account’s limits, and they survive a restart', async () => {
      const email = uniqueEmail('shared');
      await t.seed.user({ email });
      toNextWindow(t, 15 * 60);
      const onFirst = loginWith(() => t.app);
      const onSecond = loginWith(() => second);
      for (let i = 0; i < 5; i++) {
        const login = i % 2 ? onSecond : onFirst;
        expect((await login(email, WRONG, '203.0.113.40')).statusCode).toBe(400);
      }
      expect((await onSecond(email, TEST_PASSWORD, '203.0.113.40')).statusCode).toBe(429);
      await t.restart();
      expect((await onFirst(email, TEST_PASSWORD, '203.0.113.40')).statusCode).toBe(429);
      expect((await onFirst(email, TEST_PASSWORD, '198.51.100.40')).statusCode).toBe(200);
    });

    it('the per-account cap is shared by app instances and survives a restart', async () => {
      const email = uniqueEmail('shared-account');
      await t.seed.user({ email });
      toNextWindow(t, 24 * 3600);
      const onFirst = loginWith(() => t.app);
      const onSecond = loginWith(() => second);
      const [{ limit }] = LOGIN_LIMITS.account;
      for (let i = 0; i < limit; i++) expect((await (i % 2 ? onSecond : onFirst)(email, WRONG, `100.65.0.${i + 1}`)).statusCode).toBe(400);
      expect((await onSecond(email, TEST_PASSWORD, '100.65.1.1')).json()).toEqual(ACCOUNT_THROTTLED);
      await t.restart();
      expect((await onFirst(email, TEST_PASSWORD, '100.65.1.2')).statusCode).toBe(429);
    });
  },
);
