import { expect, test } from '@playwright/test';
import { ChatsPage } from './pages/ChatsPage';
import { SimulatorPage } from './pages/SimulatorPage';
import { DEMO_ADMIN, NORTHWIND } from './support/demo';
import { signInTo } from './support/session';

/**
 * A bot answers with several messages at once (a flow's steps): the open conversation follows them to the
 * last. With a smooth scroll per message, the second arrived while the first's animation ran, the list was
 * "not at the bottom" at that moment and stopped following: the last replies stayed below, out of the page.
 */
test('a burst of messages in the open room: the list follows to the last one', async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const link = await SimulatorPage.linkFor(request, DEMO_ADMIN, NORTHWIND);
  const key = /\/sandbox\/([^/?]+)/.exec(link)![1];
  const stamp = Date.now().toString(36);
  const name = `Burst customer ${stamp}`;
  const customerId = `burst-${stamp}`;
  let n = 0;
  const write = async (text: string) => {
    n += 1;
    const res = await request.post(`/api/sandbox/${key}/conversations/${customerId}/messages/`, { data: { name, text, client_id: `${stamp}-${n}` } });
    expect(res.ok(), await res.text()).toBeTruthy();
  };

  await signInTo(page, DEMO_ADMIN, NORTHWIND);
  const chats = new ChatsPage(page);
  await chats.open();
  await write(`First words ${stamp}`);
  await chats.openRoom(name);
  await expect(chats.message(`First words ${stamp}`)).toBeVisible();

  // Eight tall messages at once (more than the list renders below its viewport), on a slow phone's CPU: the
  // smooth scrolls took longer than the gaps between the messages. In Northwind: the demo company's inbox is
  // the one the other specs' rooms fill, and its sandbox takes 60 messages a minute.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  const burst = Array.from({ length: 8 }, (_, i) => `Line one of ${i + 1}\nline two\nline three\nline four ${stamp}-${i + 1}`);
  await Promise.all(burst.map((text) => write(text)));
  for (let i = 1; i <= burst.length; i++) await expect(chats.messages.filter({ hasText: `line four ${stamp}-${i}` })).toBeVisible();
  // The thread's last row (whichever the server stored last) is on screen.
  await expect(chats.messages.last()).toBeInViewport();
});
