import type { APIRequestContext } from '@playwright/test';

/** The bearer token and Company header of `user` in `company`, through the API (spec §7 login and user calls). */
export async function apiHeaders(request: APIRequestContext, user: { email: string; password: string }, company: string): Promise<Record<string, string>> {
  const login = await request.post('/account/login/', { data: { email: user.email, password: user.password } });
  const { access } = (await login.json()) as { access: string };
  const me = (await (await request.get('/account/user/', { headers: { Authorization: `Bearer ${access}` } })).json()) as { companies: { id: number; name: string }[] };
  const found = me.companies.find((c) => c.name === company);
  if (!found) throw new Error(`${user.email} is not a member of ${company}`);
  return { Authorization: `Bearer ${access}`, Company: String(found.id) };
}
