/**
 * The balancer's configuration: docs/haproxy.cfg, which docs/deploy.md quotes whole (tests/unit/haproxy.test.ts
 * checks the two agree), run by the cluster test with this run's addresses in place of the docs' example ones.
 */
import path from 'node:path';

export const HAPROXY_CONFIG = path.resolve(import.meta.dirname, '../../../docs/haproxy.cfg');

/** The config with `bind 127.0.0.1:<bindPort>` and one `server` line per port (a, b, c…); every other line as it is. */
export function haproxyConfig(source: string, bindPort: number, ports: number[]): string {
  const lines = source.split('\n');
  const servers = lines.filter((line) => /^\s+server\s/.test(line));
  const binds = lines.filter((line) => /^\s+bind\s/.test(line));
  if (binds.length !== 1 || servers.length === 0) throw new Error(`${HAPROXY_CONFIG}: expected one bind line and server lines`);
  const indent = /^\s+/.exec(servers[0])![0];
  const out: string[] = [];
  for (const line of lines) {
    if (binds.includes(line)) out.push(line.replace(/bind\s+\S+/, `bind 127.0.0.1:${bindPort}`));
    else if (line === servers[0]) out.push(...ports.map((port, i) => `${indent}server ${String.fromCharCode(97 + i)} 127.0.0.1:${port} check`));
    else if (!servers.includes(line)) out.push(line);
  }
  return out.join('\n');
}
