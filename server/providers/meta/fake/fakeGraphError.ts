/** Errors in the Graph API's own format: `{ error: { message, type, code, error_subcode?, error_data?, fbtrace_id } }`. */
import { randomBytes } from 'node:crypto';

export class FakeGraphError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    message: string,
    readonly type = 'OAuthException',
    readonly subcode?: number,
    /** WhatsApp's error_data.details. */
    readonly details?: string,
  ) {
    super(message);
    this.name = 'FakeGraphError';
  }

  body(): Record<string, unknown> {
    return {
      error: {
        message: this.message,
        type: this.type,
        code: this.code,
        ...(this.subcode !== undefined ? { error_subcode: this.subcode } : {}),
        ...(this.details !== undefined ? { error_data: { messaging_product: 'whatsapp', details: this.details } } : {}),
        fbtrace_id: randomBytes(12).toString('base64url'),
      },
    };
  }
}

/** `(#100) The parameter x is required.` */
export function missingParameter(name: string): FakeGraphError {
  return new FakeGraphError(400, 100, `(#100) The parameter ${name} is required.`, 'OAuthException', undefined, `The parameter ${name} is required.`);
}

/** WhatsApp's "(#131009) Parameter value is not valid" with what is wrong in details. */
export function invalidValue(details: string): FakeGraphError {
  return new FakeGraphError(400, 131009, '(#131009) Parameter value is not valid', 'OAuthException', undefined, details);
}

export function invalidParameter(details: string): FakeGraphError {
  return new FakeGraphError(400, 100, '(#100) Invalid parameter', 'OAuthException', undefined, details);
}

/** What Meta answers for an id that does not exist or that the token may not see. */
export function unsupportedRequest(method: string, id: string): FakeGraphError {
  return new FakeGraphError(
    400,
    100,
    `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    'GraphMethodException',
    33,
  );
}

export function invalidToken(message = 'Invalid OAuth access token - Cannot parse access token', subcode?: number): FakeGraphError {
  return new FakeGraphError(401, 190, message, 'OAuthException', subcode);
}
