import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig, type GoogleConfig } from '../../core/config';
import { startFakeGoogle, type StartedFakeGoogle } from './fake/fakeGoogle';
import { GoogleUnavailableError, HttpGoogleIdentity } from './google';
import { SocialTokenError } from '../meta/types';

const CLIENT_ID = 'console-client.apps.googleusercontent.com';
let fake: StartedFakeGoogle;
let google: HttpGoogleIdentity;

function configFor(overrides: Partial<GoogleConfig> = {}): GoogleConfig {
  return { ...testConfig().google, clientId: CLIENT_ID, tokenInfoUrl: fake.tokenInfoUrl, userInfoUrl: fake.userInfoUrl, ...overrides };
}

beforeAll(async () => {
  fake = await startFakeGoogle();
  google = new HttpGoogleIdentity(configFor());
});
afterAll(() => fake.close());

describe('HttpGoogleIdentity.verifyAccessToken', () => {
  it('returns the profile of a token issued to our client id', async () => {
    const token = fake.state.issueToken({ email: 'Grace@Example.com', firstName: 'Grace', lastName: 'Hopper', clientId: CLIENT_ID });
    const profile = await google.verifyAccessToken(token.access_token);
    expect(profile).toEqual({ sub: expect.stringMatching(/^\d{21}$/), email: 'grace@example.com', emailVerified: true, firstName: 'Grace', lastName: 'Hopper' });
    // The same Google account keeps its subject.
    const again = fake.state.issueToken({ email: 'grace@example.com', clientId: CLIENT_ID });
    expect((await google.verifyAccessToken(again.access_token)).sub).toBe(profile.sub);
  });

  it('refuses a token issued to another application', async () => {
    const token = fake.state.issueToken({ email: 'a@example.com', clientId: 'someone-else.apps.googleusercontent.com' });
    await expect(google.verifyAccessToken(token.access_token)).rejects.toThrow(new SocialTokenError('This Google access token was issued to another application.'));
  });

  it('refuses unknown and expired tokens', async () => {
    await expect(google.verifyAccessToken('ya29.unknown')).rejects.toBeInstanceOf(SocialTokenError);
    const expired = fake.state.issueToken({ email: 'b@example.com', clientId: CLIENT_ID, expiresInSeconds: -5 });
    await expect(google.verifyAccessToken(expired.access_token)).rejects.toBeInstanceOf(SocialTokenError);
  });

  it('refuses a token without the e-mail scope', async () => {
    const token = fake.state.issueToken({ email: 'c@example.com', clientId: CLIENT_ID, scope: 'openid profile' });
    await expect(google.verifyAccessToken(token.access_token)).rejects.toThrow('The Google account did not share its e-mail address.');
  });

  it('accepts email_verified as the string "true" and checks expires_in', async () => {
    const answers: Record<string, unknown> = {
      tokeninfo: { aud: 'x', azp: CLIENT_ID, sub: '42', expires_in: '3000' },
      userinfo: { sub: '42', email: 'd@example.com', email_verified: 'true', given_name: 'Dee' },
    };
    const fetchDouble: typeof fetch = async (input) => new Response(JSON.stringify(answers[String(input).includes('tokeninfo') ? 'tokeninfo' : 'userinfo']), { status: 200 });
    const identity = new HttpGoogleIdentity(configFor({ tokenInfoUrl: 'https://g.test/tokeninfo', userInfoUrl: 'https://g.test/userinfo' }), { fetch: fetchDouble });
    expect(await identity.verifyAccessToken('t')).toEqual({ sub: '42', email: 'd@example.com', emailVerified: true, firstName: 'Dee', lastName: '' });
    answers.tokeninfo = { aud: CLIENT_ID, sub: '42', expires_in: '0' };
    await expect(identity.verifyAccessToken('t')).rejects.toThrow('The Google access token has expired.');
  });

  it('tells Google being down apart from a bad token', async () => {
    const down = new HttpGoogleIdentity(configFor({ tokenInfoUrl: 'http://127.0.0.1:9/tokeninfo' }));
    await expect(down.verifyAccessToken('t')).rejects.toBeInstanceOf(GoogleUnavailableError);
    const failing = new HttpGoogleIdentity(configFor(), { fetch: async () => new Response('oops', { status: 503 }) });
    await expect(failing.verifyAccessToken('t')).rejects.toBeInstanceOf(GoogleUnavailableError);
  });
});

describe('fake Google endpoints', () => {
  it("answer in Google's formats", async () => {
    const dialog = await fetch(`${fake.url}/dialog/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'e@example.com', first_name: 'E', last_name: 'F', client_id: CLIENT_ID, scope: 'openid email profile' }),
    });
    const token = (await dialog.json()) as any;
    expect(token).toEqual({ access_token: expect.stringMatching(/^ya29\./), expires_in: 3599, scope: 'openid email profile', token_type: 'Bearer' });
    const info = (await (await fetch(`${fake.tokenInfoUrl}?access_token=${token.access_token}`)).json()) as any;
    expect(info).toMatchObject({ aud: CLIENT_ID, azp: CLIENT_ID, email: 'e@example.com', email_verified: 'true', expires_in: expect.stringMatching(/^\d+$/), exp: expect.stringMatching(/^\d+$/) });
    expect(info.scope).toContain('https://www.googleapis.com/auth/userinfo.email');
    const bad = await fetch(`${fake.tokenInfoUrl}?access_token=nope`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'invalid_token', error_description: 'Invalid Value' });
    expect((await fetch(fake.userInfoUrl, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    expect(await (await fetch(fake.userInfoUrl, { headers: { authorization: `Bearer ${token.access_token}` } })).json()).toEqual({
      sub: expect.any(String),
      name: 'E F',
      given_name: 'E',
      family_name: 'F',
      email: 'e@example.com',
      email_verified: true,
    });
    expect(await (await fetch(`${fake.url}/gsi-client.js`)).text()).toContain('initTokenClient');
  });
});
