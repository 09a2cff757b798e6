// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { createAccountStore } from '../../../core';
import { HttpError } from '../../../core/http/HttpError';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { membership, testUser } from '../../../core/account/testUsers';
import { createBotService, NoBotAccessError } from './botService';
import { botCreationError, botErrorText, formatBotError } from './errors';

const config = { apiBase: '', botServiceUrl: '/bot-service', socketDomain: '', version: '1', environment: 'test' };

function setup(keys: string[] = ['key-1']) {
  let issued = 0;
  const http = createFakeHttp((method, path, options) => {
    if (path === '/api/bots/integration/') return { endpoint: 'http://localhost:1/bot-service/', access_key: keys[Math.min(issued++, keys.length - 1)] };
    if (path === '/api/bots/' && options.query?.access_key === 'old') throw new HttpError(401, { errors: [{ status: '401', title: 'Unauthorized', detail: 'Bad key.' }] });
    if (path === '/api/bots/') return { count: 0, results: [] };
    return {};
  });
  const account = createAccountStore();
  account.setUser(testUser([membership(1), membership(2)]));
  account.selectCompany(1);
  return { http, account, service: createBotService({ http, account, config }) };
}

describe('bot-service client', () => {
  it('asks the integration once, then calls the endpoint with ?access_key= and no bearer token', async () => {
    const { http, service } = setup();
    await service.listBots();
    await service.updateStep(3, 'step-a', { layout: { x: 1, y: 2 } });
    await service.fetchBranch(3);
    const calls = http.calls.filter((c) => c.path !== '/api/bots/integration/');
    expect(http.calls.filter((c) => c.path === '/api/bots/integration/')).toHaveLength(1);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/bots/', 'PATCH /api/bots/3/steps/step-a/', 'GET /branch/fetch/']);
    for (const call of calls) expect(call.options).toMatchObject({ baseUrl: 'http://localhost:1/bot-service', auth: false, query: { access_key: 'key-1' } });
    expect(calls[2].options.query).toMatchObject({ bot: 3 });
  });

  it('asks the integration again after a company switch, and once more when the key was rotated', async () => {
    const { http, account, service } = setup(['old', 'new']);
    await service.listBots(); // 401 with 'old' → integration again → 'new'
    expect(http.calls.filter((c) => c.path === '/api/bots/').map((c) => c.options.query?.access_key)).toEqual(['old', 'new']);
    account.selectCompany(2);
    await service.listBots();
    expect(http.calls.filter((c) => c.path === '/api/bots/integration/')).toHaveLength(3);
  });

  it('refuses without a key (roles that cannot manage bots)', async () => {
    const http = createFakeHttp(() => ({ endpoint: '/bot-service', access_key: null }));
    const account = createAccountStore();
    await expect(createBotService({ http, account, config }).listBots()).rejects.toBeInstanceOf(NoBotAccessError);
  });

  it('runs the test chat on the main API', async () => {
    const { http, service } = setup();
    await service.testChat(4, { reset: true });
    expect(http.calls.at(-1)).toMatchObject({ method: 'POST', path: '/api/bots/4/test-chat/', options: { body: { reset: true } } });
    expect(http.calls.at(-1)?.options.auth).toBeUndefined();
  });
});

describe('error formatting (spec §5)', () => {
  const error = new HttpError(400, { errors: [{ status: '400', code: 'invalid', title: 'Invalid step', detail: 'Step "b" does not exist.' }] });

  it("reads 'Error {status} : {title} {detail}' from the first server error", () => {
    expect(formatBotError(error)).toBe('Error 400 : Invalid step Step "b" does not exist.');
    expect(botErrorText(error)).toBe('Error 400 : Invalid step Step "b" does not exist.');
    expect(botCreationError(error)).toBe('Error 400 : Invalid step Step "b" does not exist.');
  });

  it("falls back to 'Error while creating bot', the main API's message, or the error's text", () => {
    expect(botCreationError(new Error('network'))).toBe('Error while creating bot');
    expect(formatBotError(new HttpError(403, { detail: 'No.' }))).toBeUndefined();
    expect(botErrorText(new HttpError(403, { detail: 'No.' }))).toBe('No.');
    expect(botErrorText(new Error('Failed to fetch'))).toBe('Failed to fetch');
  });
});
