// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { Route, Routes } from 'react-router-dom';
import { membership, testUser } from '../../core/account/testUsers';
import { accountApiRef, overrideApi, realtimeApiRef } from '../../core';
import { renderWithConsole } from '../../core/testing/renderWithConsole';
import ChatsPage from './ChatsPage';
import { chatsPlugin } from './index';
import { badgeTitle } from './notifications';
import { createFakeChatServer, message, room } from './testing/fakeChatServer';
import { FakeSocket } from './testing/fakeSocket';

function renderInbox(path = '/chats') {
  const server = createFakeChatServer({
    rooms: [
      { room: room(1, { name: 'Alice Smith' }), messages: [message(1, 1, { text: 'Hello from Alice' })] },
      { room: room(2, { name: 'Bob Jones' }), messages: [message(2, 2, { text: 'Bob here' })] },
      { room: room(3, { name: 'Chloé Durand' }), messages: [message(3, 3, { text: 'Bonjour 👋' })] },
    ],
  });
  const sockets: FakeSocket[] = [];
  const realtime = { createSocket: () => { const s = new FakeSocket((t, e, p) => server.reply(t, e, p)); sockets.push(s); return s.asSocket(); } };
  const view = renderWithConsole(
    <VirtuosoMockContext.Provider value={{ viewportHeight: 800, itemHeight: 60 }}>
      <Routes>
        <Route path="/chats/:roomId?" element={<ChatsPage />} />
      </Routes>
    </VirtuosoMockContext.Provider>,
    { plugins: [chatsPlugin], features: ['chats'], path, overrides: [overrideApi(realtimeApiRef, realtime)] },
  );
  return { ...view, server, socket: () => sockets[sockets.length - 1] };
}

describe('ChatsPage', () => {
  beforeEach(() => localStorage.clear());

  it('lists rooms newest first, opens one, sends with Enter (Shift+Enter is a new line) and shows the reply replacing the optimistic message', async () => {
    const { console: c, server, socket } = renderInbox();
    // The account is set after the console exists: sign in and select the company.
    act(() => {
      c.get(accountApiRef).setUser(testUser([membership(1)]));
      c.get(accountApiRef).selectCompany(1);
    });
    const items = await screen.findAllByTestId('room-item');
    expect(items.map((i) => within(i).getByTestId('room-item-name').textContent)).toEqual(['Chloé Durand', 'Bob Jones', 'Alice Smith']);
    expect(screen.getByTestId('connection-state')).toHaveAttribute('data-state', 'live');
    // No room selected: the spec's empty view.
    expect(screen.getByTestId('empty-view')).toBeInTheDocument();

    // A customer writes to Alice: unread badge, and Alice moves to the top.
    const m = server.add(1, { origin: 'user', text: 'Are you there?' });
    act(() => socket().emit('page:1', 'new_message', { room_id: 1, message: m }));
    await waitFor(() => expect(within(screen.getAllByTestId('room-item')[0]).getByTestId('room-item-name')).toHaveTextContent('Alice Smith'));
    expect(within(screen.getAllByTestId('room-item')[0]).getByTestId('room-unread')).toHaveTextContent('1');

    fireEvent.click(screen.getAllByTestId('room-item')[0]);
    expect(await screen.findByTestId('room-name')).toHaveTextContent('Alice Smith');
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

  it('keyboard: Alt+↓/Alt+↑ move between rooms, / and Ctrl+K focus the search, which filters the list', async () => {
    const r = renderInbox();
    act(() => {
      r.console.get(accountApiRef).setUser(testUser([membership(1)]));
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

  it('title badge counts hidden-tab messages', () => {
    expect(badgeTitle('Console', 3)).toBe('(3) Console');
    expect(badgeTitle('(3) Console', 4)).toBe('(4) Console');
    expect(badgeTitle('(4) Console', 0)).toBe('Console');
  });
});
