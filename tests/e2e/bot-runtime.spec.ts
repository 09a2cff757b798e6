import { expect, test, type APIRequestContext } from '@playwright/test';
import { ChatsPage } from './pages/ChatsPage';
import { SimulatorPage } from './pages/SimulatorPage';
import { DEMO_ADMIN, NORTHWIND } from './support/demo';
import { signInTo } from './support/session';

/**
 * The bot runtime live: a bot put on Northwind's sandbox through the bot service (so this never
 * touches the Demo Company's bot, which other specs move around) answers a customer in the
 * simulator; its messages show live in the inbox; a button hands over (the room shows the bot
 * paused); the agent resumes the bot and the next customer message meets the greeting again.
 */
async function northwindBot(request: APIRequestContext, stamp: string): Promise<string> {
  const login = await request.post('/account/login/', { data: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password } });
  expect(login.ok(), await login.text()).toBeTruthy();
  const body = (await login.json()) as { access: string; user: { companies: { id: number; name: string }[] } };
  const company = body.user.companies.find((c) => c.name === NORTHWIND)!;
  const headers = { Authorization: `Bearer ${body.access}`, Company: String(company.id) };
  const sandbox = (await (await request.get('/api/sandbox/', { headers })).json()) as { channel_id: number; simulator_url: string };
  const integration = (await (await request.get('/api/bots/integration/', { headers })).json()) as { endpoint: string; access_key: string };
  const service = `${new URL(integration.endpoint).pathname.replace(/\/+$/, '')}`;
  const key = `access_key=${encodeURIComponent(integration.access_key)}`;
  const created = await request.post(`${service}/api/bots/?${key}`, { data: { name: `Northwind helper ${stamp}`, channels: [sandbox.channel_id] } });
  expect(created.status(), await created.text()).toBe(201);
  const bot = (await created.json()) as { id: number };
  const graph = await request.post(`${service}/branch/update_or_create/?${key}`, {
    data: {
      bot: bot.id,
      step: 'hello',
      steps: [
        {
          id: 'hello',
          messages: [{ text: `Welcome to Northwind ${stamp}` }],
          options: [
            { id: 'prices', text: 'Prices', next_step: 'prices' },
            { id: 'agent', text: 'Talk to an agent', next_step: 'agent' },
          ],
        },
        { id: 'prices', messages: [{ text: 'Everything is 10% off this week.' }], next_step_id: 'hello' },
        { id: 'agent', messages: [{ text: 'An agent will take over now.' }], actions: [{ type: 'hand_over' }] },
      ],
    },
  });
  expect(graph.ok(), await graph.text()).toBeTruthy();
  const url = new URL(sandbox.simulator_url);
  return url.pathname + url.search;
}

test('a bot answers in the simulator, shows live in the inbox, hands over, and the agent resumes it', async ({ browser, request }) => {
  const stamp = Date.now().toString(36);
  const link = await northwindBot(request, stamp);
  const welcome = `Welcome to Northwind ${stamp}`;
  const customer = `Bot customer ${stamp}`;

  const agentContext = await browser.newContext();
  const agentPage = await agentContext.newPage();
  await signInTo(agentPage, DEMO_ADMIN, NORTHWIND);
  const chats = new ChatsPage(agentPage);
  await chats.open();
  await chats.expectLive();

  const customerContext = await browser.newContext();
  const customerPage = await customerContext.newPage();
  const simulator = new SimulatorPage(customerPage);
  await simulator.open(link);
  await simulator.startAs(customer, `bot-${stamp}`);
  await simulator.send('Hi');
  await expect(simulator.message(welcome, 'bot')).toHaveCount(1);

  // A button: the prices step, then the menu again by its next step.
  await customerPage.getByRole('button', { name: 'Prices' }).last().click();
  await expect(simulator.message('Everything is 10% off this week.', 'bot')).toBeVisible();
  await expect(simulator.message(welcome, 'bot')).toHaveCount(2);

  // The inbox shows the bot's messages live; the hand-over pauses the bot in the room.
  await chats.openRoom(customer);
  await expect(chats.message(welcome)).toHaveCount(2);
  await expect(chats.pausedChip).toHaveCount(0);
  await customerPage.getByRole('button', { name: 'Talk to an agent' }).last().click();
  await expect(simulator.message('An agent will take over now.', 'bot')).toBeVisible();
  await expect(chats.message('An agent will take over now.')).toBeVisible();
  await expect(chats.pausedChip).toBeVisible();

  // The agent answers, then resumes the bot: the customer's next message meets the greeting again.
  await chats.send('Hello, I am here to help.');
  await expect(simulator.message('Hello, I am here to help.', 'agent')).toBeVisible();
  await chats.resume();
  await expect(chats.pausedChip).toHaveCount(0);
  await simulator.send('Thanks!');
  await expect(simulator.message(welcome, 'bot')).toHaveCount(3);
  await expect(chats.message(welcome)).toHaveCount(3);

  await customerContext.close();
  await agentContext.close();
});
