import { expect, type APIRequestContext } from '@playwright/test';
import { linkFromLatestEmail } from './outbox';

/** Creates a verified account through the public API (the same calls the sign-up pages make). */
export async function createAccountViaApi(
  request: APIRequestContext,
  user: { email: string; password: string; firstName?: string; lastName?: string },
): Promise<void> {
  const submit = await request.post('/api/onboarding-request/submit/', { data: { email: user.email, needs_whatsapp_number: true } });
  expect(submit.ok()).toBeTruthy();
  const link = await linkFromLatestEmail(request, user.email, '/auth/signup/verify-account-email');
  const token = new URL(link, 'http://x').searchParams.get('token');
  const verify = await request.get(`/api/onboarding-request/verify/?token=${encodeURIComponent(token!)}`);
  expect(verify.ok()).toBeTruthy();
  const reg = await request.post('/account/registration/', {
    data: {
      first_name: user.firstName ?? 'Test',
      last_name: user.lastName ?? 'User',
      email: user.email,
      password1: user.password,
      password2: user.password,
    },
  });
  expect(reg.status(), await reg.text()).toBe(201);
}
