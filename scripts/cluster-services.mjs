// What the cluster test (tests/cluster) runs on besides HAProxy: PostgreSQL and Redis, from TEST_DATABASE_URL
// (a maintenance database the test creates its own database from) and TEST_REDIS_URL, defaulting to the
// ones every development and CI machine runs. `npm test` (scripts/test-all.mjs) and the test's globalSetup
// check both answer before starting anything, so a missing one is one line, not a page of failed tests.
import { connect } from 'node:net';

export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const DEFAULT_TEST_REDIS_URL = 'redis://127.0.0.1:6379';

/** The maintenance database and the Redis the cluster test uses. */
export function clusterServiceUrls(env = process.env) {
  return { databaseUrl: env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL, redisUrl: env.TEST_REDIS_URL || DEFAULT_TEST_REDIS_URL };
}

/** Resolves with null when a TCP connection to host:port opens within timeoutMs, else with the reason. */
function reachable(host, port, timeoutMs) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (reason) => {
      socket.destroy();
      resolve(reason);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs} ms`));
    socket.once('connect', () => done(null));
    socket.once('error', (err) => done(err.code ?? err.message));
  });
}

/**
 * null when PostgreSQL and Redis both accept connections, else one line saying which does not and how to
 * point the test at another (the cluster phase then counts one failure and starts nothing).
 */
export async function checkClusterServices({ env = process.env, timeoutMs = 2_000 } = {}) {
  const { databaseUrl, redisUrl } = clusterServiceUrls(env);
  const targets = [
    { name: 'PostgreSQL', variable: 'TEST_DATABASE_URL', url: new URL(databaseUrl), port: 5432 },
    { name: 'Redis', variable: 'TEST_REDIS_URL', url: new URL(redisUrl), port: 6379 },
  ];
  const problems = [];
  for (const target of targets) {
    const host = target.url.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
    const port = Number(target.url.port || target.port);
    const reason = await reachable(host, port, timeoutMs);
    if (reason) problems.push(`${target.name} at ${host}:${port} (${target.variable}) is not reachable: ${reason}`);
  }
  return problems.length ? `The cluster test needs PostgreSQL and Redis: ${problems.join('; ')}` : null;
}
