/**
 * The fixture registry of the generated isolation test: for every route that needs a login (or a
 * bot key), what to send so the call reaches the handler with ANOTHER company's ids (`w.B`) in
 * its path, querystring and body, merged from the plugins' isolation areas (each plugin's
 * server/plugins/<id>/isolation.ts, listed in ./areaRegistry.ts). The test fails loudly, naming the
 * route, when a route with path parameters or a body has no fixture — add it to its plugin's
 * isolation.ts in the same change as the route.
 *
 * `params`: every `:name` of the path (B's ids). Use `w.B` ids; a parameter that names nothing a
 *   company owns (a role id) may use a plain value.
 * `query` / `body`: a VALID request (so the answer is not a 400 that hides a leak), carrying B's
 *   ids wherever the request carries ids. `body` is required for routes with a body schema.
 * `allowed`: statuses besides 403/404 that are a correct refusal or a harmless answer for this
 *   route with B's ids (e.g. 400 when the service reports "not yours" as a field error; 2xx when the
 *   route acts on the caller's own data only, like creating a company).
 */
import type { TopicFixture } from './generator';
import type { World } from './world';
import { ISOLATION_AREAS } from './areaRegistry';

export interface RouteFixture {
  params?: (w: World) => Record<string, string | number>;
  query?: (w: World) => Record<string, string>;
  body?: (w: World) => unknown;
  allowed?: number[];
}

/** Fixtures merged from the areas; a route or topic given by two areas is a mistake, not an override. */
function mergeFixtures<F>(part: (area: (typeof ISOLATION_AREAS)[number]) => Record<string, F> | undefined): Record<string, F> {
  const merged: Record<string, F> = {};
  for (const area of ISOLATION_AREAS) {
    for (const [key, fixture] of Object.entries(part(area) ?? {})) {
      if (key in merged) throw new Error(`isolation fixture "${key}" is given twice (area ${area.name})`);
      merged[key] = fixture;
    }
  }
  return merged;
}

/** Every plugin's route fixtures (server/plugins/<id>/isolation.ts), keyed 'METHOD /path/:param/'. */
export const ROUTE_FIXTURES: Record<string, RouteFixture> = mergeFixtures((area) => area.routes);

/** Socket topics: B's resources under each prefix (A's socket must be refused) and A's own (refused without the permission). */
export const TOPIC_FIXTURES: Record<string, TopicFixture> = mergeFixtures((area) => area.topics);
