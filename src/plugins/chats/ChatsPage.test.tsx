// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { Route, Routes } from 'react-router-dom';
import { membership, testUser } from '../../core/account/testUsers';
import { accountApiRef, createPlugin, httpApiRef, overrideApi, realtimeApiRef } from '../../core';
import type { PermissionMap } from '../../../contract/permissions';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { phoneScreen } from '../../core/testing/phoneScreen';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import ChatsPage from './ChatsPage';
import { chatsPlugin } from './index';
import { badgeTitle } from './notifications';
import { createFakeChatServer, message, room } from './testing/fakeChatServer';
import { FakeSocket } from '../../core/testing/fakeSocket';

const THREE_ROOMS = [
  { room: room(1, { name: 'Alice Smith' }), messages: [message(1, 1, { text: 'Hello from Alice' })] },
  { room: room(2, { name: 'Bob Jones' }), messages: [message(2, 2, { text: 'Bob here' })] },
  { room: room(3, { name: 'Chloé Durand' }), messages: [message(3, 3, { text: 'Bonjour 👋' })] },
];

/** A channels page in the console, so the inbox may link to it. */
const channelsStub = createPlugin({ id: 'channels', featureFlag: 'channels', routes: [{ path: '/channels', name: 'channels', area: 'channels', component: () => <p>Channels page</p> }] });

function renderInbox(path = '/chats', options: { rooms?: typeof THREE_ROOMS; simulator?: boolean; signedIn?: boolean } = {}) {
  const server = createFakeChatServer({ rooms: options.rooms ?? THREE_ROOMS });
  const http = createFakeHttp((_method, requestPath) => {
    if (requestPath === '/api/sandbox/' && options.simulator !== false) return { channel_id: 1, simulator_url: 'http://localhost/sandbox/demo-key' };
    throw Object.assign(new Error('Not Found'), { status: 404 });
  });
  const sockets: FakeSocket[] = [];
  const realtime = { createSocket: () => { const s = new FakeSocket((t, e, p) => server.reply(t, e, p)); sockets.push(s); return s.asSocket(); } };
  const view = renderPluginPage(
    <VirtuosoMockContext.Provider value={{ viewportHeight: 800, itemHeight: 60 }}>
      <Routes>
        <Route path="/chats/:roomId?" element={<ChatsPage />} />
        <Route path="/channels" element={<p>Channels page</p>} />
      </Routes>
    </VirtuosoMockContext.Provider>,
    {
      adminContext: false,
      route: false,
      // Signed in before the page mounts, as a reload of a room's link is (else the test signs in after).
      ...(options.signedIn ? { user: testUser([membership(1, { can_view_chats: true, can_manage_chats: true })]), companyId: 1 } : {}),
      plugins: [chatsPlugin, channelsStub],
      features: ['chats', 'channels'],
      path,
      overrides: [overrideApi(realtimeApiRef, realtime), overrideApi(httpApiRef, http)],
    },
  );
  return { ...view, server, socket: () => sockets[sockets.length - 1] };
}

