// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { clearSignupData, readSignupData, saveSignupData, SIGNUP_DATA_KEY } from './signupData';

const owner = { email: 'ada@example.com', company: 1, company_invites: ['Demo Company'] };

describe('embedded signup data (kept locally)', () => {
  beforeEach(() => localStorage.clear());

  it('keeps the spec fields in one localStorage key and merges updates', () => {
    saveSignupData(owner, { current_step: 'start' });
    saveSignupData(owner, { phone_number_id: 'pn', waba_id: 'w', code: 'c', non_json_data: 'raw', current_step: 'submitting' });
    expect(Object.keys(localStorage)).toEqual([SIGNUP_DATA_KEY]);
    expect(readSignupData()).toMatchObject({
      phone_number_id: 'pn',
      waba_id: 'w',
      code: 'c',
      non_json_data: 'raw',
      virtual_number: null,
      is_virtual_number_flow: false,
      current_step: 'submitting',
      company_invites: ['Demo Company'],
      email: 'ada@example.com',
      company: 1,
    });
  });

  it("starts a fresh record for another user or company, and clears", () => {
    saveSignupData(owner, { code: 'c', current_step: 'submitting' });
    saveSignupData({ ...owner, company: 2 }, { current_step: 'intro-step' });
    expect(readSignupData()).toMatchObject({ company: 2, code: null, current_step: 'intro-step' });
    clearSignupData();
    expect(readSignupData()).toBeNull();
  });

  it('ignores a corrupt record', () => {
    localStorage.setItem(SIGNUP_DATA_KEY, '{not json');
    expect(readSignupData()).toBeNull();
  });
});
