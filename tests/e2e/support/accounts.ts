import { expect, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, uniqueEmail } from './demo';
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

/**
 * Signs in through the API and accepts every invitation waiting for the user (an invite makes
 * nobody a member until its invitee answers it: GET /api/invitations/, POST …/{id}/accept/).
 */
export async function acceptInvitationsViaApi(request: APIRequestContext, user: { email: string; password: string }): Promise<void> {
  const login = await request.post('/account/login/', { data: { email: user.email, password: user.password } });
  expect(login.status(), await login.text()).toBe(200);
  const headers = { Authorization: `Bearer ${((await login.json()) as { access: string }).access}` };
  const list = await request.get('/api/invitations/', { headers });
  expect(list.status(), await list.text()).toBe(200);
  for (const { id } of ((await list.json()) as { results: { id: number }[] }).results) {
    const accepted = await request.post(`/api/invitations/${id}/accept/`, { headers });
    expect(accepted.status(), await accepted.text()).toBe(200);
  }
}

/**
 * A new account (the demo's password) and a company of its own, so a spec that moves what other specs rely on (a
 * sandbox channel's bot, say) touches nothing of the demo companies. `headers` carry the admin's token and company.
 */
export async function adminOfFreshCompany(
  request: APIRequestContext,
  emailPrefix: string,
  companyPrefix: string,
  firstName = 'Fran',
): Promise<{ user: { email: string; password: string; firstName: string }; company: string; headers: Record<string, string> }> {
  const user = { email: uniqueEmail(emailPrefix), password: DEMO_PASSWORD, firstName };
  await createAccountViaApi(request, user);
  const login = await request.post('/account/login/', { data: { email: user.email, password: user.password } });
  expect(login.status(), await login.text()).toBe(200);
  const { access } = (await login.json()) as { access: string };
  const company = `${companyPrefix} ${Date.now().toString(36)}`;
  const created = await request.post('/api/companies/', { data: { name: company }, headers: { Authorization: `Bearer ${access}` } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  return { user, company, headers: { Authorization: `Bearer ${access}`, Company: String(id) } };
}
