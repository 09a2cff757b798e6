/** The address being signed up, kept for the tab's session so create-account can prefill it. */
const KEY = 'signup.email';

export function saveSignupEmail(email: string): void {
  try {
    sessionStorage.setItem(KEY, email);
  } catch {
    /* storage unavailable: prefill from the URL only */
  }
}

export function readSignupEmail(): string {
  try {
    return sessionStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

export function clearSignupEmail(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    /* nothing to clear */
  }
}

export function createAccountPath(email: string): string {
  return `/auth/signup/create-account?email=${encodeURIComponent(email)}`;
}
