import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { LoginPage } from './pages/LoginPage';
import { PermissionsPage } from './pages/PermissionsPage';
import { ShellPage } from './pages/ShellPage';
import { SignupPage } from './pages/SignupPage';
import { TeamPage } from './pages/TeamPage';
import { acceptInvitationsViaApi, createAccountViaApi } from './support/accounts';
import { uniqueEmail } from './support/demo';
import { linkFromLatestEmail } from './support/outbox';
import { signInTo } from './support/session';

const PASSWORD = 'Team-Console-Pass-42';
const NO_PERMISSION = 'You do not have permission to access this page.';
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

interface Person {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

function person(prefix: string, firstName: string, lastName: string): Person {
  return { email: uniqueEmail(prefix), password: PASSWORD, firstName, lastName };
}

const fullName = (p: Person) => `${p.firstName} ${p.lastName}`;

async function apiLogin(request: APIRequestContext, user: Person): Promise<string> {
  const res = await request.post('/account/login/', { data: { email: user.email, password: user.password } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { access: string }).access;
}

/**
 * A fresh company of our own (so the shared demo data stays as it is): its admin and members are
 * new verified accounts; members join by accepting their invitations.
 */
async function companyWithMembers(request: APIRequestContext, name: string, admin: Person, members: { person: Person; role: string }[]) {
  await createAccountViaApi(request, admin);
  const access = await apiLogin(request, admin);
  const created = await request.post('/api/companies/', { headers: { Authorization: `Bearer ${access}` }, data: { name } });
  expect(created.status(), await created.text()).toBe(201);
  const company = (await created.json()) as { id: number };
  if (members.length === 0) return company;
  for (const { person: p } of members) await createAccountViaApi(request, p);
  const invited = await request.post('/api/invites/bulk/', {
    headers: { Authorization: `Bearer ${access}`, Company: String(company.id) },
    data: { invites: members.map(({ person: p, role }) => ({ email: p.email, role_id: role })) },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  for (const { person: p } of members) await acceptInvitationsViaApi(request, p);
  return company;
}

/** Types a URL in the address bar of the running console (a client-side navigation). */
async function typeUrl(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

test('an admin lists, searches, changes roles, invites, revokes, removes, and cannot demote the last admin', async ({ page, request, browser }) => {
  test.slow(); // the longest walk of the suite: about a minute on a loaded machine
  const companyName = `Team Co ${Date.now().toString(36)}`;
  const admin = person('team-admin', 'Tess', 'Admin');
  const grace = person('team-grace', 'Grace', 'Hopper');
  const alan = person('team-alan', 'Alan', 'Turing');
  await companyWithMembers(request, companyName, admin, [
    { person: grace, role: 'agent' },
    { person: alan, role: 'agent' },
  ]);

  await signInTo(page, admin);
  const shell = new ShellPage(page);
  await shell.expectMenu(['Team', 'Permissions']);
  await shell.openFromMenu('Team');
  const team = new TeamPage(page);
  await team.expectOnPage();
  for (const p of [admin, grace, alan]) await expect(team.row(p.email)).toBeVisible();
  await expect(team.row(alan.email)).toContainText('Agent');

  // Search goes to the server; no match shows the empty-data view.
  await team.search('Hopper');
  await expect(team.row(grace.email)).toBeVisible();
  await expect(team.row(alan.email)).toHaveCount(0);
  await team.search('no-such-member-xyz');
  await team.expectEmpty();
  await team.search('');
  await expect(team.row(alan.email)).toBeVisible();

  // Role change in place.
  await team.changeRole(fullName(alan), 'Manager');
  await shell.expectAlert('Success : Member role has been updated!');
  await expect(team.roleSelect(fullName(alan))).toHaveText('Manager');

  // The only admin cannot demote themself: the spec message with the status, and the server's reason.
  await team.changeRole(fullName(admin), 'Agent');
  await shell.expectAlert('Error 400: occured while updating member role(400)');
  await shell.expectAlert('A company needs at least one admin.');
  await expect(team.roleSelect(fullName(admin))).toHaveText('Admin');

  // Avatar: the caller's own row shows the uploaded image.
  await team.uploadAvatar({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await shell.expectAlert('Your avatar has been updated');
  await expect(team.avatarOf(fullName(admin))).toHaveAttribute('src', /.+/);

  // Invite two people: they show as pending.
  const first = uniqueEmail('team-invitee');
  const second = uniqueEmail('team-invitee');
  await team.invite([first, second]);
  await shell.expectAlert('Invites successfully sent');
  await expect(team.row(first)).toContainText('Agent');
  await expect(team.row(second)).toContainText(fullName(admin));

  // Revoke one.
  await team.revokeInvite(second);
  await shell.expectAlert('Invite revoked');
  await expect(team.row(second)).toHaveCount(0);
  await expect(team.row(first)).toBeVisible();

  // Remove a member.
  await team.showMembers();
  await team.removeMember(fullName(grace));
  await shell.expectAlert('Member successfully removed');
  await expect(team.row(grace.email)).toHaveCount(0);
  await expect(team.row(alan.email)).toBeVisible();

  // The invitee follows the e-mail link, registers, signs in and is in the company.
  const link = await linkFromLatestEmail(request, first, '/auth/signup/create-account');
  expect(link).toContain('invite=');
  const context = await browser.newContext();
  const invitee = await context.newPage();
  await invitee.goto(link);
  await expect(invitee.getByLabel('Email')).toHaveValue(first);
  await new SignupPage(invitee).fillAccount({ firstName: 'Ivy', lastName: 'Invitee', password: PASSWORD });
  const login = new LoginPage(invitee);
  await login.expectOnPage();
  await login.signIn(first, PASSWORD);
  await expect(invitee).toHaveURL(/\/dashboard/);
  await expect(new ShellPage(invitee).companyName).toHaveText(companyName);
  await context.close();

  // The admin sees the new member, with the invited role.
  await page.reload();
  await expect(team.row(first)).toContainText('Agent');
});

test('an agent is refused Team and Permissions until an admin grants it; the change applies on their next load', async ({ page, request, browser }) => {
  const companyName = `Perm Co ${Date.now().toString(36)}`;
  const admin = person('perm-admin', 'Paula', 'Admin');
  const agent = person('perm-agent', 'Pat', 'Agent');
  await companyWithMembers(request, companyName, admin, [{ person: agent, role: 'agent' }]);

  // The agent: no menu entries, and typing the URLs is refused with the spec message.
  const context = await browser.newContext();
  const agentPage = await context.newPage();
  await signInTo(agentPage, agent);
  const agentShell = new ShellPage(agentPage);
  await agentShell.expectMenu(['Dashboard'], ['Team', 'Permissions']);
  await typeUrl(agentPage, '/team');
  await agentShell.expectAlert(NO_PERMISSION);
  await expect(agentPage).toHaveURL(/\/dashboard/);
  await typeUrl(agentPage, '/permissions');
  await agentShell.expectAlert(NO_PERMISSION);
  await expect(agentPage).toHaveURL(/\/dashboard/);
  await agentPage.goto('/team');
  await expect(agentPage).toHaveURL(/\/dashboard/);

  // The admin lets agents view the team.
  await signInTo(page, admin);
  await new ShellPage(page).openFromMenu('Permissions');
  const permissions = new PermissionsPage(page);
  await permissions.expectOnPage();
  await expect(permissions.checkbox('View', 'Dashboard', 'Admin')).toBeDisabled();
  await expect(permissions.checkbox('View', 'Team members', 'Agent')).not.toBeChecked();
  await permissions.set('View', 'Team members', 'Agent', true);
  await permissions.save();
  await new ShellPage(page).expectAlert('Permissions saved');
  await page.reload();
  await expect(permissions.checkbox('View', 'Team members', 'Agent')).toBeChecked();

  // The agent's next load reads the new permissions: Team shows, read-only.
  await agentPage.reload();
  await agentShell.expectMenu(['Dashboard', 'Team'], ['Permissions']);
  await agentShell.openFromMenu('Team');
  const team = new TeamPage(agentPage);
  await team.expectOnPage();
  await expect(team.row(admin.email)).toContainText('Admin');
  await expect(agentPage.getByRole('combobox', { name: /Role of/ })).toHaveCount(0);
  await expect(agentPage.getByRole('button', { name: 'Invite members' })).toHaveCount(0);
  await context.close();
});
