/** Pushes on a phoenix channel as promises, and the words of a refused or failed push. */
import type { RealtimeChannel } from '../../../core/apis';
import { firstErrorMessage } from '../../../../contract/errors';

/** Spec §9: push timeout 30 s (the channel join keeps phoenix's 10 s default). */
export const PUSH_TIMEOUT_MS = 30_000;

/** A channel push as a promise: resolves on ok, rejects on error or the 30 s timeout. */
export function pushAsync<T>(channel: RealtimeChannel, event: string, payload: object, timeout = PUSH_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    channel
      .push(event, payload, timeout)
      .receive('ok', (resp: T) => resolve(resp))
      .receive('error', (resp: unknown) => reject(Object.assign(new Error(reasonOf(resp) ?? 'error'), { response: resp })))
      .receive('timeout', () => reject(Object.assign(new Error('timeout'), { timeout: true })));
  });
}

/** The text to show for a refused push: the server's first field message (`errors`), else its reason. */
export function refusalText(resp: unknown): string | undefined {
  const errors = resp && typeof resp === 'object' ? (resp as Record<string, unknown>).errors : undefined;
  const reason = reasonOf(resp);
  return firstErrorMessage(errors) ?? (reason && reason !== 'error' ? reason : undefined);
}

/** The reply's machine-readable reason (WINDOW_CLOSED_REASON…), whichever field the server put it in. */
export function reasonOf(resp: unknown): string | undefined {
  if (resp && typeof resp === 'object') {
    const r = resp as Record<string, unknown>;
    for (const k of ['reason', 'detail', 'message', 'error']) if (typeof r[k] === 'string') return r[k] as string;
  }
  return undefined;
}

/** What an alert adds to its text for a failed push: ` (reason)`, or nothing for a bare error or a timeout. */
export function failureSuffix(err: unknown): string {
  return err instanceof Error && err.message && err.message !== 'error' && err.message !== 'timeout' ? ` (${err.message})` : '';
}
