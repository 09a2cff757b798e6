/**
 * The socket endpoint: the selected company's translator_domain, else the configured default,
 * else the page's own origin (ws/wss following http/https). http(s) domains become ws(s).
 * Apart from realtimeFactory.ts so the core APIs can use it without bringing phoenix along.
 */
export function socketEndpoint(domain: string | null | undefined, loc: Pick<Location, 'protocol' | 'host'> = location): string {
  const wsScheme = loc.protocol === 'https:' ? 'wss' : 'ws';
  let base = (domain ?? '').trim().replace(/\/+$/, '');
  if (!base) base = `${wsScheme}://${loc.host}`;
  else if (/^https?:\/\//i.test(base)) base = base.replace(/^http/i, 'ws');
  else if (!/^wss?:\/\//i.test(base)) base = `${wsScheme}://${base}`;
  return `${base}/socket`;
}
