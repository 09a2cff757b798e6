import { useEffect, useState } from 'react';
import type { CompanyAccount } from '../../../contract/api';
import { useApi, httpApiRef } from '../../core';

/** GET /api/companies/{id}/account/ for the selected company; reloads when the company changes. */
export function useCompanyAccount(companyId: number | null) {
  const http = useApi(httpApiRef);
  const [state, setState] = useState<{ account: CompanyAccount | null; loading: boolean }>({ account: null, loading: companyId != null });

  useEffect(() => {
    if (companyId == null) {
      setState({ account: null, loading: false });
      return undefined;
    }
    let current = true;
    setState({ account: null, loading: true });
    http.get<CompanyAccount>(`/api/companies/${companyId}/account/`).then(
      (account) => current && setState({ account, loading: false }),
      () => current && setState({ account: null, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [companyId, http]);

  return state;
}
