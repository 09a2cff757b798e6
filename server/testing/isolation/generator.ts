/**
 * The tenant-isolation checks, generated from the app's own route table (`app.routeAccess`) and the
 * hub's topic table (`app.realtime.topicAccess()`). Every check returns findings instead of
 * throwing, so the self-test can prove a leaky route IS reported. Per access kind:
 *
 *   user, company   (1) no token → 401
 *   company         (2) A's token with B's Company header → 403
 *   user, company   (3) A's token and header with B's ids in path, query and body (the plugins' isolation.ts, ./fixtures.ts)
 *                       → 403/404 (or the fixture's allowed statuses), no 5xx, nothing of B's in the
 *                       answer (MARKER), B's rows unchanged
 *   company(area)   (4) each role without the declared permission (admin and agent by their
 *                       defaults; the manager with it turned off in company_role_permissions) → 403
 *   botKey          no key → 401; A's key with B's ids → 403/404, B unchanged, nothing leaked
 *   signedWebhook,
 *   signedUrl       without the secret (params replaced, no signature) → a 4xx, never 2xx or 5xx
 *   public          listed only
 *   topics          A's socket joining B's topics → refused; a role without the topic's permission
 *                   joining A's own → refused; a prefix without a fixture is a finding
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { defaultPermissions, canManage, canView } from '../../../contract/permissions';
import { companyRolePermissions } from '../../core/db/schema';
import { describeRule, describeTopicRule, type AccessRule, type RouteAccessEntry, type TopicAccessRule } from '../../core/access';
import type { TestApp } from '../testApp';
import type { RouteFixture } from './fixtures';
import { MARKER, type Person, type World } from './world';

export interface Finding {
  route: string;
  check: string;
  detail: string;
}

export interface IsolationOptions {
  t: TestApp;
  world: World;
  fixtures: Record<string, RouteFixture>;
  /** Called with each (route, check) that ran: the self-test proves every kind's branch is exercised. */
  onCheck?: (route: string, kind: AccessRule['kind'], check: string) => void;
}

const routeKey = (e: Pick<RouteAccessEntry, 'method' | 'url'>) => `${e.method} ${e.url}`;

function pathParams(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]).concat(url.includes('*') ? ['*'] : []);
}

function hasBody(entry: RouteAccessEntry): boolean {
  return !!(entry.schema as { body?: unknown } | undefined)?.body;
}

function fillPath(url: string, params: Record<string, string | number>): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => encodeURIComponent(String(params[name]))).replace('*', String(params['*'] ?? 'x'));
}

function withQuery(url: string, query: Record<string, string> | undefined): string {
  if (!query || Object.keys(query).length === 0) return url;
  return `${url}?${new URLSearchParams(query).toString()}`;
}

/** The routes the generator must be able to call with B's ids, and what is missing for them. */
export function missingFixtures(routes: readonly RouteAccessEntry[], fixtures: Record<string, RouteFixture>): Finding[] {
  const findings: Finding[] = [];
  for (const entry of routes) {
    if (!['user', 'company', 'botKey'].includes(entry.access.kind)) continue;
    const fixture = fixtures[routeKey(entry)];
    const params = pathParams(entry.url);
    if (params.length > 0 && !fixture?.params) {
      findings.push({ route: routeKey(entry), check: 'fixture', detail: `no path fixture for ${params.map((p) => `:${p}`).join(', ')}: add it to the plugin’s isolation.ts (server/plugins/<id>/isolation.ts)` });
    }
    if (hasBody(entry) && !fixture?.body) {
      findings.push({ route: routeKey(entry), check: 'fixture', detail: 'no body fixture (a valid body with B’s ids where it carries ids): add it to the plugin’s isolation.ts (server/plugins/<id>/isolation.ts)' });
    }
  }
  return findings;
}

export class IsolationChecker {
  readonly findings: Finding[] = [];

  constructor(private readonly o: IsolationOptions) {}

  private get app(): FastifyInstance {
    return this.o.t.app;
  }

  private report(entry: RouteAccessEntry, check: string, detail: string): void {
    this.findings.push({ route: routeKey(entry), check, detail: `${detail} [${describeRule(entry.access)}]` });
  }

  private ran(entry: RouteAccessEntry, check: string): void {
    this.o.onCheck?.(routeKey(entry), entry.access.kind, check);
  }

