import { describe, expect, it } from 'vitest';
import { HttpError } from '../http/HttpError';
import { errorText } from './errorText';

describe('errorText', () => {
  it('shows the first message of the first field of the error body', () => {
    const error = new HttpError(400, { non_field_errors: ['Unable to log in with provided credentials.'], email: ['Other'] });
    expect(errorText(error)).toBe('Unable to log in with provided credentials.');
  });

  it('reads `detail` bodies', () => {
    expect(errorText(new HttpError(403, { detail: 'Forbidden here' }))).toBe('Forbidden here');
  });

  it('falls back to the raw error', () => {
    expect(errorText(new Error('Failed to fetch'))).toBe('Failed to fetch');
    expect(errorText('plain text')).toBe('plain text');
  });
});
