import { firstErrorMessage } from '../../../contract/errors';

/** A failed HTTP call: `status`, the parsed `body` (JSON or text), and the body's first error message. */
export class HttpError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, body: unknown, statusText = '') {
    super(firstErrorMessage(body) ?? (statusText || `HTTP ${status}`));
    this.name = 'HttpError';
    this.status = status;
    this.body = body;
  }
}

export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}