  private inject(entry: RouteAccessEntry, input: { headers: Record<string, string>; fixture?: RouteFixture; garbleParams?: boolean }): Promise<LightMyRequestResponse> {
    const { world } = this.o;
    const fixture = input.fixture ?? {};
    const params = input.garbleParams
      ? Object.fromEntries(pathParams(entry.url).map((p) => [p, 'not-a-valid-secret-0000']))
      : (fixture.params?.(world) ?? Object.fromEntries(pathParams(entry.url).map((p) => [p, '1'])));
    const url = withQuery(fillPath(entry.url, params), input.garbleParams ? undefined : fixture.query?.(world));
    const body = fixture.body?.(world);
    return this.app.inject({
      method: entry.method as 'GET',
      url,
      headers: input.headers,
      ...(body !== undefined && entry.method !== 'GET' && entry.method !== 'DELETE' ? { payload: body as object } : {}),
    });
  }

  private bearer(p: Person, companyId?: number): Record<string, string> {
    return this.o.t.headers(p.access, companyId);
  }

  private expectStatus(entry: RouteAccessEntry, check: string, res: LightMyRequestResponse, wanted: number[]): void {
    this.ran(entry, check);
    if (!wanted.includes(res.statusCode)) this.report(entry, check, `expected ${wanted.join('/')}, got ${res.statusCode}: ${res.body.slice(0, 200)}`);
  }

  /** (3) and the bot-key variant: B's ids from A's side — refused, B unchanged, nothing of B's in the answer. */
  private async crossTenant(entry: RouteAccessEntry, check: string, headers: Record<string, string>): Promise<void> {
    const fixture = this.o.fixtures[routeKey(entry)] ?? {};
    const before = await this.o.world.snapshotB();
    const res = await this.inject(entry, { headers, fixture });
    this.ran(entry, check);
    const allowed = [403, 404, ...(fixture.allowed ?? [])];
    if (res.statusCode >= 500) this.report(entry, check, `server error ${res.statusCode}: ${res.body.slice(0, 200)}`);
    else if (!allowed.includes(res.statusCode)) this.report(entry, check, `another company's ids answered ${res.statusCode} (expected ${allowed.join('/')}): ${res.body.slice(0, 200)}`);
    if (res.body.includes(MARKER)) this.report(entry, check, `the answer contains another company's data: ${res.body.slice(0, 300)}`);
    const after = await this.o.world.snapshotB();
    if (after !== before) this.report(entry, check, 'another company’s rows changed');
  }

  /** Runs every check the route's declared rule calls for. */
  async checkRoute(entry: RouteAccessEntry): Promise<void> {
    const { world } = this.o;
    const { A, B } = world;
    const rule = entry.access;
    switch (rule.kind) {
      case 'public':
        this.ran(entry, 'listed');
        return;
      case 'signedWebhook':
      case 'signedUrl': {
        const res = await this.inject(entry, { headers: {}, garbleParams: true });
        this.ran(entry, 'without the secret');
        if (res.statusCode < 400 || res.statusCode >= 500) this.report(entry, 'without the secret', `expected a 4xx, got ${res.statusCode}`);
        return;
      }
      case 'botKey': {
        this.expectStatus(entry, 'no key', await this.inject(entry, { headers: {}, fixture: this.o.fixtures[routeKey(entry)] }), [401]);
        await this.crossTenant(entry, "another company's ids with A's key", { authorization: `Bot ${A.botKey}` });
        return;
      }
      case 'user':
      case 'company': {
        await world.refreshTokens();
        const companyHeader: Record<string, string> = rule.kind === 'company' ? { company: String(A.id) } : {};
        // (1) without a token
        this.expectStatus(entry, 'no token', await this.inject(entry, { headers: companyHeader, fixture: this.o.fixtures[routeKey(entry)] }), [401]);
        // (2) A's user, B's company
        if (rule.kind === 'company') {
          this.expectStatus(entry, "another company's header", await this.inject(entry, { headers: this.bearer(A.admin, B.id), fixture: this.o.fixtures[routeKey(entry)] }), [403]);
        }
        // (4) roles without the declared permission
        if (rule.kind === 'company' && rule.permission) await this.checkRoles(entry, rule.permission);
        // (3) A's own header, B's ids (last: it may change A's own data, e.g. end A's session)
        await this.crossTenant(entry, "another company's ids", this.bearer(A.admin, rule.kind === 'company' ? A.id : undefined));
        return;
      }
    }
  }

