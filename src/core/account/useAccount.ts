import { useCallback, useSyncExternalStore } from 'react';
import type { CompanyMembership, User } from '../../../contract/api';
import { accountApiRef } from '../apis';
import { useApi } from '../di/ApiProvider';

export interface AccountSnapshot {
  user: User | null;
  company: CompanyMembership | null;
  companyId: number | null;
}

/** The signed-in user and selected company; re-renders on account store events. */
export function useAccount(): AccountSnapshot {
  const account = useApi(accountApiRef);
  const subscribe = useCallback((onChange: () => void) => account.subscribe(onChange), [account]);
  const user = useSyncExternalStore(subscribe, account.getUser);
  const companyId = useSyncExternalStore(subscribe, account.getCompanyId);
  const company = user?.companies?.find((c) => c.id === companyId) ?? null;
  return { user, company, companyId };
}
