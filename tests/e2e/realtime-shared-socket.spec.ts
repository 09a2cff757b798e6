import { expect, test } from '@playwright/test';
import { ChatsPage } from './pages/ChatsPage';
import { ShellPage } from './pages/ShellPage';
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
  // Sockets open at once: another spec may close this user's sockets meanwhile (a role's permissions changed, the
  // server restarted), and the reconnect is a new WebSocket after the old one closed, not a second socket.
  let open = 0;
  let mostOpen = 0;
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/socket/websocket')) return;
    open += 1;
    mostOpen = Math.max(mostOpen, open);
    ws.on('close', () => (open -= 1));
  });

  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  // The bell opens the socket on the dashboard; the inbox, opened from the menu in the same page, then holds the open
  // socket (its "Live" needs the open it was told of). A page load would count the dashboard's socket, closing,
  // beside the new page's.
  await expect.poll(() => open).toBe(1);
  await new ShellPage(page).openFromMenu('Chats');
  const chats = new ChatsPage(page);
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
  expect(mostOpen).toBe(1);
  await expect.poll(() => open).toBe(1);
});

test("a room's link opens with the socket the page opened while its code downloaded: one connect, live, the room there", async ({ page }) => {
  test.slow();
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  const chats = new ChatsPage(page);
  await new ShellPage(page).openFromMenu('Chats');
  await chats.openRoom('James Carter');
  const roomUrl = page.url();

  // A reload, as a notification's link opens it: the entry opens the socket from the saved session
  // (src/core/realtime/earlySocket.ts) and the console's first connect takes it rather than opening a second one.
  const sockets: string[] = [];
  page.on('websocket', (ws) => {
    if (ws.url().includes('/socket/websocket')) sockets.push(ws.url());
  });
  await page.reload();
  await chats.expectLive(60_000);
  await expect(page.getByTestId('message-text').first()).toBeVisible();
  await expect(page.getByTestId('room-header').getByText('James Carter')).toBeVisible();
  expect(sockets).toHaveLength(1);
  expect(page.url()).toBe(roomUrl);
});
