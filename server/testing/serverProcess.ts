/**
 * How a server test starts a real server process (the crash test, the two-process tests, the concurrent
 * migrators): the server as `npm run build` compiles it and `npm start` runs it, from the build the server
 * project's globalSetup makes once per run (./globalSetup.ts, into TEST_SERVER_DIR), with the `serve`
 * script's node flags and environment defaults.
 *
 * Not `node --import tsx server/main.ts`, as these tests once did: each such process compiled and loaded
 * the server's TypeScript through tsx's loader, about 6.5 CPU seconds to listening against 3.8 for the
 * bundle on a prepared database with tsx's cache warm (more on a fresh machine's cold cache), and a run
 * starts nine of them. The bundle is also what production runs.
 */
import path from 'node:path';
import { serveEnv, serveNodeFlags } from '../../scripts/build-server.mjs';

/** The variable naming the server build the globalSetup made (or was given) for this run. */
export const SERVER_BUILD_ENV = 'TEST_SERVER_DIR';

/** The folder of this run's server build. */
export function serverBuildDir(): string {
  const dir = process.env[SERVER_BUILD_ENV];
  if (!dir) throw new Error(`${SERVER_BUILD_ENV} is not set: run through the server project (server/testing/globalSetup.ts builds the server)`);
  return dir;
}

/** node's arguments to run the compiled server (`main`) or the migration command (`migrate`, `npm run migrate`). */
export function serverProcessArgs(entry: 'main' | 'migrate' = 'main'): string[] {
  return [...serveNodeFlags(), path.join(serverBuildDir(), `${entry}.js`)];
}

/** The environment the `serve` script sets before node (MALLOC_ARENA_MAX…), the test's own process.env winning. */
export function serverProcessEnv(): Record<string, string> {
  return serveEnv();
}