describe('ChatsPage', () => {
  beforeEach(() => localStorage.clear());

  it('lists rooms newest first, opens one, sends with Enter (Shift+Enter is a new line) and shows the reply replacing the optimistic message', async () => {
    const { console: c, server, socket } = renderInbox();
    // The account is set after the console exists: sign in and select the company.
    act(() => {
      c.get(accountApiRef).setUser(testUser([membership(1, { can_view_chats: true, can_manage_chats: true })]));
      c.get(accountApiRef).selectCompany(1);
    });
    const items = await screen.findAllByTestId('room-item');
    expect(items.map((i) => within(i).getByTestId('room-item-name').textContent)).toEqual(['Chloé Durand', 'Bob Jones', 'Alice Smith']);
    expect(screen.getByTestId('connection-state')).toHaveAttribute('data-state', 'live');
    // No room selected: a prompt to choose one, not the empty-data view (the list is not empty).
    expect(screen.getByTestId('select-conversation')).toHaveTextContent('Select a conversation');
    expect(screen.queryByTestId('empty-view')).not.toBeInTheDocument();

    // A customer writes to Alice: unread badge, and Alice moves to the top.
    const m = server.add(1, { origin: 'user', text: 'Are you there?' });
    act(() => socket().emit('page:1', 'new_message', { room_id: 1, message: m }));
    await waitFor(() => expect(within(screen.getAllByTestId('room-item')[0]).getByTestId('room-item-name')).toHaveTextContent('Alice Smith'));
    expect(within(screen.getAllByTestId('room-item')[0]).getByTestId('room-unread')).toHaveTextContent('1');

    fireEvent.click(screen.getAllByTestId('room-item')[0]);
    expect(await screen.findByTestId('room-name')).toHaveTextContent('Alice Smith');
    // Opening a room puts the cursor in the composer.
    await waitFor(() => expect(screen.getByRole('textbox', { name: /Type a message/ })).toHaveFocus());
    const texts = () => screen.queryAllByTestId('message-text').map((e) => e.textContent);
    await waitFor(() => expect(texts()).toContain('Are you there?'));
    await waitFor(() => expect(screen.queryByTestId('room-unread')).not.toBeInTheDocument());

    const box = screen.getByRole('textbox', { name: /Type a message/ });
    fireEvent.change(box, { target: { value: 'Line one' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(server.log.filter((l) => l.event === 'send_message')).toHaveLength(0);
    fireEvent.change(box, { target: { value: 'Yes! 😀' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box).toHaveValue('');
    await waitFor(() => expect(server.log.filter((l) => l.event === 'send_message')).toHaveLength(1));
    const row = () => screen.getAllByTestId('message-row').filter((e) => e.textContent?.includes('Yes! 😀'));
    await waitFor(() => expect(row()[0]).toHaveAttribute('data-status', 'sent'));
    expect(row()).toHaveLength(1);
    expect(texts().filter((x) => x === 'Yes! 😀')).toHaveLength(1);
  });

  describe('on a phone (under md)', () => {
    // MUI's breakpoints.down('md') asks for (max-width:899.95px): a 390-px screen matches it.
    let restore: () => void;
    beforeEach(() => {
      restore = phoneScreen();
    });
    afterEach(() => restore());

    it('a room open is shown alone: the list hidden beside it is not rendered, and is back, as it was, with the back button', async () => {
      const { console: c } = renderInbox('/chats/1');
      act(() => {
        c.get(accountApiRef).setUser(testUser([membership(1, { can_view_chats: true, can_manage_chats: true })]));
        c.get(accountApiRef).selectCompany(1);
      });
      expect(await screen.findByTestId('room-name')).toHaveTextContent('Alice Smith');
      await waitFor(() => expect(screen.queryAllByTestId('message-text').map((e) => e.textContent)).toContain('Hello from Alice'));
      expect(screen.queryByTestId('room-list')).not.toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'Chats' })).not.toBeInTheDocument();

      fireEvent.click(screen.getByRole('button', { name: 'Back to conversations' }));
      const items = await screen.findAllByTestId('room-item');
      expect(items.map((i) => within(i).getByTestId('room-item-name').textContent)).toEqual(['Chloé Durand', 'Bob Jones', 'Alice Smith']);
      expect(screen.queryByTestId('room-name')).not.toBeInTheDocument();
    });

    it("a link to a room the server refuses says so, with the way back to the list (not a prompt to pick from a list it hides)", async () => {
      renderInbox('/chats/99', { signedIn: true });
      expect(await screen.findByTestId('room-unavailable')).toHaveTextContent('This conversation is not available');
      expect(screen.queryByTestId('select-conversation')).not.toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: 'Back to conversations' }));
      expect(await screen.findAllByTestId('room-item')).toHaveLength(3);
      expect(screen.queryByTestId('room-unavailable')).not.toBeInTheDocument();
    });
  });

  it('keyboard: Alt+↓/Alt+↑ move between rooms, / and Ctrl+K focus the search, which filters the list', async () => {
    const r = renderInbox();
    act(() => {
      r.console.get(accountApiRef).setUser(testUser([membership(1, { can_view_chats: true, can_manage_chats: true })]));
      r.console.get(accountApiRef).selectCompany(1);
    });
    await screen.findAllByTestId('room-item');
    fireEvent.keyDown(window, { key: 'ArrowDown', altKey: true });
    expect(await screen.findByTestId('room-name')).toHaveTextContent('Chloé Durand');
    fireEvent.keyDown(window, { key: 'ArrowDown', altKey: true });
    await waitFor(() => expect(screen.getByTestId('room-name')).toHaveTextContent('Bob Jones'));
    fireEvent.keyDown(window, { key: 'ArrowUp', altKey: true });
    await waitFor(() => expect(screen.getByTestId('room-name')).toHaveTextContent('Chloé Durand'));

    const search = screen.getByLabelText('Search contacts');
    fireEvent.keyDown(document.body, { key: '/' });
    expect(search).toHaveFocus();
    (search as HTMLInputElement).blur();
    fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });
    expect(search).toHaveFocus();
    fireEvent.change(search, { target: { value: 'chlo' } });
    await waitFor(() => expect(screen.getAllByTestId('room-item')).toHaveLength(1));
  });

  const signIn = (c: ReturnType<typeof renderInbox>['console'], permissions: PermissionMap = {}) =>
    act(() => {
      c.get(accountApiRef).setUser(testUser([membership(1, permissions)]));
      c.get(accountApiRef).selectCompany(1);
    });

  it('a company without conversations: the empty-data view in the list once, and the next steps beside it', async () => {
    const r = renderInbox('/chats', { rooms: [] });
    signIn(r.console);
    const steps = await screen.findByTestId('no-conversations');
    expect(screen.getAllByTestId('empty-view')).toHaveLength(1);
    expect(screen.getByTestId('empty-view')).toHaveTextContent("Nothing Found.There's no data at the moment, please check back in later.");
    expect(steps).toHaveTextContent('No conversations yet');
    const simulator = await within(steps).findByRole('link', { name: 'Open the customer simulator' });
    expect(simulator).toHaveAttribute('href', 'http://localhost/sandbox/demo-key');
    expect(simulator).toHaveAttribute('target', '_blank');
    expect(r.console.get(httpApiRef)).toBeDefined();
    fireEvent.click(within(steps).getByRole('link', { name: 'Connect a channel' }));
    expect(await screen.findByText('Channels page')).toBeInTheDocument();
  });

  it('no link to the channels page for a user who may not view it; without the simulator either, who to ask', async () => {
    const r = renderInbox('/chats', { rooms: [], simulator: false });
    signIn(r.console, { can_view_channels: false });
    const steps = await screen.findByTestId('no-conversations');
    await waitFor(() => expect(steps).toHaveTextContent('Ask an administrator of your company to connect a channel.'));
    expect(within(steps).queryByRole('link')).not.toBeInTheDocument();
  });

  it('a search that matches nothing is not "no conversations": the list is empty, the pane asks to select one', async () => {
    const r = renderInbox();
    signIn(r.console);
    await screen.findAllByTestId('room-item');
    fireEvent.change(screen.getByLabelText('Search contacts'), { target: { value: 'nobody by that name' } });
    expect(await screen.findByTestId('empty-view')).toBeInTheDocument();
    expect(screen.getByTestId('select-conversation')).toBeInTheDocument();
    expect(screen.queryByTestId('no-conversations')).not.toBeInTheDocument();
  });

  it('title badge counts hidden-tab messages', () => {
    expect(badgeTitle('Console', 3)).toBe('(3) Console');
    expect(badgeTitle('(3) Console', 4)).toBe('(4) Console');
    expect(badgeTitle('(4) Console', 0)).toBe('Console');
  });
});
