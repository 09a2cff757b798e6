import type { User } from '../../../contract/api';
import type { AccountStore, HttpProvider, SessionStore } from '../apis';

/** A company selected this soon after the user was (re)loaded needs no second load (login, loadUser). */
export const FRESH_USER_MS = 2000;
/** On navigation, the account is refreshed when it is older than this. */
export const ACCOUNT_REFRESH_MS = 15_000;

export interface AccountRefresher {
  /** Call on every navigation: refreshes the account in the background when it is stale. */
  onNavigate(): void;
  dispose(): void;
}

/**
 * Spec §6: the global guard reads the selected company's permissions from the account. So that a
 * change on the Permissions page (or a role change) reaches other members, the user is reloaded
 * (GET /account/user/) whenever a company is selected and, in the background, on navigation once the
 * saved account is older than ACCOUNT_REFRESH_MS: the navigation after that sees the new permissions.
 * Failures are ignored (the saved account stays); a 401 is handled by the HTTP layer as usual.
 */
/**
 * GET /account/user/ once: the fresh memberships (permissions) are kept only if the user is still signed in on
 * the same company. Failures are ignored (the saved account stays). Also called when the server says a membership
 * changed (the inbox's socket closed with 4403).
 */
export function reloadUser({ account, http }: { account: AccountStore; http: HttpProvider }): Promise<void> {
  const companyId = account.getCompanyId();
  if (companyId === null) return Promise.resolve();
  return http
    .get<User>('/account/user/')
    .then((user) => {
      if (user && Array.isArray(user.companies) && account.getUser() && account.getCompanyId() === companyId) account.setUser(user);
    })
    .catch(() => undefined);
}

export function startAccountRefresh(deps: { account: AccountStore; http: HttpProvider; session: SessionStore; now?: () => number }): AccountRefresher {
  const { account, http, session } = deps;
  const now = deps.now ?? Date.now;
  // Start-up loads the user anyway (NavigationEffects), so the saved account counts as fresh now.
  let userLoadedAt = now();
  let inFlight = false;

  const reload = () => {
    if (account.getCompanyId() === null || inFlight) return;
    if (!session.getAccessToken() && !session.getRefreshToken()) return;
    inFlight = true;
    void reloadUser({ account, http }).finally(() => {
      inFlight = false;
    });
  };

  const unsubscribe = account.subscribe((event) => {
    if (event === 'userChanged') {
      userLoadedAt = now();
      return;
    }
    if (event === 'companyChanged' && now() - userLoadedAt >= FRESH_USER_MS) reload();
  });

  return {
    onNavigate() {
      if (account.getUser() && now() - userLoadedAt >= ACCOUNT_REFRESH_MS) reload();
    },
    dispose: unsubscribe,
  };
}
