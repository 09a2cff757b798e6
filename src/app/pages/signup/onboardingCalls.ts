import type { HttpProvider } from '../../../core/apis';
import type { InviteCheck, OnboardingStatus } from '../../../../contract/api';

/** The unauthenticated sign-up calls of spec §7. */
export const onboardingCalls = {
  /** What an invitation link's page may learn: the inviting company, only with the link's token. */
  checkInvite: (http: HttpProvider, email: string, token: string) =>
    http.get<InviteCheck>('/api/invites/check_email/', { query: { email, token }, auth: false }),

  /** Resolves to false when the server answers `success: false`. */
  submit: async (http: HttpProvider, email: string, needsWhatsappNumber: boolean): Promise<boolean> => {
    const reply = await http.post<{ success?: boolean } | null>(
      '/api/onboarding-request/submit/',
      { email, needs_whatsapp_number: needsWhatsappNumber },
      { auth: false },
    );
    return reply?.success !== false;
  },

  status: (http: HttpProvider, email: string) =>
    http.get<OnboardingStatus>('/api/onboarding-request/status/', { query: { email }, auth: false }),

  verify: (http: HttpProvider, token: string) =>
    http.get<VerifyReply>('/api/onboarding-request/verify/', { query: { token }, auth: false }),
};

export interface VerifyReply {
  success?: boolean;
  email?: string;
  error?: string;
}
