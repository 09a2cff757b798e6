import { Socket } from 'phoenix';
import type { AccountStore, ConsoleConfig, RealtimeClientFactory, SessionStore } from '../apis';

/**
 * The socket endpoint: the selected company's translator_domain, else the configured default,
 * else the page's own origin (ws/wss following http/https). http(s) domains become ws(s).
 */
export function socketEndpoint(domain: string | null | undefined, loc: Pick<Location, 'protocol' | 'host'> = location): string {
  const wsScheme = loc.protocol === 'https:' ? 'wss' : 'ws';
  let base = (domain ?? '').trim().replace(/\/+$/, '');
  if (!base) base = `${wsScheme}://${loc.host}`;
  else if (/^https?:\/\//i.test(base)) base = base.replace(/^http/i, 'ws');
  else if (!/^wss?:\/\//i.test(base)) base = `${wsScheme}://${base}`;
  return `${base}/socket`;
}

export function createRealtimeFactory(deps: { config: ConsoleConfig; session: SessionStore; account: AccountStore }): RealtimeClientFactory {
  return {
    createSocket() {
      const domain = deps.account.getCompany()?.translator_domain || deps.config.socketDomain;
      // params is a function so a reconnect sends the current token and company.
      return new Socket(socketEndpoint(domain), {
        params: () => ({ token: deps.session.getAccessToken() ?? '', company_id: deps.account.getCompanyId() ?? '' }),
      });
    },
  };
}
