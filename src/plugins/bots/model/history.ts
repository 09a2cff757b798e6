/**
 * Undo and redo over whole graph snapshots (graphs are immutable values, so a snapshot is a reference).
 * Consecutive changes with the same `coalesceKey` (typing in one field, one drag) make one undo step.
 */
export interface History<T> {
  past: T[];
  present: T;
  future: T[];
  /** Key of the last recorded change, for coalescing. */
  lastKey?: string;
}

export const HISTORY_LIMIT = 100;

export function createHistory<T>(present: T): History<T> {
  return { past: [], present, future: [] };
}

export function record<T>(history: History<T>, next: T, coalesceKey?: string): History<T> {
  if (next === history.present) return history;
  if (coalesceKey && coalesceKey === history.lastKey && history.past.length) {
    return { past: history.past, present: next, future: [], lastKey: coalesceKey };
  }
  const past = [...history.past, history.present].slice(-HISTORY_LIMIT);
  return { past, present: next, future: [], lastKey: coalesceKey };
}

export function undo<T>(history: History<T>): History<T> {
  if (!history.past.length) return history;
  const previous = history.past[history.past.length - 1];
  return { past: history.past.slice(0, -1), present: previous, future: [history.present, ...history.future] };
}

export function redo<T>(history: History<T>): History<T> {
  if (!history.future.length) return history;
  const [next, ...rest] = history.future;
  return { past: [...history.past, history.present], present: next, future: rest };
}

export const canUndo = (h: History<unknown>) => h.past.length > 0;
export const canRedo = (h: History<unknown>) => h.future.length > 0;
