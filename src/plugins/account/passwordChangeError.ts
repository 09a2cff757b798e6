import { fieldErrorMessage } from '../../../contract/errors';

/** Spec §5: password change errors show the server's new_password2 message, or the fallback. */
export function passwordChangeErrorText(error: unknown, fallback: string): string {
  const body = (error as { body?: unknown } | null)?.body;
  return fieldErrorMessage(body, 'new_password2') ?? fallback;
}
