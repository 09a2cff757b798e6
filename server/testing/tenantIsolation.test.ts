/**
 * The tenant-isolation test, generated from the server's own route table and topic table (see
 * isolation/generator.ts for the checks per access kind, isolation/fixtures.ts for what a new route
 * adds). Every route and socket topic the app serves is covered without anyone listing it here; a
 * route without an access rule cannot even be built, and one without fixtures fails below.
 *
 * The self-test at the end registers test-only routes and topics (under /api/test-only/ and
 * `leaky:`/`tight:`) — one of each access kind, and deliberately leaky ones — and proves the
 * generator reports the leaks and exercises every kind's branch: this test can fail.
 */
import { and, eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_KINDS, access, MissingAccessRuleError, registerAccessControl, topicAccess, type AccessKind } from '../core/access';
import { companies, companyRolePermissions, rooms } from '../core/db/schema';
import { notFound, unauthorized } from '../core/errors';
import { connect, disconnect, join, phoenixSocket } from '../core/realtime/testSupport';
import { InMemoryGraph } from '../plugins/channels/testing';
import { createTestApp, type TestApp } from './testApp';
import { ROUTE_FIXTURES, TOPIC_FIXTURES, type RouteFixture } from './isolation/fixtures';
import { checkTopics, formatFindings, IsolationChecker, missingFixtures, type Finding, type TopicFixture, type TopicJoin } from './isolation/generator';
import { MARKER, seedWorld, type World } from './isolation/world';

const TEST_ONLY = '/api/test-only/';

let t: TestApp;
let world: World;
let baseUrl: string;

/** Test-only routes, one per access kind, plus deliberately leaky ones (registered in this app only). */
function registerSelfTestRoutes(app: FastifyInstance): void {
  const db = () => app.services.get('Database');
  const roomById = async (id: string) => (await db().select().from(rooms).where(eq(rooms.id, Number(id))))[0];
  const companyRow = async (id: number) => (await db().select().from(companies).where(eq(companies.id, id)))[0] ?? null;
  const botKeys = async (key: string) => (world && key === world.A.botKey ? companyRow(world.A.id) : world && key === world.B.botKey ? companyRow(world.B.id) : null);

  // Ignores the company: the generator must report it.
  app.get<{ Params: { id: string } }>(`${TEST_ONLY}leaky/rooms/:id/`, { config: { access: access.company('chats', 'view') } }, async (request) => {
    const room = await roomById(request.params.id);
    if (!room) throw notFound();
    return { name: room.name };
  });
  app.get<{ Params: { id: string } }>(`${TEST_ONLY}tight/rooms/:id/`, { config: { access: access.company('chats', 'manage') } }, async (request) => {
    const room = await roomById(request.params.id);
    if (!room || room.companyId !== request.company!.id) throw notFound();
    return { name: room.name };
  });
  app.get(`${TEST_ONLY}user/`, { config: { access: access.user() } }, async (request) => ({ id: request.user!.id }));
  app.get(`${TEST_ONLY}public/`, { config: { access: access.public('self-test of the public branch') } }, async () => ({ ok: true }));
  app.post(`${TEST_ONLY}webhook/`, { config: { access: access.signedWebhook('self-test: x-test-signature must be "good"') } }, async (request) => {
    if (request.headers['x-test-signature'] !== 'good') throw unauthorized('Invalid signature.', 'invalid_signature');
    return { ok: true };
  });
  app.get<{ Params: { key: string } }>(`${TEST_ONLY}signed/:key/`, { config: { access: access.signedUrl('self-test: the key is the secret') } }, async (request) => {
    if (request.params.key !== 'the-secret') throw notFound();
    return { ok: true };
  });
  app.get<{ Params: { id: string } }>(`${TEST_ONLY}bot/rooms/:id/`, { config: { access: access.botKey(botKeys) } }, async (request) => {
    const room = await roomById(request.params.id);
    if (!room || room.companyId !== request.company!.id) throw notFound();
    return { name: room.name };
  });
  app.get<{ Params: { id: string } }>(`${TEST_ONLY}leaky-bot/rooms/:id/`, { config: { access: access.botKey(botKeys) } }, async (request) => {
    const room = await roomById(request.params.id);
    if (!room) throw notFound();
    return { name: room.name };
  });
  app.get<{ Params: { id: string } }>(`${TEST_ONLY}no-fixture/:id/`, { config: { access: access.company() } }, async () => ({ ok: true }));

  // Topics: a resource topic declared with the wrong (member) rule, and a correct one.
  const roomTopic = (handlerName: string) => ({
    async join(topic: string) {
      const room = await roomById(topic.split(':')[1]);
      return room ? { status: 'ok' as const, response: { name: room.name, via: handlerName } } : { status: 'error' as const, response: { reason: 'not found' } };
    },
  });
  app.realtime.registerChannel('leaky', topicAccess.member('self-test: a resource topic wrongly declared as member-wide'), roomTopic('leaky'));
  app.realtime.registerChannel(
    'tight',
    topicAccess.companyResource({
      permission: { area: 'chats', access: 'view' },
      belongsTo: async (id, identity) => (await roomById(String(id)))?.companyId === identity.companyId,
    }),
    roomTopic('tight'),
  );
  app.realtime.registerChannel('unlisted', topicAccess.member('self-test: a topic without a fixture'), roomTopic('unlisted'));
}

