import { expect, test } from '@playwright/test';
import { ChatsPage } from './pages/ChatsPage';
import { DEMO_AGENT, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';

/**
 * A page's code that cannot be fetched (the network dropped, or a deploy since the tab opened removed the file) used
 * to show react-admin's error page with the browser's "Failed to fetch dynamically imported module". It now shows a
 * page of its own, in the frame, whose button loads the console again; for an open room, in the room's pane only.
 */
for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`an open room whose code cannot be fetched offers to load the console again (${viewport.width} px)`, async ({ page }) => {
    await page.setViewportSize(viewport);
    let refuse = true;
    await page.route(/\/assets\/RoomView-[^/]+\.js$/, (route) => (refuse ? route.abort('internetdisconnected') : route.continue()));
    await signInTo(page, DEMO_AGENT, DEMO_COMPANY);
    const chats = new ChatsPage(page);
    await chats.open();
    await expect(chats.room('James Carter')).toBeVisible();
    await chats.room('James Carter').click();

    const failed = page.getByTestId('chunk-load-failed');
    await expect(failed.getByRole('heading', { name: 'This page could not be loaded' })).toBeVisible();
    await expect(page.getByText(/dynamically imported module/)).toHaveCount(0);
    await expect(page.getByTestId('notification-bell')).toBeVisible(); // the frame stays

    refuse = false; // the network is back
    if (viewport.width >= 1440) {
      // The failure is the room pane's alone: the list beside it stays, and another room imports the code again.
      await chats.room('Aiko Tanaka').click();
      await expect(page.getByTestId('room-name')).toHaveText('Aiko Tanaka');
    } else {
      // The room takes the whole screen on a phone: the button loads the console again, on the room.
      await failed.getByRole('button', { name: 'Reload' }).click();
      await expect(page.getByTestId('room-name')).toHaveText('James Carter');
    }
    await expect(failed).toHaveCount(0);
  });
}
