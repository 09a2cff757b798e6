/**
 * A local stand-in for Google sign-in: a double of Google Identity Services' script (token
 * client), the token dialog behind it, and the tokeninfo and OpenID userinfo endpoints in
 * Google's formats. Mounted at /dev/google by the main app when GOOGLE_CLIENT_ID is not set.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { sendScript } from '../../meta/fake/assets';

interface GoogleUser {
  sub: string;
  email: string;
  given_name: string;
  family_name: string;
}

interface GoogleToken {
  sub: string;
  clientId: string;
  scope: string;
  expiresAt: number;
}

interface FakeGoogleData {
  users: Record<string, GoogleUser>;
  tokens: Record<string, GoogleToken>;
}

const DEFAULT_SCOPE = 'openid email profile';

export class FakeGoogleStore {
  data: FakeGoogleData;

  constructor(private readonly statePath?: string) {
    this.data = { users: {}, tokens: {} };
    if (statePath && existsSync(statePath)) {
      try {
        this.data = { ...this.data, ...(JSON.parse(readFileSync(statePath, 'utf8')) as Partial<FakeGoogleData>) };
      } catch {
        // A corrupt state file only costs the demo its fake Google accounts.
      }
    }
  }

  private save(): void {
    const now = Date.now();
    for (const [token, grant] of Object.entries(this.data.tokens)) if (grant.expiresAt < now) delete this.data.tokens[token];
    if (!this.statePath) return;
    mkdirSync(path.dirname(this.statePath), { recursive: true });
    const tmp = `${this.statePath}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.data));
    renameSync(tmp, this.statePath);
  }

  /** What Google's consent screen does: an access token for the client id (the same `sub` per e-mail, like a Google account). */
  issueToken(input: { email: string; firstName?: string; lastName?: string; clientId: string; scope?: string; expiresInSeconds?: number }) {
    const email = input.email.trim().toLowerCase();
    let user = Object.hasOwn(this.data.users, email) ? this.data.users[email] : undefined;
    if (!user) {
      // Google subjects are 21-digit numbers; derive one from the e-mail so it is stable.
      const sub = '1' + BigInt('0x' + createHash('sha256').update(email).digest('hex').slice(0, 16)).toString().padStart(20, '0').slice(0, 20);
      user = { sub, email, given_name: input.firstName?.trim() || 'Test', family_name: input.lastName?.trim() || 'User' };
      this.data.users[email] = user;
    }
    const expiresIn = input.expiresInSeconds ?? 3599;
    const scope = input.scope?.trim() || DEFAULT_SCOPE;
    const accessToken = `ya29.${randomBytes(48).toString('base64url')}`;
    this.data.tokens[accessToken] = { sub: user.sub, clientId: input.clientId, scope, expiresAt: Date.now() + expiresIn * 1000 };
    this.save();
    return { access_token: accessToken, expires_in: expiresIn, scope, token_type: 'Bearer' as const };
  }

  /** The token and its user, if the token exists and has not expired. */
  lookup(accessToken: string): { token: GoogleToken; user: GoogleUser } | null {
    const token = Object.hasOwn(this.data.tokens, accessToken) ? this.data.tokens[accessToken] : null;
    if (!token || token.expiresAt <= Date.now()) return null;
    const user = Object.values(this.data.users).find((u) => u.sub === token.sub);
    return user ? { token, user } : null;
  }
}

/** Google's scope names as tokeninfo lists them. */
function expandScope(scope: string): string {
  return scope
    .split(/\s+/)
    .filter(Boolean)
    .map((s) => (s === 'email' ? 'https://www.googleapis.com/auth/userinfo.email' : s === 'profile' ? 'https://www.googleapis.com/auth/userinfo.profile' : s))
    .join(' ');
}

const TokenDialogBody = z.object({
  email: z.string().trim().email(),
  first_name: z.string().trim().max(100).default(''),
  last_name: z.string().trim().max(100).default(''),
  client_id: z.string().min(1),
  scope: z.string().max(1000).optional(),
});

export interface FakeGoogleOptions {
  statePath?: string;
  store?: FakeGoogleStore;
}

export async function fakeGooglePlugin(app: FastifyInstance, options: FakeGoogleOptions): Promise<void> {
  const store = options.store ?? new FakeGoogleStore(options.statePath);

  app.get('/gsi-client.js', async (_request, reply) => sendScript(reply, 'gsiDouble.js', import.meta.url));

  app.post('/dialog/token', async (request, reply) => {
    const parsed = TokenDialogBody.safeParse(request.body ?? {});
    if (!parsed.success) return reply.code(400).send({ error: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
    const body = parsed.data;
    return store.issueToken({ email: body.email, firstName: body.first_name, lastName: body.last_name, clientId: body.client_id, scope: body.scope });
  });

  app.get('/tokeninfo', async (request, reply) => {
    const accessToken = (request.query as { access_token?: string }).access_token ?? '';
    const found = store.lookup(accessToken);
    if (!found) return reply.code(400).send({ error: 'invalid_token', error_description: 'Invalid Value' });
    const { token, user } = found;
    const withEmail = token.scope.split(/\s+/).includes('email') ? { email: user.email, email_verified: 'true' } : {};
    // Google answers numbers as strings here.
    return {
      azp: token.clientId,
      aud: token.clientId,
      sub: user.sub,
      scope: expandScope(token.scope),
      exp: String(Math.floor(token.expiresAt / 1000)),
      expires_in: String(Math.max(0, Math.floor((token.expiresAt - Date.now()) / 1000))),
      ...withEmail,
      access_type: 'online',
    };
  });

  app.get('/userinfo', async (request, reply) => {
    const accessToken = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const found = store.lookup(accessToken);
    if (!found) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="https://accounts.google.com/", error="invalid_token"')
        .send({ error: 'invalid_request', error_description: 'Invalid Credentials' });
    }
    const { token, user } = found;
    const scopes = token.scope.split(/\s+/);
    return {
      sub: user.sub,
      ...(scopes.includes('profile') ? { name: `${user.given_name} ${user.family_name}`.trim(), given_name: user.given_name, family_name: user.family_name } : {}),
      ...(scopes.includes('email') ? { email: user.email, email_verified: true } : {}),
    };
  });
}

export interface StartedFakeGoogle {
  url: string;
  tokenInfoUrl: string;
  userInfoUrl: string;
  state: FakeGoogleStore;
  close(): Promise<void>;
}

/** The fake on its own server, on a free port of 127.0.0.1 (tests). */
export async function startFakeGoogle(options: FakeGoogleOptions = {}): Promise<StartedFakeGoogle> {
  const state = options.store ?? new FakeGoogleStore(options.statePath);
  const app = Fastify({ logger: false });
  await app.register(fakeGooglePlugin, { store: state });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return { url, tokenInfoUrl: `${url}/tokeninfo`, userInfoUrl: `${url}/userinfo`, state, close: () => app.close() };
}