  private async checkRoles(entry: RouteAccessEntry, permission: { area: string; access: 'view' | 'manage' }): Promise<void> {
    const { A } = this.o.world;
    const has = (perms: Record<string, boolean>) => (permission.access === 'view' ? canView(perms, permission.area) : canManage(perms, permission.area));
    for (const p of [A.admin, A.agent]) {
      if (has(defaultPermissions(p.role))) continue;
      this.expectStatus(entry, `role ${p.role} without ${permission.area} ${permission.access}`, await this.inject(entry, { headers: this.bearer(p, A.id), fixture: this.o.fixtures[routeKey(entry)] }), [403]);
    }
    // The manager with exactly this permission turned off for A (the view flag for view, the manage flag for manage).
    const db = this.o.t.db;
    const key = `can_${permission.access}_${permission.area}`;
    await db.insert(companyRolePermissions).values({ companyId: A.id, role: 'manager', permissions: { ...defaultPermissions('manager'), [key]: false } });
    try {
      this.expectStatus(entry, `manager with ${key} off`, await this.inject(entry, { headers: this.bearer(A.manager, A.id), fixture: this.o.fixtures[routeKey(entry)] }), [403]);
    } finally {
      await db.delete(companyRolePermissions).where(and(eq(companyRolePermissions.companyId, A.id), eq(companyRolePermissions.role, 'manager')));
    }
  }

  async checkRoutes(routes: readonly RouteAccessEntry[]): Promise<void> {
    this.findings.push(...missingFixtures(routes, this.o.fixtures));
    // Bot-key routes first: a login route may change A's own credentials (end a session, rotate A's bot key).
    const ordered = [...routes.filter((e) => e.access.kind === 'botKey'), ...routes.filter((e) => e.access.kind !== 'botKey')];
    for (const entry of ordered) await this.checkRoute(entry);
  }
}

export interface TopicFixture {
  /** B's topics under the prefix: A's socket must be refused. */
  other: (w: World) => string[];
  /** A's own topics under the prefix: refused for a role without the declared permission. */
  own: (w: World) => string[];
}

export type TopicJoin = (who: Person, companyId: number, topic: string) => Promise<{ status: string; response: unknown }>;

/** Socket topics: one finding per join that should have been refused and was not. */
export async function checkTopics(
  topics: { prefix: string; access: TopicAccessRule }[],
  fixtures: Record<string, TopicFixture>,
  world: World,
  join: TopicJoin,
  setManagerPermissions: (permissions: Record<string, boolean> | null) => Promise<void>,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const { A } = world;
  for (const { prefix, access } of topics) {
    const name = `topic ${prefix}:* [${describeTopicRule(access)}]`;
    const fixture = fixtures[prefix];
    if (!fixture) {
      findings.push({ route: name, check: 'fixture', detail: `no topic fixture: add one to the topics of the plugin’s isolation.ts (server/plugins/<id>/isolation.ts)` });
      continue;
    }
    for (const topic of fixture.other(world)) {
      const reply = await join(A.admin, A.id, topic);
      if (reply.status === 'ok') findings.push({ route: name, check: "another company's topic", detail: `A's socket joined ${topic}: ${JSON.stringify(reply.response).slice(0, 200)}` });
      if (JSON.stringify(reply.response ?? null).includes(MARKER)) findings.push({ route: name, check: "another company's topic", detail: `the refusal of ${topic} contains another company's data` });
    }
    if (access.permission) {
      const key = `can_${access.permission.access}_${access.permission.area}`;
      await setManagerPermissions({ ...defaultPermissions('manager'), [key]: false });
      try {
        for (const topic of fixture.own(world)) {
          const reply = await join(A.manager, A.id, topic);
          if (reply.status === 'ok') findings.push({ route: name, check: `manager with ${key} off`, detail: `joined ${topic}` });
        }
      } finally {
        await setManagerPermissions(null);
      }
    }
  }
  return findings;
}

export function formatFindings(findings: Finding[]): string {
  return findings.map((f) => `${f.route} — ${f.check}: ${f.detail}`).join('\n');
}
