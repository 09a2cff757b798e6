import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { featureFlagsApiRef, permissionApiRef, sessionApiRef, type SessionStore } from '../apis';
import { useAccount } from '../account/useAccount';
import { useAlert } from '../alert/useAlert';
import { useApi } from '../di/ApiProvider';
import { featureSatisfied } from '../features/featureFlags';
import { useConsole } from '../plugins/ConsoleContext';
import type { FeatureRequirement } from '../plugins/types';
import { EmptyView } from '../components/EmptyView';
import { useNavigationMemory } from './NavigationMemory';
import { canViewPath, fallbackPath } from './routeAccess';

export const LOGIN_ROUTE = '/auth/login';
export const COMPANY_SELECT_ROUTE = '/company/select';

export function hasUsableToken(session: SessionStore): boolean {
  const access = session.getAccessToken();
  const refresh = session.getRefreshToken();
  return (!!access && !session.isExpired(access)) || (!!refresh && !session.isExpired(refresh));
}

/** Needs login (else /auth/login). Used by /company/*. */
export function RequireLogin({ children }: { children: ReactNode }) {
  const session = useApi(sessionApiRef);
  useAccount(); // re-check on signedOut
  if (!hasUsableToken(session)) return <Navigate to={LOGIN_ROUTE} replace />;
  return <>{children}</>;
}

/**
 * The sign-in and sign-up pages are for signed-out visitors: a signed-in user who opens one goes to
 * the console ('/', the dashboard) or, without a selected company, to the company picker. The
 * account store's events re-render it, so a sign-in made on the page itself lands in the same place
 * the login's own redirect names.
 */
export function RedirectSignedIn({ children }: { children: ReactNode }) {
  const session = useApi(sessionApiRef);
  const { companyId } = useAccount();
  if (hasUsableToken(session)) return <Navigate to={companyId !== null ? '/' : COMPANY_SELECT_ROUTE} replace />;
  return <>{children}</>;
}

/** Needs login (else /auth/login) and a selected company (else /company/select). Used by the shell. */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useApi(sessionApiRef);
  const { company } = useAccount();
  if (!hasUsableToken(session)) return <Navigate to={LOGIN_ROUTE} replace />;
  if (!company) return <Navigate to={COMPANY_SELECT_ROUTE} replace />;
  return <>{children}</>;
}

/** Spec §2: a route with a feature requirement sends the user to its redirect ('/' by default). */
export function FeatureGate({ feature, children }: { feature?: FeatureRequirement; children: ReactNode }) {
  const flags = useApi(featureFlagsApiRef);
  if (!featureSatisfied(flags, feature)) return <Navigate to={feature?.redirect ?? '/'} replace />;
  return <>{children}</>;
}

/**
 * Global guard (spec §2): the view access of the route being shown is checked before its content
 * renders, so denied content never flashes. Denied: the alert says so and the user returns to the
 * previous path (see fallbackPath). After a company switch, a denied route sends the user to '/'.
 */
export function AccessGuard({ children }: { children: ReactNode }) {
  const { routes, resources, menu } = useConsole();
  const permissions = useApi(permissionApiRef);
  const alert = useAlert();
  const { t } = useTranslation();
  const memory = useNavigationMemory();
  const location = useLocation();
  const { companyId } = useAccount();

  const isAllowed = (pathname: string) => canViewPath(pathname, routes, resources, (area) => permissions.canView(area));
  const allowed = isAllowed(location.pathname);
  const companyChanged = memory.companyId !== undefined && memory.companyId !== companyId;
  const target = allowed
    ? null
    : fallbackPath({ current: location.pathname, previous: memory.lastAllowed, menu, isAllowed, companyChanged });

  useEffect(() => {
    if (allowed) {
      memory.lastAllowed = location.pathname + location.search;
      memory.companyId = companyId;
    } else if (!companyChanged) {
      alert.error(t('core.errors.noPermission'));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- location.key: one check per navigation
  }, [allowed, location.key, companyId]);

  if (allowed) return <>{children}</>;
  if (target) return <Navigate to={target} replace />;
  return <EmptyView title={t('core.errors.noPermission')} message="" />;
}
