import { describe, expect, it } from 'vitest';
import { userFullName } from './userName';

describe('userFullName', () => {
  it('joins the first and last name, without a stray space when one is missing', () => {
    expect(userFullName({ first_name: 'Ada', last_name: 'Admin' })).toBe('Ada Admin');
    expect(userFullName({ first_name: 'Ada', last_name: '' })).toBe('Ada');
    expect(userFullName({ first_name: '', last_name: '' })).toBe('');
  });
});
