import { useMemo } from 'react';
import { useAccount } from '../../../core';
import type { SignupOwner } from './signupData';

export const INTEGRATION_BASE = '/whatsapp-integration';
export const integrationPath = (step: 'intro-step' | 'start' | 'integration-success' | 'account-already-connected') => `${INTEGRATION_BASE}/${step}`;

/** Whose embedded signup data this is: the user's e-mail, the selected company and the user's companies. */
export function useSignupOwner(): SignupOwner {
  const { user, companyId } = useAccount();
  const email = user?.email ?? null;
  const names = (user?.companies ?? []).map((c) => c.name).join('\u0000');
  return useMemo(() => ({ email, company: companyId, company_invites: names ? names.split('\u0000') : [] }), [email, companyId, names]);
}
