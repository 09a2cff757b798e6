/**
 * Runs `work` once the browser is idle (`requestIdleCallback`; where there is none, Safari, after `fallbackMs`), in a
 * task of its own: for work a page will want soon but not now, such as evaluating the code of a view the user has not
 * opened yet. Returns how to cancel it.
 */
export function whenIdle(work: () => void, fallbackMs = 1000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(() => work());
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(work, fallbackMs);
  return () => clearTimeout(timer);
}
