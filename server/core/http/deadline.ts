/**
 * A deadline for one call to an outside service, cleared as soon as the call is over.
 *
 * Why not `AbortSignal.timeout(ms)`: its timer holds the signal until the time is up, and fetch hangs its
 * request, response and stream objects on that signal, so every call stays in memory for the whole timeout
 * after it has been answered. At 1,000 broadcast sends a second with a 15-s timeout that is 15,000 calls'
 * objects kept, promoted to V8's old space and reserved there (bench/broadcast: +150 MB of heap for 50 MB
 * used). Here the timer is cleared by `done()`, and nothing outlives the call.
 */
export interface CallDeadline {
  signal: AbortSignal;
  /** The call is over (answered, read or failed): the timer goes, and with it every reference to the call. */
  done(): void;
}

export function callDeadline(ms: number): CallDeadline {
  const controller = new AbortController();
  // The reason AbortSignal.timeout gives, so callers that tell a timeout from other failures still do.
  const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
  timer.unref();
  return { signal: controller.signal, done: () => clearTimeout(timer) };
}
