import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { ChatsPage } from './pages/ChatsPage';
import { SimulatorPage } from './pages/SimulatorPage';
import { StatsPage } from './pages/StatsPage';
import { acceptInvitationsViaApi, createAccountViaApi } from './support/accounts';
import { uniqueEmail } from './support/demo';
import { signInTo } from './support/session';

/**
 * Issue #22's journey, in Chromium as two agents and an admin of a company of their own (other specs
 * run beside it on the same server: nothing they read moves, and every count here is exact).
 */

const PASSWORD = 'Journey-Console-Pass-42';

interface Person {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

const person = (prefix: string, firstName: string): Person => ({ email: uniqueEmail(prefix), password: PASSWORD, firstName, lastName: 'Journey' });

async function accessToken(request: APIRequestContext, user: Person): Promise<string> {
  const res = await request.post('/account/login/', { data: { email: user.email, password: user.password } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { access: string }).access;
}

/**
 * A fresh company: its admin creates it and invites the agents (role agent), who accept. Returns the
 * admin's API headers in it. Accounts are made in the order given, so the user ids follow it.
 */
async function freshCompany(request: APIRequestContext, name: string, admin: Person, agents: Person[]): Promise<Record<string, string>> {
  await createAccountViaApi(request, admin);
  for (const agent of agents) await createAccountViaApi(request, agent);
  const access = await accessToken(request, admin);
  const created = await request.post('/api/companies/', { headers: { Authorization: `Bearer ${access}` }, data: { name } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const headers = { Authorization: `Bearer ${access}`, Company: String(id) };
  const invited = await request.post('/api/invites/bulk/', { headers, data: { invites: agents.map((a) => ({ email: a.email, role_id: 'agent' })) } });
  expect(invited.status(), await invited.text()).toBe(201);
  for (const agent of agents) await acceptInvitationsViaApi(request, agent);
  return headers;
}

/** The company's sandbox channel (every new company has one): its id, for the settings the channels page saves. */
async function sandboxChannel(request: APIRequestContext, headers: Record<string, string>): Promise<number> {
  const res = await request.get('/api/sandbox/', { headers });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { channel_id: number }).channel_id;
}

/** The switches on the sandbox's card on /channels (auto-assignment and CSAT), through the API the card calls. */
async function turnOn(request: APIRequestContext, headers: Record<string, string>, channelId: number) {
  for (const path of [`/api/auto-assignment/${channelId}/`, `/api/csat/${channelId}/`]) {
    const res = await request.put(path, { headers, data: { enabled: true } });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  }
}

async function signedIn(browser: Browser, user: Person): Promise<Page> {
  const page = await (await browser.newContext({ timezoneId: 'UTC' })).newPage();
  await signInTo(page, user);
  return page;
}

test('two agents and an admin: the customer’s room goes to the online agent, a note mentions the admin who answers in a note (the customer sees neither), the agent resolves, the customer rates 5, /stats counts it and the room re-opens in Mine', async ({
  browser,
  request,
}) => {
  test.slow(); // four accounts, three consoles and a simulator on a loaded machine
  const stamp = Date.now().toString(36);
  const company = `Journey Co ${stamp}`;
  const admin = person('journey-admin', 'Morgan');
  // Agent 2's account comes first: the lower user id, the round-robin's first pick were it online.
  const agent2 = person('journey-agent2', 'Tomas');
  const agent1 = person('journey-agent1', 'Priya');
  const headers = await freshCompany(request, company, admin, [agent2, agent1]);
  await turnOn(request, headers, await sandboxChannel(request, headers));
  const link = await SimulatorPage.linkFor(request, admin, company);

  // Agent 1 is online: signed in with the inbox open (its sandbox joined: the empty list has loaded).
  // Agent 2 never signs in; the admin is signed in but stays away from the inbox for now.
  const agentPage = await signedIn(browser, agent1);
  const chats = new ChatsPage(agentPage);
  await chats.open();
  await expect(agentPage.getByRole('heading', { name: 'No conversations yet' })).toBeVisible();
  const adminPage = await signedIn(browser, admin);
  const bell = adminPage.getByRole('button', { name: 'Notifications', exact: true });
  await expect(bell).toBeVisible();

  // The customer writes: auto-assignment gives the new room to agent 1, who finds it in Mine.
  const customer = `Journey Customer ${stamp}`;
  const customerPage = await (await browser.newContext({ timezoneId: 'UTC' })).newPage();
  const simulator = new SimulatorPage(customerPage);
  await simulator.open(link);
  await simulator.startAs(customer, `journey-${stamp}`);
  await simulator.send(`My order never came ${stamp}`);

  const mine = agentPage.getByRole('tab', { name: /^Mine/ });
  await expect(mine).toHaveText('Mine (1)');
  await mine.click();
  await expect(chats.room(customer)).toBeVisible();
  await chats.openRoom(customer);
  await expect(agentPage.getByRole('button', { name: 'Assignee' })).toHaveText(/Priya$/);

  // Agent 1 writes a private note and mentions the admin with "@" (the suggestion chosen).
  const modes = agentPage.getByRole('group', { name: 'Reply to the customer or write a private note' });
  await modes.getByRole('button', { name: 'Note', exact: true }).click();
  const agentNoteInput = agentPage.getByRole('textbox', { name: 'Write a private note… (@ mentions a member)' });
  const agentNote = `Refund or resend ${stamp}?`;
  await agentNoteInput.fill(`${agentNote} @Morg`);
  await agentPage.getByRole('listbox', { name: 'Members to mention' }).getByRole('option', { name: admin.email }).click();
  await expect(agentNoteInput).toHaveValue(`${agentNote} @${admin.email} `);
  await agentNoteInput.press('Enter');
  await expect(chats.messages.filter({ hasText: agentNote })).toHaveAttribute('data-origin', 'note');

  // The admin's bell tells them at once; following it lands on the room at the note.
  await expect(adminPage.getByRole('button', { name: '1 unread notification' })).toBeVisible();
  await adminPage.getByRole('button', { name: '1 unread notification' }).click();
  await adminPage.getByRole('button', { name: new RegExp(`^Priya mentioned you in ${customer}`) }).click();
  await expect(adminPage).toHaveURL(/\/chats\/\d+\?message=\d+/);
  const focused = adminPage.locator('[data-testid="message-row"][data-focused="true"]');
  await expect(focused).toContainText(agentNote);
  await expect(focused).toHaveAttribute('data-origin', 'note');

  // The admin answers in a note; agent 1 sees it live.
  const adminNote = `Resend it, we pay the postage ${stamp}`;
  await adminPage.getByRole('group', { name: 'Reply to the customer or write a private note' }).getByRole('button', { name: 'Note', exact: true }).click();
  const adminNoteInput = adminPage.getByRole('textbox', { name: 'Write a private note… (@ mentions a member)' });
  await adminNoteInput.fill(adminNote);
  await adminNoteInput.press('Enter');
  await expect(new ChatsPage(adminPage).messages.filter({ hasText: adminNote })).toHaveAttribute('data-origin', 'note');
  await expect(chats.messages.filter({ hasText: adminNote })).toHaveAttribute('data-origin', 'note');

  // Agent 1 replies to the customer: the reply reaches the simulator, neither note does.
  await modes.getByRole('button', { name: 'Reply', exact: true }).click();
  const reply = `We are sending a new parcel today ${stamp}`;
  await chats.send(reply);
  await expect(simulator.message(reply, 'agent')).toBeVisible();
  await expect(customerPage.getByText(agentNote)).toHaveCount(0);
  await expect(customerPage.getByText(adminNote)).toHaveCount(0);

  // Agent 1 resolves: the room leaves the open Mine view; the customer is asked for a rating and gives 5.
  await agentPage.getByRole('button', { name: 'Resolve', exact: true }).click();
  await expect(agentPage.getByTestId('status-chip')).toHaveText('Resolved');
  await expect(mine).toHaveText('Mine (0)');
  await expect(chats.room(customer)).toHaveCount(0);
  await expect(simulator.message('How would you rate our help?', 'bot')).toBeVisible();
  await customerPage.getByRole('button', { name: '5 - Excellent' }).click();
  await expect(agentPage.getByTestId('csat-event')).toContainText('Customer rated the conversation 5/5');
  await expect(agentPage.getByTestId('status-chip')).toHaveText('Resolved');

  // The admin's /stats, today: the company's one response, a 5, credited to agent 1.
  const stats = new StatsPage(adminPage);
  await stats.open();
  await adminPage.getByRole('combobox', { name: 'Period' }).click();
  await adminPage.getByRole('option', { name: 'Today' }).click();
  await expect(stats.total('csat')).toHaveText('100 %');
  await expect(adminPage.getByTestId('stats-total-csat')).toContainText('1 response');
  const byAgent = adminPage.getByRole('region', { name: 'Customer satisfaction by agent' }).getByRole('row').filter({ hasText: agent1.email });
  await expect(byAgent.getByRole('cell')).toHaveText(['Priya Journey', agent1.email, '1', '1', '100 %']);

  // The customer writes again: the room is open again, in agent 1's Mine.
  await simulator.send(`One more question ${stamp}`);
  await expect(mine).toHaveText('Mine (1)');
  await expect(chats.room(customer)).toBeVisible();
  await expect(agentPage.getByTestId('status-chip')).toHaveCount(0);
  await expect(agentPage.getByRole('button', { name: 'Resolve', exact: true })).toBeVisible();

  for (const page of [agentPage, adminPage, customerPage]) await page.context().close();
});
