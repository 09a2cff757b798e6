/**
 * Property-based fuzzing in `npm test` (fast-check, seeded, deterministic): for every route of the
 * route table, requests generated from its zod schemas and mutated (wrong types, NUL, huge strings,
 * deep nesting, extra and prototype keys…) are sent with valid auth; then generated and mutated
 * pushes on the inbox's socket topics. No 5xx, no crashed channel, and the server still answers.
 * bench/fuzz runs the same with 100,000 cases.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships } from '../core/db/schema';
import { connect, disconnect, join, phoenixSocket } from '../core/realtime/testSupport';
import { DEFAULT_REALTIME_CONFIG } from '../core/config';
import { InMemoryGraph } from '../plugins/channels/testing';
import { chatService } from '../plugins/chats';
import { SocialTokenError, type GoogleIdentity } from '../providers/meta/types';
import { createTestApp, type TestApp } from './testApp';
import { seedWorld, type World } from './isolation/world';
import { emptyStats, fuzzableRoutes, fuzzRoute, fuzzSocket } from './fuzz/runner';

const CASES_PER_ROUTE = 20;
const SOCKET_CASES = 200;
const SEED = 20261123;

/** Google answering every generated token as invalid (the test app has no Google to reach). */
const rejectingGoogle: GoogleIdentity = {
  async verifyAccessToken() {
    throw new SocialTokenError();
  },
};

let t: TestApp;
let world: World;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp({
    // The per-socket rate limit would close the fuzzing socket (by design): off here.
    config: { logLevel: 'fatal', realtime: { ...DEFAULT_REALTIME_CONFIG, rateLimitPerSecond: 1e9, rateLimitBurst: 1e9, rateLimitCloseAfter: 1e9 } },
    overrides: { MetaGraph: new InMemoryGraph(), GoogleIdentity: rejectingGoogle },
  });
  world = await seedWorld(t);
  baseUrl = await t.listen();
}, 60_000);
afterAll(async () => {
  const server = t.app.server;
  const closing = t.close();
  server.closeAllConnections();
  await closing;
});

describe('fuzz (property-based, seeded)', () => {
  it('what the fuzz found stays fixed: a lone surrogate and an object with an odd length are a 400 on the field', async () => {
    await world.refreshTokens();
    const put = (payload: string) =>
      t.app.inject({ method: 'PUT', url: `/api/agent-templates/${world.A.agentTemplateId}/`, headers: { ...t.headers(world.A.admin.access, world.A.id), 'content-type': 'application/json' }, payload });
    const surrogate = await put('{"name":"ok","text":"a\\ud800b"}');
    expect(surrogate.statusCode).toBe(400);
    expect(Object.keys(surrogate.json())).toEqual(['text']);
    const oddLength = await put('{"name":{"toString":1,"length":{"toString":1}},"text":"x"}');
    expect(oddLength.statusCode).toBe(400);
    expect(Object.keys(oddLength.json())).toEqual(['name']);
  });

  it('what the fuzz found stays fixed: a tag whose lower case differs between JavaScript and the database is found again (add_tag crashed the room channel)', async () => {
    const chats = chatService(t.app);
    const first = await chats.ensureTag(world.A.id, 'Ꟊ᥈𓅒ᶍꦈ');
    expect(first?.id).toEqual(expect.any(Number));
    expect((await chats.ensureTag(world.A.id, 'Ꟊ᥈𓅒ᶍꦈ')).id).toBe(first.id);
  });

  it(`${CASES_PER_ROUTE} generated and mutated requests per route: no 5xx`, async () => {
    const stats = emptyStats();
    const routes = fuzzableRoutes(t.app.routeAccess);
    expect(routes.length).toBeGreaterThan(30);
    for (const [i, entry] of routes.entries()) {
      await world.refreshTokens();
      await fuzzRoute(t.app, world, entry, CASES_PER_ROUTE, SEED + i, stats);
    }
    expect(stats.cases).toBe(routes.length * CASES_PER_ROUTE);
    expect(stats.serverErrors, JSON.stringify(stats.serverErrors, null, 1)).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/health/' })).statusCode).toBe(200);
  }, 600_000);

  it(`${SOCKET_CASES} generated and mutated socket pushes: every push answered, no channel crashed`, async () => {
    // The HTTP fuzz above may have changed company A's team (a generated request can remove its admin, say):
    // the socket fuzz starts from A's admin as a member again.
    const [membership] = await t.db.select().from(memberships).where(and(eq(memberships.companyId, world.A.id), eq(memberships.userId, world.A.admin.id)));
    if (!membership) await t.seed.member(world.A.id, world.A.admin.id, 'admin');
    else if (membership.role !== 'admin') await t.db.update(memberships).set({ role: 'admin' }).where(eq(memberships.id, membership.id));
    await world.refreshTokens();
    const open = async () => {
      const socket = phoenixSocket(`${baseUrl.replace('http', 'ws')}/socket`, 'websocket', { token: world.A.admin.access, company_id: String(world.A.id) });
      await connect(socket);
      const page = socket.channel(`page:${world.A.sandboxChannelId}`, {});
      const room = socket.channel(`room:${world.A.roomId}`, { viewing: false });
      expect((await join(page)).status).toBe('ok');
      expect((await join(room)).status).toBe('ok');
      return { socket, channels: { page, room } };
    };
    const result = await fuzzSocket(open, disconnect, SOCKET_CASES, SEED);
    expect(result.cases + result.skipped).toBe(SOCKET_CASES);
    expect(result.channelCrashes, JSON.stringify(result.channelCrashes, null, 1)).toEqual([]);
    expect(result.serverErrors, JSON.stringify(result.serverErrors, null, 1)).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/health/' })).statusCode).toBe(200);
  }, 300_000);
});