const SELF_TEST_FIXTURES: Record<string, RouteFixture> = {
  [`GET ${TEST_ONLY}leaky/rooms/:id/`]: { params: (w) => ({ id: w.B.roomId }) },
  [`GET ${TEST_ONLY}tight/rooms/:id/`]: { params: (w) => ({ id: w.B.roomId }) },
  [`GET ${TEST_ONLY}user/`]: { allowed: [200] },
  [`GET ${TEST_ONLY}bot/rooms/:id/`]: { params: (w) => ({ id: w.B.roomId }) },
  [`GET ${TEST_ONLY}leaky-bot/rooms/:id/`]: { params: (w) => ({ id: w.B.roomId }) },
};

const SELF_TEST_TOPICS: Record<string, TopicFixture> = {
  leaky: { other: (w) => [`leaky:${w.B.roomId}`], own: (w) => [`leaky:${w.A.roomId}`] },
  tight: { other: (w) => [`tight:${w.B.roomId}`], own: (w) => [`tight:${w.A.roomId}`] },
};

const socketJoin: TopicJoin = async (who, companyId, topic) => {
  const socket = phoenixSocket(`${baseUrl.replace('http', 'ws')}/socket`, 'websocket', { token: who.access, company_id: String(companyId) });
  await connect(socket);
  try {
    const channel = socket.channel(topic, {});
    const reply = await join(channel);
    channel.leave();
    return reply;
  } finally {
    await disconnect(socket);
  }
};

async function setManagerPermissions(permissions: Record<string, boolean> | null): Promise<void> {
  const { A } = world;
  await t.db.delete(companyRolePermissions).where(and(eq(companyRolePermissions.companyId, A.id), eq(companyRolePermissions.role, 'manager')));
  if (permissions) await t.db.insert(companyRolePermissions).values({ companyId: A.id, role: 'manager', permissions });
  // The socket's connect-time identity is cached: drop it, as a role change does.
  await t.app.realtime.disconnect({ userId: A.manager.id, companyId: A.id });
}

