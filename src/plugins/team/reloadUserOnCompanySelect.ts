import type { User } from '../../../contract/api';
import type { AccountStore, HttpProvider, SessionStore } from '../../core';

/** A company selected this soon after the user was (re)loaded needs no second load (login, loadUser). */
export const FRESH_USER_MS = 2000;

/**
 * Spec §6: the global guard reads the selected company's permissions from the account. So that a
 * change on the Permissions page (or a role change) reaches a member who merely switches company,
 * the user is reloaded (GET /account/user/) whenever a company is selected. Failures are ignored:
 * the saved account stays, and a 401 is handled by the HTTP layer as usual.
 */
export function reloadUserOnCompanySelect(deps: { account: AccountStore; http: HttpProvider; session: SessionStore; now?: () => number }) {
  const { account, http, session } = deps;
  const now = deps.now ?? Date.now;
  let userLoadedAt = 0;
  return account.subscribe((event) => {
    if (event === 'userChanged') {
      userLoadedAt = now();
      return;
    }
    if (event !== 'companyChanged') return;
    const companyId = account.getCompanyId();
    if (companyId === null || now() - userLoadedAt < FRESH_USER_MS) return;
    if (!session.getAccessToken() && !session.getRefreshToken()) return;
    http
      .get<User>('/account/user/')
      .then((user) => {
        // Still signed in, still on that company: keep the fresh permissions.
        if (user && Array.isArray(user.companies) && account.getUser() && account.getCompanyId() === companyId) account.setUser(user);
      })
      .catch(() => undefined);
  });
}
