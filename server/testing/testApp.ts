/**
 * Test harness: a fresh database per app (in-memory PGlite, or a throw-away PostgreSQL
 * database when TEST_DATABASE_URL is set and asked for), migrated (a copy of the run's migrated
 * template, ./globalSetup.ts, when there is one), the app built with testConfig and the local
 * outbox, plus helpers to seed data and sign in.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { describe } from 'vitest';
import type { LoginResponse } from '../../contract/api';
import type { PermissionMap, RoleId } from '../../contract/permissions';
import { testConfig, type AppConfig } from '../core/config';
import { openPglite, openPostgres, type Database, type OpenDatabase } from '../core/db/client';
import { applyMigrations } from '../core/db/migrate';
import { companies, companyRolePermissions, invites, memberships, onboardingRequests, users } from '../core/db/schema';
import { buildApp } from '../core/app';
import type { ServerPlugin } from '../core/plugins/defineServerPlugin';
import { serverPlugins } from '../plugins.config';
import { ManualClock } from '../core/clock';
import { hashPassword } from '../core/auth/passwords';
import { randomToken, sha256 } from '../core/auth/secrets';
import { OutboxEmailSender, firstLink, type OutboxEmail } from '../providers/email/outboxSender';
import { seedDemoData } from '../core/seed';
import { pgliteTemplate, postgresTemplate } from './databaseTemplates';
import { openReusedPglite } from './reusedPglite';
import { demoSeedersRef } from '../core/demoData';
import type { ServiceOverrides } from '../core/services';

export type DatabaseKind = 'pglite' | 'postgres';

export interface TestAppOptions {
  database?: DatabaseKind;
  config?: Partial<AppConfig>;
  overrides?: ServiceOverrides;
  /** The feature plugins; default: every plugin of server/plugins.config.ts. */
  plugins?: readonly ServerPlugin[];
  /** Runs on every app built (the first and each restart), before it is ready, e.g. to register test channels. */
  onBuild?: (app: FastifyInstance) => void | Promise<void>;
  /**
   * Builds this app on another test app's database (a second server process on the same database: the
   * cluster tests): on PostgreSQL with a connection pool of its own, on PGlite (one in-process database)
   * sharing the first app's connection. Its close() leaves the database to the first app. It has its own clock.
   */
  sameDatabaseAs?: TestApp;
}

export const TEST_PASSWORD = 'Correct-Horse-Battery-9';

/** A PostgreSQL database created for one test app (a copy of `template` when given) and dropped when it closes. */
async function openThrowawayPostgres(serverUrl: string, template: string | undefined): Promise<OpenDatabase & { url: string }> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`);
  await admin.end();

  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const opened = await openPostgres(url.toString());
  return {
    ...opened,
    url: url.toString(),
    async close() {
      await opened.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      // A connection may still be closing: wait for it rather than terminate it (a terminated client
      // reports an unhandled 57P01 error into whichever test runs next); FORCE only as a last resort.
      for (let attempt = 0; ; attempt++) {
        try {
          await dropper.query(attempt < 20 ? `DROP DATABASE IF EXISTS "${name}"` : `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
          break;
        } catch (err) {
          if ((err as { code?: string }).code !== '55006' || attempt >= 20) throw err; // 55006: object in use
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      await dropper.end();
    },
  };
}

function throwawayServerUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  return url;
}

/** A new database with no migration applied (dropped when it closes, on PostgreSQL): for the migrations' own test. */
export function openEmptyTestDatabase(kind: DatabaseKind): Promise<OpenDatabase> {
  return kind === 'postgres' ? openThrowawayPostgres(throwawayServerUrl(), undefined) : openPglite(null);
}

