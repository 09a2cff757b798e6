/**
 * Spec §3 "Embedded signup data (kept locally)": phone_number_id, waba_id, code, non_json_data,
 * a virtual number, a virtual-number-flow flag, a current step, the user's company invites and the
 * user's email — one localStorage key. The record belongs to one user and company; a write for
 * another owner starts a fresh record. Cleared once the signup is completed.
 */
export const SIGNUP_DATA_KEY = 'console.whatsappEmbeddedSignup';

/** Where the user stands in the onboarding (route steps plus the start page's phases). */
export type SignupFlowStep =
  | 'intro-step'
  | 'start'
  | 'facebook-login'
  | 'submitting'
  | 'provisioning'
  | 'failed'
  | 'integration-success'
  | 'account-already-connected';

export interface EmbeddedSignupData {
  phone_number_id: string | null;
  waba_id: string | null;
  code: string | null;
  non_json_data: unknown;
  /** A number provided by the console (not the customer's own); this console never assigns one. */
  virtual_number: string | null;
  is_virtual_number_flow: boolean;
  current_step: SignupFlowStep;
  /** The companies the user belongs to / was invited to (names), as known when the flow started. */
  company_invites: string[];
  email: string | null;
  /** The selected company the number is being connected to. */
  company: number | null;
  /** The number's id on the server once the signup was submitted (GET signup_status/?external_id=). */
  external_id: string | null;
  updated_at: string;
}

export interface SignupOwner {
  email: string | null;
  company: number | null;
  company_invites: string[];
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function readSignupData(): EmbeddedSignupData | null {
  const raw = storage()?.getItem(SIGNUP_DATA_KEY);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null ? (parsed as EmbeddedSignupData) : null;
  } catch {
    return null;
  }
}

function emptyData(owner: SignupOwner): EmbeddedSignupData {
  return {
    phone_number_id: null,
    waba_id: null,
    code: null,
    non_json_data: null,
    virtual_number: null,
    is_virtual_number_flow: false,
    current_step: 'intro-step',
    company_invites: owner.company_invites,
    email: owner.email,
    company: owner.company,
    external_id: null,
    updated_at: new Date().toISOString(),
  };
}

/** Merges `patch` into the owner's record (a record of another user or company is replaced). */
export function saveSignupData(owner: SignupOwner, patch: Partial<Omit<EmbeddedSignupData, 'email' | 'company' | 'updated_at'>>): EmbeddedSignupData {
  const current = readSignupData();
  const base = current && current.email === owner.email && current.company === owner.company ? current : emptyData(owner);
  const next: EmbeddedSignupData = { ...base, company_invites: owner.company_invites, ...patch, updated_at: new Date().toISOString() };
  try {
    storage()?.setItem(SIGNUP_DATA_KEY, JSON.stringify(next));
  } catch {
    /* storage full or disabled: the flow still works, only a reload loses the progress */
  }
  return next;
}

export function clearSignupData(): void {
  storage()?.removeItem(SIGNUP_DATA_KEY);
}
