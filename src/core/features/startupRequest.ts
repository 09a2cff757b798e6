/**
 * GET /api/client-config/ for the console's start-up keys (startupFeatures.ts), asked by the entry (src/app/main.tsx)
 * as soon as it runs on a signed-in path. The shell's chunk (plugins.config, react-admin), which used to ask only once
 * it had arrived and run, finds the answer there: on a phone the shell's download takes the first 2-3 s of a load, and
 * the round trip after it delayed every signed-in page (issue #26, bench/bundle README). No imports: the entry's
 * weight stays as it is.
 */
export const CLIENT_CONFIG_PATH = '/api/client-config/';

const REQUEST: RequestInit = { headers: { Accept: 'application/json' }, credentials: 'omit' };

let early: Promise<Response> | null = null;

function clientConfigUrl(apiBase: string): string {
  return `${apiBase.replace(/\/+$/, '')}${CLIENT_CONFIG_PATH}`;
}

/** Asks now, for the shell to take later (startupConfigResponse). A failure is the taker's to handle. */
export function requestStartupConfig(apiBase: string, fetch: typeof globalThis.fetch = globalThis.fetch): void {
  try {
    early = fetch(clientConfigUrl(apiBase), REQUEST);
    early.catch(() => undefined); // not an unhandled rejection while nobody has taken it yet
  } catch {
    early = null;
  }
}

/** The entry's request if it made one (taken once: a later start asks again), else a new one. */
export function startupConfigResponse(apiBase: string, fetch: typeof globalThis.fetch = globalThis.fetch): Promise<Response> {
  const response = early ?? fetch(clientConfigUrl(apiBase), REQUEST);
  early = null;
  return response;
}

let answered: Record<string, unknown> | null = null;

/**
 * The start-up answer's body once the shell has read it (loadStartupFeatures): the social sign-in's and the channels'
 * settings come from the same GET /api/client-config/, so they take it from here instead of asking a second time.
 */
export function rememberStartupConfig(body: unknown): void {
  answered = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
}

/** The body rememberStartupConfig kept, or null when the shell has not read one (a signed-out page, a failure). */
export function rememberedStartupConfig(): Record<string, unknown> | null {
  return answered;
}
