import { useEffect, useRef } from 'react';
import { useApi, httpApiRef } from '../../../core';
import { onboardingCalls } from './onboardingCalls';

export const VERIFICATION_POLL_MS = 3000;

/** Asks every 3 s whether `email` is verified and calls `onVerified` once it is. */
export function useVerificationPolling(email: string | null, onVerified: () => void, intervalMs = VERIFICATION_POLL_MS) {
  const http = useApi(httpApiRef);
  const onVerifiedRef = useRef(onVerified);
  onVerifiedRef.current = onVerified;

  useEffect(() => {
    if (!email) return undefined;
    let stopped = false;
    const check = async () => {
      try {
        const status = await onboardingCalls.status(http, email);
        if (!stopped && status?.verified) {
          stopped = true;
          clearInterval(timer);
          onVerifiedRef.current();
        }
      } catch {
        /* a failed poll is retried at the next tick */
      }
    };
    const timer = setInterval(check, intervalMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [email, http, intervalMs]);
}
