import { useCallback, useSyncExternalStore } from 'react';
import { alertApiRef, type AlertApi, type AlertState } from '../apis';
import { useApi } from '../di/ApiProvider';

/** The alert API (success/error/info/warning/show/dismiss). */
export function useAlert(): AlertApi {
  return useApi(alertApiRef);
}

/** The current alert state; re-renders on every change (progress ticks). */
export function useAlertState(): AlertState {
  const alert = useAlert();
  const subscribe = useCallback((onChange: () => void) => alert.subscribe(onChange), [alert]);
  return useSyncExternalStore(subscribe, alert.getState);
}
