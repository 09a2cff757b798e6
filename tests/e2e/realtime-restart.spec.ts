import { expect, test } from '@playwright/test';
import { ChatsPage } from './pages/ChatsPage';
import { SimulatorPage } from './pages/SimulatorPage';
import { DEMO_AGENT, DEMO_COMPANY } from './support/demo';
import { ServerProcess } from './support/serverProcess';
import { signInTo } from './support/session';

// The shared webServer cannot be restarted under the other specs, so this spec runs a server of
// its own (the compiled server and console the webServer built, as `npm run serve`), on E2E_PORT + 50 with its
// own data directory, and really stops it: SIGTERM, the process exits, then it starts again on
// the same port and data.
const port = Number(process.env.E2E_PORT ?? 8181) + 50;
const server = new ServerProcess({ port, dataDir: `.test-data/e2e-restart-${port}` });

test.afterAll(async () => {
  await server.dispose();
});

test('reconnect after the server restarts', async ({ browser }, testInfo) => {
  test.setTimeout(240_000);
  try {
    await server.start();
    const agentContext = await browser.newContext({ baseURL: server.baseURL });
    const customerContext = await browser.newContext({ baseURL: server.baseURL });
    const agentPage = await agentContext.newPage();
    const simulator = new SimulatorPage(await customerContext.newPage());
    const chats = new ChatsPage(agentPage);

    // A customer writes; the agent has the conversation open.
    const stamp = Date.now().toString(36);
    const name = `E2E Restart ${stamp}`;
    const before = `Before the restart ${stamp}`;
    await simulator.open(await SimulatorPage.linkFor(agentContext.request, DEMO_AGENT, DEMO_COMPANY));
    await simulator.startAs(name, `e2e-restart-${stamp}`);
    await simulator.send(before);

    await signInTo(agentPage, DEMO_AGENT, DEMO_COMPANY);
    await chats.open();
    await expect(chats.room(name)).toBeVisible();
    await chats.openRoom(name);
    await expect(chats.message(before)).toHaveCount(1);
    // Gone if the page reloads: everything below must happen live.
    await agentPage.evaluate(() => Object.assign(window, { __e2eNoReload: true }));

    // The server goes away: the console says it is reconnecting (and keeps saying so while down).
    await server.stop();
    await chats.expectConnectionState('reconnecting');

    // Back on the same port and data: the console goes live again by itself (back-off 1, 2, 5, then 10 s).
    await server.start();
    await chats.expectLive(45_000);

    // The agent answers right away: delivered to the customer, ticks on the message.
    const reply = `Back online ${stamp}`;
    await chats.send(reply);
    const sent = chats.message(reply);
    await expect(sent).toHaveCount(1);
    await expect(sent).toHaveAttribute('data-status', /^(sent|delivered|read)$/, { timeout: 15_000 });
    await expect(simulator.message(reply, 'agent')).toBeVisible({ timeout: 15_000 });

    // The customer writes after the restart: it shows live in the open room.
    const after = `After the restart ${stamp}`;
    await simulator.send(after);
    await expect(chats.message(after)).toHaveCount(1, { timeout: 15_000 });
    await expect(chats.message(before)).toHaveCount(1);
    await expect(chats.messages.filter({ hasText: reply })).toHaveCount(1);
    await expect(chats.header).toBeVisible();
    expect(await agentPage.evaluate(() => (window as unknown as { __e2eNoReload?: boolean }).__e2eNoReload)).toBe(true);

    await agentContext.close();
    await customerContext.close();
  } catch (err) {
    await testInfo.attach('server output', { body: server.log(), contentType: 'text/plain' });
    throw err;
  }
});
