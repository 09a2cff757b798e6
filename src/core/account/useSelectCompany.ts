import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { accountApiRef } from '../apis';
import { useApi } from '../di/ApiProvider';
import { useConsole } from '../plugins/ConsoleContext';
import { useOptionalNavigationMemory } from '../routing/NavigationMemory';
import { pathAfterCompanySwitch } from '../routing/routeAccess';

/**
 * Selects a company and stays on the page the user came from (the last shell page the guard
 * allowed, without ids of the old company), or goes to `to` when given (a new company starts on
 * the dashboard). The shell's access guard sends a user who may not view that page in the new
 * company to '/' (spec §2). Per-company state is reset by the companyChanged event: the react-query
 * cache is cleared (NavigationEffects) and plugins reset their own state.
 */
export function useSelectCompany(): (companyId: number, options?: { to?: string }) => void {
  const account = useApi(accountApiRef);
  const navigate = useNavigate();
  const memory = useOptionalNavigationMemory();
  const { routes, resources } = useConsole();
  return useCallback(
    (companyId: number, options?: { to?: string }) => {
      const target = options?.to ?? pathAfterCompanySwitch(memory?.lastAllowed ?? null, routes, resources);
      account.selectCompany(companyId);
      navigate(target);
    },
    [account, navigate, memory, routes, resources],
  );
}
