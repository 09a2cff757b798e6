// The HAProxy the cluster test (tests/cluster) balances its three server processes with, found once for
// `npm test` (scripts/test-all.mjs) and the test itself: HAPROXY_PATH, then Debian's at /usr/sbin/haproxy.
// Without one, `npm test` installs Debian's when it can (root with apt-get), else stops at once with the
// one command to run: the twin of scripts/chromium.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureDebianTool } from './debianTool.mjs';

export const SYSTEM_HAPROXIES = ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'];

/**
 * The first HAProxy that exists, or undefined. An explicit HAPROXY_PATH is the only one looked at: a
 * wrong path is reported rather than silently replaced by another binary.
 */
export function findHaproxy({ env = process.env, exists = existsSync } = {}) {
  if (env.HAPROXY_PATH) return exists(env.HAPROXY_PATH) ? env.HAPROXY_PATH : undefined;
  return SYSTEM_HAPROXIES.find((p) => exists(p));
}

/** The one command that gets HAProxy on this machine. */
export function installHint({ exists = existsSync, isRoot = process.getuid?.() === 0 } = {}) {
  if (exists('/usr/bin/apt-get')) return `${isRoot ? '' : 'sudo '}apt-get install -y haproxy`;
  return 'install HAProxy 2.x (https://www.haproxy.org) or set HAPROXY_PATH to its binary';
}

/**
 * HAProxy for the cluster test: found, or installed from Debian's packages when running as root with
 * apt-get. Returns `{ path }` or `{ error }`, the error being one line naming the command to run.
 */
export function ensureHaproxy({ env = process.env, exists = existsSync, isRoot = process.getuid?.() === 0, run = spawnSync, log = console.log } = {}) {
  return ensureDebianTool(
    {
      name: 'HAProxy',
      purpose: 'the cluster test',
      envVar: 'HAPROXY_PATH',
      fixEnvVar: 'point it at haproxy',
      aptPackage: 'haproxy',
      // The package's own service is not wanted (the test starts its own HAProxy): RUNLEVEL=1 keeps invoke-rc.d from starting it.
      aptCommand: 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 apt-get install -y -qq --no-install-recommends haproxy >/dev/null',
      find: () => findHaproxy({ env, exists }),
      installHint,
    },
    { env, exists, isRoot, run, log },
  );
}