beforeAll(async () => {
  t = await createTestApp({
    config: { logLevel: 'fatal' },
    overrides: { MetaGraph: new InMemoryGraph() },
    onBuild: registerSelfTestRoutes,
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

const productRoutes = () => t.app.routeAccess.filter((e) => !e.url.startsWith(TEST_ONLY));
const selfTestRoutes = () => t.app.routeAccess.filter((e) => e.url.startsWith(TEST_ONLY));

describe('tenant isolation, generated from the route table', () => {
  it('every route of the app declares an access rule and has its fixtures', () => {
    const routes = productRoutes();
    expect(routes.length).toBeGreaterThan(30);
    // Fastify's own list of routes (HEAD twins aside) is exactly the recorded table: nothing escaped the hook.
    const recorded = new Set(t.app.routeAccess.map((e) => `${e.method} ${e.url}`));
    for (const e of t.app.routeAccess) expect(ACCESS_KINDS).toContain(e.access.kind);
    expect(recorded.size).toBe(t.app.routeAccess.length);
    const missing = missingFixtures(routes, ROUTE_FIXTURES);
    expect(missing, formatFindings(missing)).toEqual([]);
  });

  it('every route that needs a login refuses another company (no token, foreign header, foreign ids, each role)', async () => {
    const checked = new Map<string, Set<string>>();
    const checker = new IsolationChecker({ t, world, fixtures: ROUTE_FIXTURES, onCheck: (route, _kind, check) => checked.set(route, (checked.get(route) ?? new Set()).add(check)) });
    const routes = productRoutes().filter((e) => e.access.kind !== 'public');
    await checker.checkRoutes(routes);
    expect(checker.findings, formatFindings(checker.findings)).toEqual([]);
    // Every route was really called, with every check its kind calls for.
    for (const e of routes) {
      const ran = checked.get(`${e.method} ${e.url}`) ?? new Set();
      if (e.access.kind === 'user') expect([...ran], e.url).toEqual(expect.arrayContaining(['no token', "another company's ids"]));
      if (e.access.kind === 'company') expect([...ran], e.url).toEqual(expect.arrayContaining(['no token', "another company's header", "another company's ids"]));
      if (e.access.kind === 'company' && e.access.permission) expect([...ran].some((c) => c.startsWith('manager with')), e.url).toBe(true);
      if (e.access.kind === 'signedUrl' || e.access.kind === 'signedWebhook') expect([...ran], e.url).toContain('without the secret');
    }
  }, 300_000);

  it('every socket topic refuses another company’s resources and roles without its permission', async () => {
    const topics = t.app.realtime.topicAccess().filter((x) => !['leaky', 'tight', 'unlisted'].includes(x.prefix));
    expect(topics.map((x) => x.prefix).sort()).toEqual(expect.arrayContaining(['page', 'room']));
    const findings = await checkTopics(topics, TOPIC_FIXTURES, world, socketJoin, setManagerPermissions);
    expect(findings, formatFindings(findings)).toEqual([]);
  }, 120_000);
});

describe('the generator itself', () => {
  it('a route without an access rule fails when the app is built', async () => {
    const app = Fastify();
    registerAccessControl(app);
    app.get('/declared/', { config: { access: access.public('self-test route') } }, async () => 'ok');
    expect(() => app.get('/forgotten/', async () => 'oops')).toThrow(MissingAccessRuleError);
    // Inside a plugin the error surfaces when the app is readied, i.e. when it is built.
    const scoped = Fastify();
    registerAccessControl(scoped);
    scoped.register(async (plugin) => {
      plugin.post('/forgotten-in-a-plugin/', async () => 'oops');
    });
    await expect(scoped.ready()).rejects.toBeInstanceOf(MissingAccessRuleError);
  });

  it('a rule cannot be faked with a plain object, and public routes need a reason', () => {
    const app = Fastify();
    registerAccessControl(app);
    expect(() => app.get('/fake/', { config: { access: { kind: 'public', reason: 'trust me', hooks: [] } as never } }, async () => 'x')).toThrow(/access\.\*\(\)/);
    expect(() => access.public('')).toThrow(/reason/);
  });

  it('the rule enforces what it declares, HEAD twins included', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: `${TEST_ONLY}user/` });
    expect(res.statusCode).toBe(401);
    const get = await t.app.inject({ method: 'GET', url: `${TEST_ONLY}tight/rooms/${world.A.roomId}/`, headers: t.headers(world.A.admin.access, world.B.id) });
    expect(get.statusCode).toBe(403);
  });

  it('reports a deliberately leaky route and a missing fixture, passes the tight ones, and exercises every access kind', async () => {
    const exercised = new Map<AccessKind, Set<string>>();
    const checker = new IsolationChecker({
      t,
      world,
      fixtures: SELF_TEST_FIXTURES,
      onCheck: (_route, kind, check) => exercised.set(kind, (exercised.get(kind) ?? new Set()).add(check)),
    });
    await checker.checkRoutes(selfTestRoutes());
    const byRoute = (fragment: string): Finding[] => checker.findings.filter((f) => f.route.includes(fragment));

    expect(byRoute('/leaky/rooms/').map((f) => f.check)).toContain("another company's ids");
    expect(byRoute('/leaky/rooms/').some((f) => f.detail.includes(MARKER) || f.detail.includes('answered 200'))).toBe(true);
    expect(byRoute('/leaky-bot/rooms/').map((f) => f.check)).toContain("another company's ids with A's key");
    expect(byRoute('/no-fixture/').map((f) => f.check)).toContain('fixture');
    for (const tight of ['/tight/rooms/', '/bot/rooms/', '/user/', '/public/', '/webhook/', '/signed/']) {
      expect(byRoute(tight).filter((f) => !f.route.includes('leaky')), tight).toEqual([]);
    }
    for (const kind of ACCESS_KINDS) expect(exercised.has(kind), `kind ${kind} exercised`).toBe(true);
    expect([...exercised.get('company')!]).toEqual(expect.arrayContaining(['no token', "another company's header", "another company's ids", 'manager with can_manage_chats off']));
  }, 120_000);

  it('reports a topic that lets another company join, and a topic without a fixture', async () => {
    const topics = t.app.realtime.topicAccess().filter((x) => ['leaky', 'tight', 'unlisted'].includes(x.prefix));
    const findings = await checkTopics(topics, SELF_TEST_TOPICS, world, socketJoin, setManagerPermissions);
    expect(findings.filter((f) => f.route.startsWith('topic leaky:')).map((f) => f.check)).toContain("another company's topic");
    expect(findings.filter((f) => f.route.startsWith('topic unlisted:')).map((f) => f.check)).toEqual(['fixture']);
    expect(findings.filter((f) => f.route.startsWith('topic tight:'))).toEqual([]);
  }, 60_000);
});
