import { errorBody } from '../../core';
import { firstErrorMessage } from '../../../contract/errors';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** HTTP status of a failed call (0 when the request never got an answer). */
export function errorStatus(error: unknown): number {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : 0;
}

/**
 * Spec §8: 'Error {status}: occured while updating member role({status})', the status put in both
 * places; when the server explains why (e.g. the last admin), its message follows.
 */
export function roleUpdateErrorText(t: Translate, error: unknown): string {
  const status = errorStatus(error);
  const text = t('team.roleUpdateError', { status });
  const detail = firstErrorMessage(errorBody(error));
  return detail ? `${text} ${detail}` : text;
}
