/** Spec §9: search and selected-room watchers are debounced 500 ms, with at most 2 s of waiting. */
export const SEARCH_DEBOUNCE_MS = 500;
export const SEARCH_MAX_WAIT_MS = 2000;

export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  cancel(): void;
  flush(): void;
}

/** Trailing debounce with a max wait: a burst of calls runs once, and never later than maxWait after the first. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, wait = SEARCH_DEBOUNCE_MS, maxWait = SEARCH_MAX_WAIT_MS): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let maxTimer: ReturnType<typeof setTimeout> | null = null;
  let pending: A | null = null;

  const run = () => {
    if (timer) clearTimeout(timer);
    if (maxTimer) clearTimeout(maxTimer);
    timer = maxTimer = null;
    const args = pending;
    pending = null;
    if (args) fn(...args);
  };

  const debounced = (...args: A) => {
    pending = args;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, wait);
    if (!maxTimer) maxTimer = setTimeout(run, maxWait);
  };
  debounced.cancel = () => {
    if (timer) clearTimeout(timer);
    if (maxTimer) clearTimeout(maxTimer);
    timer = maxTimer = null;
    pending = null;
  };
  debounced.flush = run;
  return debounced;
}
