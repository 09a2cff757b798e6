/**
 * Vitest globalSetup of the cluster project (tests/cluster): before any process starts, PostgreSQL and Redis
 * must answer and HAProxy must be there (each missing one is one line naming what to do), and the server is
 * built the way `npm run build` builds it (scripts/build-server.mjs; the console is not needed: the tests
 * speak to the API and the socket only). The workers find the build and HAProxy through the environment.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildServer, serverEntry } from '../../scripts/build-server.mjs';
import { checkClusterServices } from '../../scripts/cluster-services.mjs';
import { findHaproxy, installHint } from '../../scripts/haproxy.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

export default async function setup(): Promise<void> {
  const services = await checkClusterServices();
  if (services) throw new Error(services);
  const haproxy = findHaproxy();
  if (!haproxy) throw new Error(`No HAProxy for the cluster test. Run: ${installHint()}`);
  process.env.HAPROXY_PATH = haproxy;
  // CLUSTER_SERVER_DIR names a build already made from this checkout (e.g. the end-to-end phase's); else
  // the server alone is built into a folder of its own (under a second; no PGlite template: the cluster runs
  // on PostgreSQL).
  const given = process.env.CLUSTER_SERVER_DIR;
  if (given && existsSync(serverEntry(path.resolve(ROOT, given)))) {
    process.env.CLUSTER_SERVER_DIR = path.resolve(ROOT, given);
    return;
  }
  const outDir = path.join(ROOT, '.test-data', 'dist-server-cluster');
  await buildServer(outDir, { pgliteTemplate: false });
  process.env.CLUSTER_SERVER_DIR = outDir;
}
