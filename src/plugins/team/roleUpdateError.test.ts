import { describe, expect, it } from 'vitest';
import { HttpError } from '../../core';
import { errorStatus, roleUpdateErrorText } from './roleUpdateError';

const t = (key: string, options?: Record<string, unknown>) =>
  key === 'team.roleUpdateError' ? `Error ${options?.status}: occured while updating member role(${options?.status})` : key;

describe('roleUpdateErrorText', () => {
  it('puts the status in both places', () => {
    expect(roleUpdateErrorText(t, new HttpError(502, null))).toBe('Error 502: occured while updating member role(502)');
  });

  it("adds the server's field message", () => {
    expect(roleUpdateErrorText(t, new HttpError(400, { role_id: ['A company needs at least one admin.'] }))).toBe(
      'Error 400: occured while updating member role(400) A company needs at least one admin.',
    );
    expect(roleUpdateErrorText(t, new HttpError(403, { detail: 'You do not have permission to perform this action.' }))).toBe(
      'Error 403: occured while updating member role(403) You do not have permission to perform this action.',
    );
  });

  it('uses 0 when the request got no answer', () => {
    expect(errorStatus(new TypeError('Failed to fetch'))).toBe(0);
    expect(roleUpdateErrorText(t, new TypeError('Failed to fetch'))).toBe('Error 0: occured while updating member role(0)');
  });
});
