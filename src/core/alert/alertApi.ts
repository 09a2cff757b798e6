import type { AlertAction, AlertApi, AlertState, AlertType } from '../apis';

/** Spec §4/§9: progress counts down from 100, one step every 50 ms (5000 ms overall), closing at 0. */
export const ALERT_STEP_MS = 50;
export const ALERT_START_PROGRESS = 100;
export const SNACKBAR_TIMEOUT_MS = ALERT_STEP_MS * ALERT_START_PROGRESS;

const closed: AlertState = { active: false, text: '', type: 'info', loader: false, progress: 0 };

export function createAlertApi(): AlertApi {
  let state: AlertState = closed;
  let timer: ReturnType<typeof setInterval> | null = null;
  const listeners = new Set<(s: AlertState) => void>();

  const set = (next: AlertState) => {
    state = next;
    listeners.forEach((l) => l(state));
  };
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };
  const tick = () => {
    const progress = state.progress - 1;
    if (progress <= 0) {
      stop();
      set({ ...state, active: false, progress: 0 });
    } else {
      set({ ...state, progress });
    }
  };

  const show = (text: string, type: AlertType = 'info', options: { loader?: boolean; action?: AlertAction } = {}) => {
    stop(); // a new alert restarts the countdown
    set({ active: true, text, type, loader: options.loader ?? false, progress: ALERT_START_PROGRESS, ...(options.action ? { action: options.action } : {}) });
    timer = setInterval(tick, ALERT_STEP_MS);
  };

  return {
    getState: () => state,
    show,
    success: (text) => show(text, 'success'),
    error: (text) => show(text, 'error'),
    info: (text) => show(text, 'info'),
    warning: (text) => show(text, 'warning'),
    dismiss() {
      stop();
      if (state.active) set({ ...state, active: false, progress: 0 });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
