/**
 * One isolation "area" per feature plugin, so each plugin keeps its own part of the generated
 * tenant-isolation test beside its code (server/plugins/<area>/isolation.ts) instead of every
 * plugin editing the shared world and fixture files. An area gives the fixtures of its routes and
 * topics; one whose routes name resources of its own tables also seeds one of each for a company
 * (names and texts carrying `mark`, so a leak of B's data shows) and lists B's rows for the
 * before/after snapshot. The world (./world.ts) seeds what the core's tables hold and many areas
 * name: people, invites, channels, the sandbox room, tags, agent and WhatsApp templates.
 */
import type { TestApp } from '../testApp';
import type { RouteFixture } from './fixtures';
import type { TopicFixture } from './generator';
import type { CompanyWorld } from './world';

/** What an area's seed gets: the company already seeded with its people, channels, room… */
export type SeededCompany = Omit<CompanyWorld, 'areas'>;

export interface IsolationArea {
  /** The key under `CompanyWorld.areas` (e.g. 'broadcasts'). */
  name: string;
  /** Seeds the area's resources for one company; `mark` is '' for A and ' <MARKER>' for B. Returns the ids fixtures need. */
  seed?(t: TestApp, company: SeededCompany, mark: string): Promise<Record<string, number | string>>;
  /** B's rows of this area (compared before and after every call). */
  snapshot?(t: TestApp, companyId: number): Promise<unknown>;
  /** Fixtures of the area's routes, keyed 'METHOD /path/:param/' like ROUTE_FIXTURES. */
  routes: Record<string, RouteFixture>;
  /** Fixtures of the area's socket topic prefixes. */
  topics?: Record<string, TopicFixture>;
}
