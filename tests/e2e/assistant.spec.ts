import { expect, test } from '@playwright/test';
import { ChatsPage } from './pages/ChatsPage';
import { SimulatorPage } from './pages/SimulatorPage';
import { DEMO_AGENT, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';

/**
 * Issue #24 on the channels and in the inbox: the demo assistant is on the Demo Company's sandbox channel
 * (after the demo bot's greeting, free text goes to it). A customer asks about returns and gets the answer
 * with its source; asks something the knowledge does not hold and is handed over; the agent then uses
 * "Suggest a reply" on the customer's next question, edits the suggestion and sends it.
 */
test('the assistant answers a customer with its source, hands over on the unknown, and suggests the agent a reply', async ({ browser, request }) => {
  const link = await SimulatorPage.linkFor(request, DEMO_AGENT, DEMO_COMPANY);
  const agentContext = await browser.newContext();
  const customerContext = await browser.newContext();
  const agentPage = await agentContext.newPage();
  const simulator = new SimulatorPage(await customerContext.newPage());

  const stamp = Date.now().toString(36);
  const name = `Assistant Customer ${stamp}`;
  await simulator.open(link);
  await simulator.startAs(name, `assistant-${stamp}`);
  await simulator.send('Hello');
  await expect(simulator.message('How can I help you today?', 'bot')).toBeVisible();

  // A question the knowledge answers: the answer, with its source.
  await simulator.send('How do I return an item?');
  const answer = simulator.message('within 30 days of delivery', 'bot');
  await expect(answer).toBeVisible();
  await expect(answer).toContainText('— Returns and refunds');

  // One it does not: handed over to a person.
  await simulator.send('Do you organise guided mountain treks in winter?');
  await expect(simulator.message('Let me pass you to a person who can help.', 'bot')).toBeVisible();
  // The room is paused for the person: the next question gets no automatic answer.
  await simulator.send('And how much does express delivery cost?');

  await signInTo(agentPage, DEMO_AGENT, DEMO_COMPANY);
  const chats = new ChatsPage(agentPage);
  await chats.open();
  await chats.openRoom(name);
  // The assistant's messages are the bot's, marked AI, with their sources.
  const aiAnswer = chats.messages.filter({ hasText: 'within 30 days of delivery' });
  await expect(aiAnswer.getByTestId('ai-mark')).toHaveText('AI');
  await expect(aiAnswer.getByTestId('ai-sources')).toHaveText('Sources: Returns and refunds');
  await expect(chats.messages.filter({ hasText: 'Let me pass you to a person' }).getByTestId('ai-handover')).toHaveText('Handed over to a person');
  await expect(chats.messages.last()).toContainText('And how much does express delivery cost?');

  // Suggest a reply: it fills the composer (nothing sent), the agent edits it and sends it.
  await agentPage.getByRole('button', { name: 'Suggest a reply' }).click();
  await expect(chats.composer).toHaveValue(/express delivery/);
  await expect(agentPage.getByTestId('suggestion-notice')).toHaveText(/From: Shipping/);
  await expect(simulator.message('9.90 euros', 'agent')).toHaveCount(0);
  const suggestion = await chats.composer.inputValue();
  const edited = `Hello ${stamp}! ${suggestion}`;
  await chats.composer.fill(edited);
  await chats.composer.press('Enter');
  await expect(chats.messages.filter({ hasText: `Hello ${stamp}!` })).toHaveCount(1);
  await expect(simulator.message(`Hello ${stamp}!`, 'agent')).toBeVisible();

  await agentContext.close();
  await customerContext.close();
});
