import type { ConsoleConfig } from '../apis';

/** Spec §9: the console's version and environment. */
export const APP_VERSION = '1.11.0';
export const APP_ENVIRONMENT = 'production';

type Env = Record<string, string | boolean | undefined>;

/** Reads the console's configuration from Vite's env (`VITE_*`), with the spec's defaults. */
export function createConfig(env: Env = import.meta.env, overrides: Partial<ConsoleConfig> = {}): ConsoleConfig {
  const str = (key: string, fallback: string) => {
    const value = env[key];
    return typeof value === 'string' ? value : fallback;
  };
  return {
    apiBase: str('VITE_API_BASE', ''),
    botServiceUrl: str('VITE_BOT_SERVICE_URL', '/bot-service'),
    socketDomain: str('VITE_SOCKET_DOMAIN', ''),
    version: APP_VERSION,
    environment: APP_ENVIRONMENT,
    ...overrides,
  };
}
