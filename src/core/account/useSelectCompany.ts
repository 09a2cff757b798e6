import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { accountApiRef } from '../apis';
import { useApi } from '../di/ApiProvider';

/**
 * Selects a company and goes to the dashboard. Per-company state is reset by the companyChanged
 * event: the react-query cache is cleared (CompanyChangeEffects) and plugins reset their own state.
 */
export function useSelectCompany(): (companyId: number) => void {
  const account = useApi(accountApiRef);
  const navigate = useNavigate();
  return useCallback(
    (companyId: number) => {
      account.selectCompany(companyId);
      navigate('/dashboard');
    },
    [account, navigate],
  );
}
