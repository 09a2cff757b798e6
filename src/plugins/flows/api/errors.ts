/**
 * Spec §8: a failed flow create, update or delete shows 'Error ' + the server's error value or
 * 'saving flow' / 'updating flow' / 'deleting flow', then in parentheses the server message, else the
 * error's own message, else 'An error occurred' (contract/flows.ts flowErrorMessage). The list's
 * load failure is only logged.
 */
import { flowErrorMessage, FLOW_ERROR_FALLBACKS } from '../../../../contract/flows';

export type FlowAction = keyof typeof FLOW_ERROR_FALLBACKS;

/** The alert for a failed call: the error's body (an HttpError's) and its message. */
export function flowErrorAlert(action: FlowAction, error: unknown): string {
  const body = (error as { body?: unknown } | null)?.body;
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : undefined;
  return flowErrorMessage(action, body, message);
}

/** Spec §8: the list's load failure is logged, not shown. */
export function logFlowListFailure(error: unknown): void {
  console.error('Flows: loading the list failed', error);
}
