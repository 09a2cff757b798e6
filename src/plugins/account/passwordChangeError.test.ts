import { describe, expect, it } from 'vitest';
import { HttpError } from '../../core/http/HttpError';
import { passwordChangeErrorText } from './passwordChangeError';

describe('passwordChangeErrorText', () => {
  it("shows the server's new_password2 message", () => {
    const error = new HttpError(400, { new_password2: ["The two password fields didn't match."] });
    expect(passwordChangeErrorText(error, 'Password update failed')).toBe("The two password fields didn't match.");
  });

  it("falls back to 'Password update failed' for any other error", () => {
    expect(passwordChangeErrorText(new HttpError(400, { old_password: ['Wrong password.'] }), 'Password update failed')).toBe('Password update failed');
    expect(passwordChangeErrorText(new Error('offline'), 'Password update failed')).toBe('Password update failed');
  });
});
