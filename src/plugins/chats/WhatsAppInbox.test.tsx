// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { Route, Routes } from 'react-router-dom';
import { WHATSAPP_WINDOW_MS, type MessageTemplate } from '../../../contract/channels';
import type { Message } from '../../../contract/chats';
import { membership, testUser } from '../../core/account/testUsers';
import { accountApiRef, alertApiRef, httpApiRef, overrideApi, realtimeApiRef } from '../../core';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import ChatsPage from './ChatsPage';
import { chatsPlugin } from './index';
import { createFakeChatServer, message, room, WINDOW_CLOSED_MESSAGE } from './testing/fakeChatServer';
import { FakeSocket } from '../../core/testing/fakeSocket';

const TEMPLATES: MessageTemplate[] = [
  { id: 't1', name: 'order_update', language: 'en_US', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.' }] },
  { id: 't2', name: 'promo_spring', language: 'en_US', status: 'PENDING', category: 'MARKETING', components: [{ type: 'BODY', text: 'Spring sale!' }] },
  { id: 't3', name: 'bienvenue', language: 'fr', status: 'APPROVED', category: 'MARKETING', components: [{ type: 'BODY', text: 'Bienvenue !' }] },
];

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** The templates endpoint answers what `templates.next` says: a list, an error, or a promise. */
function renderInbox(customerWroteAgo: number, path = '/chats/2') {
  const server = createFakeChatServer({
    pages: [
      { id: 1, name: 'Sandbox', platform: 'sandbox', external_id: 'sb-1' },
      { id: 2, name: 'Support line', platform: 'whatsapp', external_id: '1065' },
    ],
    rooms: [
      { room: room(1, { name: 'Sandy Tester', page_id: 1 }), messages: [message(1, 1, { text: 'sandbox hello' })] },
      { room: room(2, { name: 'Wanda Ortiz', page_id: 2, platform: 'whatsapp' }), messages: [message(2, 2, { origin: 'user', text: 'Where is my order?', created_at: ago(customerWroteAgo) })] },
    ],
  });
  const templates: { next: () => unknown } = { next: () => ({ results: TEMPLATES }) };
  const http = createFakeHttp((_method, p) => {
    if (p === '/api/channels/2/templates/') return templates.next();
    if (p === '/api/chats/presigned_url/') throw new Error('404');
    return { results: [] };
  });
  const sockets: FakeSocket[] = [];
  const realtime = { createSocket: () => { const s = new FakeSocket((t, e, p) => server.reply(t, e, p)); sockets.push(s); return s.asSocket(); } };
  const view = renderPluginPage(
    <VirtuosoMockContext.Provider value={{ viewportHeight: 800, itemHeight: 60 }}>
      <Routes>
        <Route path="/chats/:roomId?" element={<ChatsPage />} />
      </Routes>
    </VirtuosoMockContext.Provider>,
    { adminContext: false, route: false, plugins: [chatsPlugin], features: ['chats'], path, overrides: [overrideApi(realtimeApiRef, realtime), overrideApi(httpApiRef, http)] },
  );
  act(() => {
    view.console.get(accountApiRef).setUser(testUser([membership(1, { can_view_chats: true, can_manage_chats: true })]));
    view.console.get(accountApiRef).selectCompany(1);
  });
  return { ...view, server, http, templates, socket: () => sockets[sockets.length - 1] };
}

const sends = (server: ReturnType<typeof renderInbox>['server']) => server.log.filter((l) => l.event === 'send_message');

describe('WhatsApp in the inbox', () => {
  beforeEach(() => localStorage.clear());

  it('each room shows its platform icon with an accessible name', async () => {
    renderInbox(60_000, '/chats');
    const items = await screen.findAllByTestId('room-item');
    const byName = (name: string) => items.find((i) => within(i).getByTestId('room-item-name').textContent === name)!;
    expect(within(byName('Wanda Ortiz')).getByRole('img', { name: 'WhatsApp' })).toBeInTheDocument();
    expect(within(byName('Sandy Tester')).getByRole('img', { name: 'Sandbox' })).toBeInTheDocument();
  });

  it('window closed: a notice instead of the input; "Send template" lists approved templates, asks every parameter, previews and sends like a message (retry on failure)', async () => {
    const { server } = renderInbox(2 * WHATSAPP_WINDOW_MS);
    const notice = await screen.findByTestId('window-closed');
    expect(notice).toHaveTextContent('The 24-hour customer service window is closed. Send an approved template to reopen the conversation.');
    expect(screen.queryByRole('textbox', { name: /Type a message/ })).not.toBeInTheDocument();

    fireEvent.click(within(notice).getByRole('button', { name: 'Send template' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send a template' });
    const options = await within(dialog).findAllByTestId('template-option');
    // Approved only, with name, language, category and body.
    expect(options.map((o) => o.textContent)).toEqual([expect.stringContaining('order_update'), expect.stringContaining('bienvenue')]);
    expect(options[0]).toHaveTextContent('en_US');
    expect(options[0]).toHaveTextContent('Utility');
    expect(options[0]).toHaveTextContent('Hi {{1}}, your order {{2}} has shipped.');
    expect(dialog).not.toHaveTextContent('promo_spring');

    fireEvent.click(options[0]);
    const send = within(dialog).getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    const p1 = within(dialog).getByRole('textbox', { name: 'Parameter {{1}}' });
    const p2 = within(dialog).getByRole('textbox', { name: 'Parameter {{2}}' });
    expect(p1).toBeRequired();
    fireEvent.change(p1, { target: { value: 'Wanda' } });
    expect(within(dialog).getByTestId('template-preview')).toHaveTextContent('Hi Wanda, your order {{2}} has shipped.');
    fireEvent.blur(p2);
    expect(within(dialog).getByText('Required')).toBeInTheDocument();
    expect(send).toBeDisabled();
    fireEvent.change(p2, { target: { value: '#1042' } });
    expect(within(dialog).getByTestId('template-preview')).toHaveTextContent('Hi Wanda, your order #1042 has shipped.');

    server.failNext.add('send_message');
    fireEvent.click(send);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const row = () => screen.getAllByTestId('message-row').find((r) => r.textContent?.includes('Hi Wanda, your order #1042 has shipped.'))!;
    await waitFor(() => expect(row()).toHaveAttribute('data-status', 'failed'));
    expect(within(row()).getByTestId('message-caption')).toHaveTextContent('Template · order_update');
    expect(within(row()).getByTestId('message-failure')).toHaveTextContent('Not sent · nope');
    fireEvent.click(within(row()).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(row()).toHaveAttribute('data-status', 'sent'));
    expect(within(row()).getByRole('img', { name: 'Sent' })).toBeInTheDocument();
    expect(screen.getAllByTestId('message-row').filter((r) => r.textContent?.includes('#1042'))).toHaveLength(1);

    const pushes = sends(server);
    expect(pushes).toHaveLength(2);
    expect(pushes[0].payload.message).toEqual(pushes[1].payload.message);
    expect(pushes[1].payload.message).toMatchObject({ type: 'template', text: 'Hi Wanda, your order #1042 has shipped.', template: { name: 'order_update', language: 'en_US', parameters: ['Wanda', '#1042'] } });
    expect(pushes[1].payload.message.client_id).toEqual(expect.any(String));
  });

  it('the template dialog: loading, error with retry, and no approved template', async () => {
    const { templates } = renderInbox(60_000);
    let fail!: (e: Error) => void;
    templates.next = () => new Promise((_, reject) => (fail = reject));
    // The window is open: a countdown and a Template button.
    expect(await screen.findByTestId('window-countdown')).toHaveTextContent(/Window closes in 23 h 59 min|Window closes in 24 h/);
    fireEvent.click(screen.getByRole('button', { name: 'Template' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send a template' });
    expect(within(dialog).getByRole('progressbar', { name: 'Loading templates' })).toBeInTheDocument();
    await act(async () => fail(new Error('502')));
    expect(await within(dialog).findByText('Could not load the templates.')).toBeInTheDocument();

    templates.next = () => ({ results: TEMPLATES.filter((x) => x.status !== 'APPROVED') });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Retry' }));
    expect(await within(dialog).findByTestId('templates-empty')).toHaveTextContent('No approved templates for this number yet.');
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeDisabled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('a send refused because the window just closed shows the server message and keeps the typed text', async () => {
    const { server } = renderInbox(60_000);
    const box = await screen.findByRole('textbox', { name: /Type a message/ });
    // The customer's last message is older on the server than the console knows (the window closed).
    server.rooms.get(2)!.last_inbound_at = ago(WHATSAPP_WINDOW_MS + 1000);
    fireEvent.change(box, { target: { value: 'Your parcel left 🚚' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByTestId('composer-refusal')).toHaveTextContent(WINDOW_CLOSED_MESSAGE);
    expect(screen.getByRole('textbox', { name: /Type a message/ })).toHaveValue('Your parcel left 🚚');
    expect(screen.queryAllByTestId('message-text').map((e) => e.textContent)).not.toContain('Your parcel left 🚚');
    expect(sends(server)).toHaveLength(1);
  });

  it('a customer message reopens a closed window', async () => {
    const { server, socket } = renderInbox(2 * WHATSAPP_WINDOW_MS);
    await screen.findByTestId('window-closed');
    // The room's history is in (its channel joined): a message pushed on the room's topic now reaches it.
    // In the thread (the room list's preview may show the same text by then).
    await screen.findByText('Where is my order?', { selector: '[data-testid="message-text"]' });
    const m: Message = server.add(2, { origin: 'user', type: 'button_reply', text: 'Yes', data: { id: 'y', title: 'Yes' } });
    act(() => socket().emit('room:2', 'new_message', m));
    expect(await screen.findByTestId('window-countdown')).toHaveTextContent(/Window closes in (24 h|23 h 59 min)/);
    expect(screen.getByRole('textbox', { name: /Type a message/ })).toBeEnabled();
    expect(await screen.findByText('Replied with a button')).toBeInTheDocument();
  });

  it('starting a WhatsApp conversation with a first message outside the window shows the server\'s reason', async () => {
    const { console: c } = renderInbox(60_000, '/chats');
    await screen.findAllByTestId('room-item');
    fireEvent.click(screen.getByRole('button', { name: 'New conversation' }));
    const dialog = await screen.findByRole('dialog', { name: 'New conversation' });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Channel' }));
    fireEvent.click(await screen.findByRole('option', { name: /Support line/ }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Customer id/ }), { target: { value: '+15550009' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Customer name/ }), { target: { value: 'Nadia' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'First message' }), { target: { value: 'Hello!' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start conversation' }));
    await waitFor(() => expect(c.get(alertApiRef).getState()).toMatchObject({ active: true, type: 'error', text: `Could not start the conversation (${WINDOW_CLOSED_MESSAGE})` }));
  });
});
