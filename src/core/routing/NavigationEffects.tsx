import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { QueryClient } from '@tanstack/react-query';
import { accountApiRef, authApiRef, httpApiRef, sessionApiRef } from '../apis';
import { startAccountRefresh, type AccountRefresher } from '../account/accountRefresh';
import { useApi } from '../di/ApiProvider';
import { hasUsableToken, LOGIN_ROUTE } from './guards';
import { useNavigationMemory } from './NavigationMemory';

/**
 * App-wide reactions to account events: a sign-out anywhere (a 401, a failed refresh) goes to the
 * login page; a company switch or sign-out drops the per-company react-query cache. On start-up a
 * stored session reloads the user (fresh companies and permissions); a company switch and, when the
 * account is stale, a navigation reload it again, so permission changes reach every member.
 */
export function NavigationEffects({ queryClient }: { queryClient: QueryClient }) {
  const account = useApi(accountApiRef);
  const session = useApi(sessionApiRef);
  const auth = useApi(authApiRef);
  const navigate = useNavigate();
  const memory = useNavigationMemory();
  const http = useApi(httpApiRef);
  const location = useLocation();
  const refresher = useRef<AccountRefresher | null>(null);

  useEffect(() => {
    refresher.current = startAccountRefresh({ account, http, session });
    return () => refresher.current?.dispose();
  }, [account, http, session]);

  useEffect(() => {
    refresher.current?.onNavigate();
  }, [location.pathname]);

  useEffect(
    () =>
      account.subscribe((event) => {
        if (event === 'userChanged') return;
        // Inactive queries are dropped; active ones are reset and refetched for the new company.
        queryClient.removeQueries({ type: 'inactive' });
        void queryClient.resetQueries({ type: 'active' });
        if (event === 'signedOut') {
          memory.lastAllowed = null;
          memory.companyId = undefined;
          navigate(LOGIN_ROUTE, { replace: true });
        }
      }),
    [account, queryClient, navigate, memory],
  );

  useEffect(() => {
    if (hasUsableToken(session)) auth.loadUser().catch(() => undefined); // failure alerts and signs out
  }, [session, auth]);

  return null;
}
