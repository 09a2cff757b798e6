/** The cluster test's HAProxy: its lookup (scripts/haproxy.mjs), which `npm test` runs before any suite, and its configuration, the docs'. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ensureHaproxy, findHaproxy, installHint } from '../../scripts/haproxy.mjs';
import { HAPROXY_CONFIG, haproxyConfig } from '../cluster/support/haproxyConfig';

const only = (...paths: string[]) => (path: string) => paths.includes(path);

describe('findHaproxy', () => {
  it('takes HAPROXY_PATH when it exists, and nothing else when it does not', () => {
    expect(findHaproxy({ env: { HAPROXY_PATH: '/opt/haproxy' }, exists: only('/opt/haproxy', '/usr/sbin/haproxy') })).toBe('/opt/haproxy');
    expect(findHaproxy({ env: { HAPROXY_PATH: '/opt/none' }, exists: only('/usr/sbin/haproxy') })).toBeUndefined();
  });

  it("prefers Debian's /usr/sbin/haproxy, then the other usual paths", () => {
    expect(findHaproxy({ env: {}, exists: only('/usr/local/sbin/haproxy', '/usr/sbin/haproxy') })).toBe('/usr/sbin/haproxy');
    expect(findHaproxy({ env: {}, exists: only('/usr/local/sbin/haproxy') })).toBe('/usr/local/sbin/haproxy');
    expect(findHaproxy({ env: {}, exists: only() })).toBeUndefined();
  });
});

describe('ensureHaproxy', () => {
  it("installs Debian's HAProxy as root with apt-get, then finds it", () => {
    const installed = new Set(['/usr/bin/apt-get']);
    const run = vi.fn(() => {
      installed.add('/usr/sbin/haproxy');
      return { status: 0 };
    });
    const result = ensureHaproxy({ env: {}, exists: (p) => installed.has(p), isRoot: true, run, log: () => {} });
    expect(result).toEqual({ path: '/usr/sbin/haproxy' });
    expect(run).toHaveBeenCalledWith('sh', ['-c', expect.stringContaining('apt-get install -y -qq --no-install-recommends haproxy')], expect.anything());
  });

  it('stops with the one command to run when it cannot install', () => {
    const run = vi.fn(() => ({ status: 100 }));
    const notRoot = ensureHaproxy({ env: {}, exists: only('/usr/bin/apt-get'), isRoot: false, run, log: () => {} });
    expect(notRoot).toEqual({ error: 'No HAProxy for the cluster test. Run: sudo apt-get install -y haproxy' });
    expect(run).not.toHaveBeenCalled();

    const failed = ensureHaproxy({ env: {}, exists: only('/usr/bin/apt-get'), isRoot: true, run, log: () => {} });
    expect(failed.error).toBe('No HAProxy for the cluster test. Run: apt-get install -y haproxy');
    expect(ensureHaproxy({ env: {}, exists: only(), isRoot: false, run, log: () => {} }).error).toBe(
      'No HAProxy for the cluster test. Run: install HAProxy 2.x (https://www.haproxy.org) or set HAPROXY_PATH to its binary',
    );
  });

  it('reports a wrong HAPROXY_PATH instead of installing another one', () => {
    const run = vi.fn(() => ({ status: 0 }));
    const result = ensureHaproxy({ env: { HAPROXY_PATH: '/opt/none' }, exists: only('/usr/bin/apt-get'), isRoot: true, run, log: () => {} });
    expect(result.error).toBe('No HAProxy for the cluster test: HAPROXY_PATH=/opt/none does not exist (point it at haproxy, or unset it)');
    expect(run).not.toHaveBeenCalled();
    expect(installHint({ exists: only('/usr/bin/apt-get'), isRoot: true })).toBe('apt-get install -y haproxy');
  });
});

describe('docs/haproxy.cfg', () => {
  const source = readFileSync(HAPROXY_CONFIG, 'utf8');

  it('is what docs/deploy.md shows, whole', () => {
    const deploy = readFileSync(path.resolve(import.meta.dirname, '../../docs/deploy.md'), 'utf8');
    expect(deploy).toContain(`\`\`\`\n${source}\`\`\``);
  });

  it('runs in the cluster test with its own addresses only: the bind and server lines change, nothing else', () => {
    const config = haproxyConfig(source, 18080, [18081, 18082, 18083]);
    const changed = (line: string) => /^\s+(bind|server)\s/.test(line);
    expect(config.split('\n').filter((line) => !changed(line))).toEqual(source.split('\n').filter((line) => !changed(line)));
    expect(config).toContain('    bind 127.0.0.1:18080\n');
    expect(config.split('\n').filter((line) => /^\s+server\s/.test(line))).toEqual([
      '    server a 127.0.0.1:18081 check',
      '    server b 127.0.0.1:18082 check',
      '    server c 127.0.0.1:18083 check',
    ]);
    // What the issue asks of the balancer: round-robin, health on /api/ready/, websockets kept open.
    expect(source).toMatch(/^\s+balance roundrobin$/m);
    expect(source).toMatch(/^\s+option httpchk GET \/api\/ready\/$/m);
    expect(source).toMatch(/^\s+timeout tunnel /m);
  });
});
