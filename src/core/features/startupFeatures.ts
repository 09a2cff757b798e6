/**
 * The feature keys the console sets at start-up (spec §4: set once; §6: the enabled keys). They are
 * plugins.config.ts's `enabledFeatures`, plus what the operator turned on for this server: the
 * server's `CONSOLE_FEATURES` (comma list), handed over in `features` of GET /api/client-config/.
 * Only keys the product defines (`definedFeatures`) are taken; without the variable, or when the
 * server cannot be asked, the console starts with the defaults alone (branching_flows stays off).
 */
import { rememberStartupConfig, startupConfigResponse } from './startupRequest';

/** The defaults plus the override's defined keys, in the defined order, each once. */
export function resolveEnabledFeatures(defaults: readonly string[], defined: readonly string[], override: unknown): string[] {
  const extra = new Set(Array.isArray(override) ? override.filter((k): k is string => typeof k === 'string').map((k) => k.trim()) : []);
  const on = new Set(defaults);
  for (const key of defined) if (extra.has(key)) on.add(key);
  return [...defined.filter((k) => on.has(k)), ...defaults.filter((k) => !defined.includes(k))];
}

export interface StartupFeatureOptions {
  defaults: readonly string[];
  defined: readonly string[];
  /** VITE_API_BASE ('' = same origin). */
  apiBase: string;
  fetch?: typeof globalThis.fetch;
}

/**
 * Asks the server once (no login), or takes the answer the entry asked for (startupRequest.ts), and resolves the
 * keys; any failure gives the defaults.
 */
export async function loadStartupFeatures({ defaults, defined, apiBase, fetch = globalThis.fetch }: StartupFeatureOptions): Promise<string[]> {
  try {
    const res = await startupConfigResponse(apiBase, fetch);
    if (!res.ok) return [...defaults];
    const body: unknown = await res.json();
    rememberStartupConfig(body);
    const features = body && typeof body === 'object' ? (body as { features?: unknown }).features : undefined;
    return resolveEnabledFeatures(defaults, defined, features);
  } catch {
    return [...defaults];
  }
}
