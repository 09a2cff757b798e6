import { expect, test } from '@playwright/test';
import { ChatsPage } from './pages/ChatsPage';
import { apiHeaders } from './support/apiSession';
import { DEMO_ADMIN, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';

/**
 * Issue #26: the bell, the inbox and a room's contact panel each opened a WebSocket of their own (three connects on a
 * phone, three against the per-user connect limit). They now share the company's one socket
 * (src/core/realtime/sharedSocket.ts): one connection, and everything on it still arrives live.
 */
test.use({ viewport: { width: 1440, height: 900 } });

test("the inbox, the bell and the room's contact panel share one socket, and each still hears its topic", async ({ page, request }) => {
  test.slow();
  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));

  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  const chats = new ChatsPage(page);
  await page.goto('/chats');
  await chats.expectLive(60_000);
  await chats.openRoom('James Carter');
  const panel = page.getByTestId('contact-panel');
  await expect(panel.getByText('James Carter')).toBeVisible();
  await expect(page.getByTestId('notification-bell')).toBeVisible();

  // Another admin changes the contact through the API: the panel hears it on the shared socket.
  const headers = await apiHeaders(request, DEMO_ADMIN, DEMO_COMPANY);
  const roomId = Number(/\/chats\/(\d+)/.exec(page.url())?.[1]);
  const contact = (await (await request.get(`/api/rooms/${roomId}/contact/`, { headers })).json()) as { id: number };
  const orders = (Date.now() % 900) + 100;
  const patched = await request.patch(`/api/contacts/${contact.id}/`, { headers, data: { attributes: { orders } } });
  expect(patched.status(), await patched.text()).toBe(200);
  await expect(panel.getByText(String(orders), { exact: true })).toBeVisible();

  // And the inbox is still live on it.
  await chats.expectLive();
  expect(sockets.filter((url) => url.includes('/socket/websocket'))).toHaveLength(1);
});
