import { expect, test, type APIRequestContext, type WebSocketRoute } from '@playwright/test';
import { ChatsPage } from './pages/ChatsPage';
import { SimulatorPage } from './pages/SimulatorPage';
import { DEMO_AGENT, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';

/** A customer message through the simulator API (what the simulator page posts). */
async function customerSays(request: APIRequestContext, link: string, customer: { id: string; name: string }, text: string, clientId: string) {
  const key = link.split('?')[0].split('/').filter(Boolean).pop()!;
  const res = await request.post(`/api/sandbox/${key}/conversations/${encodeURIComponent(customer.id)}/messages/`, {
    data: { name: customer.name, text, client_id: clientId },
  });
  expect(res.status(), await res.text()).toBe(201);
}

// The webServer is shared by every spec, so the server is not restarted: the network drop is
// simulated in the browser instead. Every socket connection goes through a route; "offline" closes
// the open ones and refuses new attempts until the network "comes back".
test('the inbox recovers after the connection drops: missed messages once, then live again', async ({ browser, request }) => {
  const link = await SimulatorPage.linkFor(request, DEMO_AGENT, DEMO_COMPANY);
  const stamp = Date.now().toString(36);
  const customer = { id: `e2e-reconnect-${stamp}`, name: `E2E Reconnect ${stamp}` };

  const context = await browser.newContext();
  const page = await context.newPage();
  let offline = false;
  const open = new Set<WebSocketRoute>();
  await page.routeWebSocket(/\/socket\/websocket/, (ws) => {
    if (offline) {
      ws.close({ code: 4000, reason: 'offline (test)' });
      return;
    }
    const server = ws.connectToServer();
    open.add(ws);
    ws.onClose(() => {
      open.delete(ws);
      void server.close().catch(() => undefined);
    });
    server.onClose(() => {
      open.delete(ws);
      void ws.close().catch(() => undefined);
    });
  });

  await signInTo(page, DEMO_AGENT, DEMO_COMPANY);
  const chats = new ChatsPage(page);
  await chats.open();

  // A conversation the agent has open.
  const first = `Before the drop ${stamp}`;
  await customerSays(request, link, customer, first, `${stamp}-1`);
  await expect(chats.room(customer.name)).toBeVisible();
  await chats.openRoom(customer.name);
  await expect(chats.message(first)).toHaveCount(1);

  // The network drops: the badge says so.
  offline = true;
  await context.setOffline(true);
  await Promise.all([...open].map((ws) => ws.close({ code: 4000, reason: 'offline (test)' }).catch(() => undefined)));
  await chats.expectConnectionState('reconnecting');

  // A customer message while the agent is offline.
  const missed = `While offline ${stamp}`;
  await customerSays(request, link, customer, missed, `${stamp}-2`);
  await page.waitForTimeout(1_500);
  await expect(chats.message(missed)).toHaveCount(0);

  // The network comes back: live again, the missed message shows once, nothing doubles.
  offline = false;
  await context.setOffline(false);
  await chats.expectLive();
  await expect(chats.message(missed)).toHaveCount(1, { timeout: 15_000 });
  await expect(chats.message(first)).toHaveCount(1);

  // And after the reconnection, messages arrive live.
  const after = `After the reconnect ${stamp}`;
  await customerSays(request, link, customer, after, `${stamp}-3`);
  await expect(chats.message(after)).toHaveCount(1);
  await page.waitForTimeout(1_000);
  await expect(chats.message(first)).toHaveCount(1);
  await expect(chats.message(missed)).toHaveCount(1);
  await expect(chats.message(after)).toHaveCount(1);
  await expect(chats.messages.filter({ hasText: stamp })).toHaveCount(3);
  // In order: what the customer sent, as sent.
  await expect(chats.messages.filter({ hasText: stamp }).getByTestId('message-text')).toHaveText([first, missed, after]);

  await context.close();
});
