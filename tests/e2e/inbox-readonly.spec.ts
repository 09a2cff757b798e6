import { expect, test } from '@playwright/test';
import { ChatsPage } from './pages/ChatsPage';
import { SimulatorPage } from './pages/SimulatorPage';
import { apiHeaders } from './support/apiSession';
import { DEMO_ADMIN, DEMO_AGENT, NORTHWIND } from './support/demo';
import { signInTo } from './support/session';

/**
 * Issue #22: an agent whose role may not manage chats reads the inbox without a composer or controls, one line
 * saying who can act; an admin's change on the Permissions rules reaches the agent's open inbox without a reload.
 * In Northwind Shop (its sandbox starts empty), so no other test's agent meets the changed role.
 */
test('an agent without "manage chats" reads the room read-only, and gets the composer back live when an admin grants it', async ({ browser, request }) => {
  const admin = await apiHeaders(request, DEMO_ADMIN, NORTHWIND);
  const setManageChats = (on: boolean) => request.patch('/api/permissions/agent/', { headers: admin, data: { permissions: { can_manage_chats: on } } });
  const stamp = Date.now().toString(36);
  const name = `Reader ${stamp}`;
  const simulator = new SimulatorPage(await (await browser.newContext()).newPage());
  await simulator.open(await SimulatorPage.linkFor(request, DEMO_ADMIN, NORTHWIND));
  await simulator.startAs(name, `reader-${stamp}`);
  await simulator.send(`Is my parcel on its way ${stamp}?`);

  const page = await (await browser.newContext()).newPage();
  const chats = new ChatsPage(page);
  try {
    expect((await setManageChats(false)).ok()).toBeTruthy();
    await signInTo(page, DEMO_AGENT, NORTHWIND);
    await chats.open();
    await chats.openRoom(name);
    await expect(page.getByTestId('read-only-inbox')).toContainText('Only members whose role may manage chats can reply');
    await expect(page.getByTestId('message-row').filter({ hasText: `Is my parcel on its way ${stamp}?` })).toBeVisible();
    await expect(page.getByTestId('composer')).toHaveCount(0);
    await expect(page.getByTestId('resolve-room')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'New chat' })).toHaveCount(0);

    // The admin grants it: the open inbox follows, no reload.
    expect((await setManageChats(true)).ok()).toBeTruthy();
    await expect(page.getByTestId('composer')).toBeVisible();
    await expect(page.getByTestId('read-only-inbox')).toHaveCount(0);
    await expect(page.getByTestId('resolve-room')).toBeVisible();
  } finally {
    await setManageChats(true);
  }
});