/** A new, migrated database: a copy of the run's template when there is one, else made and migrated here. */
async function openTestDatabase(kind: DatabaseKind, sameAs?: TestApp): Promise<OpenDatabase & { url?: string }> {
  if (sameAs) {
    // PGlite: the one in-process database, shared; closing this app leaves it to the first.
    if (!sameAs.databaseUrl) return { db: sameAs.db, driver: 'pglite', close: async () => {} };
    const opened = await openPostgres(sameAs.databaseUrl);
    return { ...opened, url: sameAs.databaseUrl };
  }
  if (kind === 'postgres') {
    const template = postgresTemplate();
    if (template) return openThrowawayPostgres(throwawayServerUrl(), template);
  } else {
    const template = pgliteTemplate();
    if (template) return openReusedPglite(template);
  }
  const database = await openEmptyTestDatabase(kind);
  await applyMigrations(database);
  return database;
}

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  /** PostgreSQL: the database's URL (another app may be built on it: sameDatabaseAs). */
  databaseUrl?: string;
  config: AppConfig;
  clock: ManualClock;
  outbox: {
    all(to?: string): Promise<OutboxEmail[]>;
    /** Newest e-mail to the address (throws when there is none). */
    last(to: string): Promise<OutboxEmail>;
    /** First link of the newest e-mail to the address. */
    link(to: string): Promise<string>;
  };
  login(email: string, password?: string): Promise<LoginResponse>;
  /** Authorization (and Company) headers for app.inject. */
  headers(access: string, companyId?: number): Record<string, string>;
  seed: {
    user(input: { email: string; password?: string; firstName?: string; lastName?: string }): Promise<number>;
    company(name: string, input?: { planName?: string | null; logo?: string | null }): Promise<number>;
    member(companyId: number, userId: number, role?: RoleId): Promise<void>;
    rolePermissions(companyId: number, role: RoleId, permissions: PermissionMap): Promise<void>;
    /** A pending invite; returns the raw token. */
    invite(companyId: number, email: string, input?: { role?: RoleId; expiresAt?: Date; revokedAt?: Date | null }): Promise<string>;
    verifiedEmail(email: string): Promise<void>;
    demo(): Promise<boolean>;
  };
  /** Listens on 127.0.0.1 (port 0: any free port) and returns the base URL, e.g. for socket clients. */
  listen(port?: number): Promise<string>;
  /** A server restart: closes the app (keeping the database) and builds a new one, listening on the same port if it listened. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await openTestDatabase(options.database ?? 'pglite', options.sameDatabaseAs);
  const { db } = database;
  const config = testConfig(options.config);
  const clock = new ManualClock();
  const outboxSender = new OutboxEmailSender(db, clock);
  const build = async () => {
    const built = await buildApp({ config, db, plugins: options.plugins ?? serverPlugins, overrides: { Clock: clock, Outbox: outboxSender, EmailSender: outboxSender, ...options.overrides } });
    await options.onBuild?.(built);
    await built.ready();
    return built;
  };
  let app = await build();
  let listeningPort: number | null = null;

  const outbox: TestApp['outbox'] = {
    all: (to) => outboxSender.list(to),
    async last(to) {
      const [email] = await outboxSender.list(to);
      if (!email) throw new Error(`no e-mail to ${to}`);
      return email;
    },
    async link(to) {
      const link = firstLink((await outbox.last(to)).text);
      if (!link) throw new Error(`the last e-mail to ${to} has no link`);
      return link;
    },
  };

  const seed: TestApp['seed'] = {
    async user({ email, password = TEST_PASSWORD, firstName = 'Test', lastName = 'User' }) {
      const passwordHash = await hashPassword(password, config.passwordHashCost);
      const [row] = await db.insert(users).values({ email: email.toLowerCase(), firstName, lastName, passwordHash }).returning({ id: users.id });
      return row.id;
    },
    async company(name, { planName = null, logo = null } = {}) {
      const [row] = await db.insert(companies).values({ name, planName, logo }).returning({ id: companies.id });
      return row.id;
    },
    async member(companyId, userId, role = 'agent') {
      await db.insert(memberships).values({ companyId, userId, role });
    },
    async rolePermissions(companyId, role, permissions) {
      await db.insert(companyRolePermissions).values({ companyId, role, permissions });
    },
    async invite(companyId, email, { role = 'agent', expiresAt, revokedAt = null } = {}) {
      const token = randomToken();
      await db.insert(invites).values({
        companyId,
        email: email.toLowerCase(),
        role,
        tokenHash: sha256(token),
        expiresAt: expiresAt ?? new Date(clock.now().getTime() + 7 * 24 * 3600 * 1000),
        revokedAt,
      });
      return token;
    },
    async verifiedEmail(email) {
      const now = clock.now();
      await db.insert(onboardingRequests).values({
        email: email.toLowerCase(),
        tokenHash: sha256(randomToken()),
        tokenExpiresAt: new Date(now.getTime() + 3600_000),
        verifiedAt: now,
      });
    },
    demo: () => seedDemoData(db, config, app.services.get('MediaStorage'), app.services.get(demoSeedersRef)),
  };

  async function login(email: string, password = TEST_PASSWORD): Promise<LoginResponse> {
    const res: LightMyRequestResponse = await app.inject({ method: 'POST', url: '/account/login/', payload: { email, password } });
    if (res.statusCode !== 200) throw new Error(`login of ${email} failed: ${res.statusCode} ${res.body}`);
    return res.json();
  }

  function headers(access: string, companyId?: number): Record<string, string> {
    return { authorization: `Bearer ${access}`, ...(companyId !== undefined ? { company: String(companyId) } : {}) };
  }

  async function listen(port = 0): Promise<string> {
    await app.listen({ port, host: '127.0.0.1' });
    const address = app.server.address();
    listeningPort = typeof address === 'object' && address ? address.port : port;
    return `http://127.0.0.1:${listeningPort}`;
  }

  return {
    get app() {
      return app;
    },
    db,
    databaseUrl: database.url,
    config,
    clock,
    outbox,
    login,
    headers,
    seed,
    listen,
    async restart() {
      const port = listeningPort;
      await app.close();
      app = await build();
      if (port !== null) await listen(port);
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** The databases a suite runs on: PGlite always, PostgreSQL too when TEST_DATABASE_URL is set. */
export function testDatabases(): DatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * Runs the suite once per available database; the callback receives which one. Only for the suites whose
 * SQL can behave differently on PostgreSQL (locks and claims, searches, stats, engines and background jobs,
 * races, migrations: docs/testing.md); any other suite is a plain `describe` on PGlite.
 */
export function describeEachDatabase(name: string, fn: (database: DatabaseKind) => void): void {
  for (const database of testDatabases()) {
    describe(`${name} [${database}]`, () => fn(database));
  }
}
