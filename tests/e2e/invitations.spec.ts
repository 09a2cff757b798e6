import { expect, test, type APIRequestContext } from '@playwright/test';
import { CompanyPickerPage } from './pages/CompanyPickerPage';
import { ShellPage } from './pages/ShellPage';
import { TeamPage } from './pages/TeamPage';
import { createAccountViaApi } from './support/accounts';
import { uniqueEmail } from './support/demo';
import { signInTo } from './support/session';

const PASSWORD = 'Invite-Console-Pass-42';

async function accessOf(request: APIRequestContext, user: { email: string; password: string }): Promise<string> {
  const res = await request.post('/account/login/', { data: user });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { access: string }).access;
}

async function createCompany(request: APIRequestContext, access: string, name: string): Promise<number> {
  const res = await request.post('/api/companies/', { headers: { Authorization: `Bearer ${access}` }, data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

test('an existing user joins one invitation and declines another; nothing happens before they answer', async ({ page, request, browser }) => {
  // Two users, three companies and two browser contexts: more than the default minute on a loaded 2-core machine.
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  const joinName = `Join Co ${suffix}`;
  const declineName = `Decline Co ${suffix}`;
  const admin = { email: uniqueEmail('inv-admin'), password: PASSWORD, firstName: 'Iris', lastName: 'Admin' };
  const invitee = { email: uniqueEmail('inv-user'), password: PASSWORD, firstName: 'Quinn', lastName: 'Invitee' };
  await createAccountViaApi(request, admin);
  await createAccountViaApi(request, invitee);
  const adminAccess = await accessOf(request, admin);
  await createCompany(request, adminAccess, joinName);
  const declineId = await createCompany(request, adminAccess, declineName);

  // The admin invites the existing user to the first company from the Team page…
  await signInTo(page, admin, joinName);
  const shell = new ShellPage(page);
  await shell.openFromMenu('Team');
  const team = new TeamPage(page);
  await team.expectOnPage();
  await team.invite([invitee.email], 'Manager');
  await shell.expectAlert('Invites successfully sent');
  // …which shows the e-mail only: no name, no membership.
  await expect(team.row(invitee.email)).toContainText('Pending');
  await expect(team.row(invitee.email)).not.toContainText(invitee.lastName);
  await team.showMembers();
  await expect(team.row(admin.email)).toBeVisible();
  await expect(team.row(invitee.email)).toHaveCount(0);

  // …and to the second one through the API.
  const second = await request.post('/api/invites/bulk/', {
    headers: { Authorization: `Bearer ${adminAccess}`, Company: String(declineId) },
    data: { invites: [{ email: invitee.email, role_id: 'agent' }] },
  });
  expect(second.status(), await second.text()).toBe(201);

  // The invitee signs in: no company yet, the two invitations wait on the company page.
  const context = await browser.newContext();
  const inviteePage = await context.newPage();
  await signInTo(inviteePage, invitee);
  const picker = new CompanyPickerPage(inviteePage);
  await picker.expectOnPage();
  const invitations = inviteePage.getByRole('list', { name: 'Invitations waiting for you' });
  await expect(invitations.getByRole('listitem')).toHaveCount(2);
  await expect(invitations.getByRole('listitem', { name: joinName })).toContainText('Invited by Iris Admin as Manager');
  await expect(inviteePage.getByText('No companies found.')).toBeVisible();

  // Join: the company is in the list at once, and can be opened.
  await inviteePage.getByRole('button', { name: `Join ${joinName}` }).click();
  await expect(inviteePage.getByText(`You joined ${joinName}.`)).toBeVisible();
  await expect(picker.row(joinName)).toBeVisible();
  await expect(invitations.getByRole('listitem')).toHaveCount(1);

  // Decline: the invitation disappears and the company is not joined.
  await inviteePage.getByRole('button', { name: `Decline the invitation from ${declineName}` }).click();
  await new ShellPage(inviteePage).expectAlert(`Invitation from ${declineName} declined.`);
  await expect(inviteePage.getByRole('list', { name: 'Invitations waiting for you' })).toHaveCount(0);
  await expect(inviteePage.getByRole('option', { name: new RegExp(declineName) })).toHaveCount(0);

  await inviteePage.getByRole('button', { name: `Open ${joinName}` }).click();
  await expect(inviteePage).toHaveURL(/\/dashboard/);
  await expect(new ShellPage(inviteePage).companyName).toHaveText(joinName);

  // A reload keeps it: the membership is on the server; the declined invitation does not come back.
  await inviteePage.goto('/company/select');
  await expect(picker.row(joinName)).toBeVisible();
  await expect(inviteePage.getByRole('list', { name: 'Invitations waiting for you' })).toHaveCount(0);
  await context.close();

  // The admin now sees the member with the invited role, and the other company sees "declined".
  await page.reload();
  await team.expectOnPage();
  await team.showMembers();
  await expect(team.row(invitee.email)).toContainText('Manager');
  const declined = await request.get('/api/invites/?status=declined', { headers: { Authorization: `Bearer ${adminAccess}`, Company: String(declineId) } });
  expect(((await declined.json()) as { results: { email: string; status: string }[] }).results).toEqual([
    expect.objectContaining({ email: invitee.email, status: 'declined' }),
  ]);
});

test('a user who already works in a company is told about a new invitation in the shell', async ({ page, request }) => {
  const suffix = Date.now().toString(36);
  const homeName = `Home Co ${suffix}`;
  const otherName = `Other Co ${suffix}`;
  const user = { email: uniqueEmail('inv-worker'), password: PASSWORD };
  const owner = { email: uniqueEmail('inv-owner'), password: PASSWORD };
  await createAccountViaApi(request, user);
  await createAccountViaApi(request, owner);
  await createCompany(request, await accessOf(request, user), homeName);
  const ownerAccess = await accessOf(request, owner);
  const otherId = await createCompany(request, ownerAccess, otherName);
  const sent = await request.post('/api/invites/bulk/', {
    headers: { Authorization: `Bearer ${ownerAccess}`, Company: String(otherId) },
    data: { invites: [{ email: user.email, role_id: 'agent' }] },
  });
  expect(sent.status(), await sent.text()).toBe(201);

  // One company: sign-in goes straight to the dashboard, where the notice names the invitation.
  await signInTo(page, user);
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(new ShellPage(page).companyName).toHaveText(homeName);
  await expect(page.getByText(`You are invited to join ${otherName}.`)).toBeVisible();
  await page.getByRole('button', { name: 'Review invitations' }).click();
  await expect(page).toHaveURL(/\/company\/select/);
  await page.getByRole('button', { name: `Join ${otherName}` }).click();
  await expect(page.getByText(`You joined ${otherName}.`)).toBeVisible();
  await expect(new CompanyPickerPage(page).row(otherName)).toBeVisible();
  await expect(new CompanyPickerPage(page).row(homeName)).toBeVisible();
});
