import { useEffect, useRef } from 'react';
import type { SignupStatusResponse } from '../../../../contract/channels';
import { httpApiRef, useApi } from '../../../core';
import { fetchSignupStatus } from './signupCalls';

/** How often the onboarding asks for the signup's progress. */
export const SIGNUP_POLL_MS = 2000;

/**
 * While `externalId` is set, asks GET /api/wa-onboard/signup_status/ every `intervalMs` (one call
 * at a time) and hands each answer to `onStatus`; `onStatus` returning true ends the polling at
 * once (a final status), before any re-render. A failed call is retried at the next tick.
 * Stops when `externalId` becomes null and on unmount (the call in flight is aborted).
 */
export function useSignupStatusPolling(externalId: string | null, onStatus: (status: SignupStatusResponse) => boolean | void, intervalMs = SIGNUP_POLL_MS) {
  const http = useApi(httpApiRef);
  const onStatusRef = useRef(onStatus);
  onStatusRef.current = onStatus;

  useEffect(() => {
    if (!externalId) return undefined;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    const tick = async () => {
      try {
        const status = await fetchSignupStatus(http, externalId, controller.signal);
        if (!stopped && onStatusRef.current(status) === true) stopped = true;
      } catch {
        /* a failed poll is retried at the next tick */
      }
      if (!stopped) timer = setTimeout(tick, intervalMs);
    };
    timer = setTimeout(tick, intervalMs);
    return () => {
      stopped = true;
      clearTimeout(timer);
      controller.abort();
    };
  }, [externalId, http, intervalMs]);
}
