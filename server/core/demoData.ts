/**
 * Demo data as plugin contributions (SEED_DEMO=true): the core seeds the demo's people and
 * companies (./seed.ts); each plugin adds its part through `coreExtensionPoints.demoData`, and the
 * server's start (server/main.ts) runs the parts phase by phase, each phase's seeders by ascending
 * `order`. A seeder checks its own preconditions (demo mode, the local fake Meta…) and must be safe to
 * run on every start (it seeds only what is missing).
 *
 * Phases:
 * - 'withCompanies': inside the transaction that creates the demo's users and companies, on a fresh
 *   database only (a failure rolls the whole demo back and stops the start). The test harness's
 *   `seed.demo()` runs this phase with the core's demo.
 * - 'beforeListen': once the app is built, before it listens.
 * - 'afterListen': once the app listens (seeders that reach the local fakes over HTTP).
 * In the last two, a seeder that is not `required` may fail without stopping the start: it is logged.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppConfig } from './config';
import type { Database, Tx } from './db/client';
import type { MediaStorage } from '../providers/storage/types';
import { createServiceRef } from './plugins/refs';


/** Who and what the core's demo creates (./seed.ts): the seeders find their company by name. */
export const DEMO = {
  admin: { email: 'admin@demo.test', firstName: 'Ada', lastName: 'Admin' },
  agent: { email: 'agent@demo.test', firstName: 'Alex', lastName: 'Agent' },
  companies: { demo: { name: 'Demo Company', planName: 'Growth' }, northwind: { name: 'Northwind Shop', planName: null } },
  northwindAgentOverride: { can_view_your_account: false, can_manage_your_account: false },
} as const;

/** What a 'withCompanies' seeder gets: the transaction creating the demo and the companies it created. */
export interface DemoCompaniesContext {
  tx: Tx;
  companyIds: { demo: number; northwind: number };
  /** The app's MediaStorage (the demo's pictures are stored like uploads). */
  storage: MediaStorage;
  demo: typeof DEMO;
}

/** What a 'beforeListen' / 'afterListen' seeder gets: the built app (listening in 'afterListen'). */
export interface DemoAppContext {
  app: FastifyInstance;
  config: AppConfig;
  db: Database;
  demo: typeof DEMO;
}

interface DemoSeederBase {
  /** Names the seeder in the log line of its failure. */
  id: string;
  /** Ascending within a phase. */
  order: number;
}

export type DemoSeeder =
  | (DemoSeederBase & { phase: 'withCompanies'; seed(ctx: DemoCompaniesContext): Promise<unknown> })
  | (DemoSeederBase & {
      phase: 'beforeListen' | 'afterListen';
      /** A failure stops the start (otherwise it is logged and the start goes on). */
      required?: boolean;
      seed(ctx: DemoAppContext): Promise<unknown>;
    });

export type DemoPhase = DemoSeeder['phase'];

/** Where plugins add their demo seeders (coreExtensionPoints.demoData). */
export interface DemoDataRegistry {
  add(seeder: DemoSeeder): void;
}

/** The app's demo seeders: plugins add them while they start; main.ts and the test harness run them. */
export class DemoSeeders implements DemoDataRegistry {
  private readonly seeders: DemoSeeder[] = [];

  add(seeder: DemoSeeder): void {
    if (this.seeders.some((s) => s.id === seeder.id)) throw new Error(`The demo seeder "${seeder.id}" is added twice`);
    this.seeders.push(seeder);
  }

  private inPhase<P extends DemoPhase>(phase: P): Extract<DemoSeeder, { phase: P }>[] {
    return this.seeders.filter((s): s is Extract<DemoSeeder, { phase: P }> => s.phase === phase).sort((a, b) => a.order - b.order);
  }

  /** Inside the core demo's transaction (./seed.ts): any failure rolls the demo back. */
  async seedWithCompanies(ctx: DemoCompaniesContext): Promise<void> {
    for (const seeder of this.inPhase('withCompanies')) await seeder.seed(ctx);
  }

  /** One phase of the start; a seeder that is not required and fails is logged. */
  async seedApp(phase: 'beforeListen' | 'afterListen', ctx: DemoAppContext, log: Pick<FastifyBaseLogger, 'error'>): Promise<void> {
    for (const seeder of this.inPhase(phase)) {
      if (seeder.required) await seeder.seed(ctx);
      else await seeder.seed(ctx).catch((err: unknown) => log.error({ err }, `demo ${seeder.id}`));
    }
  }
}

/** The app's demo seeders (app.services.get(demoSeedersRef)): main.ts and the test harness run them. */
export const demoSeedersRef = createServiceRef<DemoSeeders>({ id: 'core.demoSeeders' });
