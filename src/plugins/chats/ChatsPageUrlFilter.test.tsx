// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { Route, Routes, useLocation } from 'react-router-dom';
import { membership, testUser } from '../../core/account/testUsers';
import { accountApiRef, httpApiRef, overrideApi, realtimeApiRef } from '../../core';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import ChatsPage from './ChatsPage';
import { chatsPlugin } from './index';
import { createFakeChatServer, room } from './testing/fakeChatServer';
import { FakeSocket } from '../../core/testing/fakeSocket';

const ANN = { id: 1, name: 'ann@demo.test' };
/** Rooms 1–2 unassigned (one with an ordinary tag), 3–5 assigned to Ann (the paging under the filter: chatServiceUnassigned.test.ts). */
const ROOMS = Array.from({ length: 5 }, (_, i) => ({ room: room(i + 1, { tags: i === 0 ? [{ id: 7, name: 'vip' }] : i < 2 ? [] : [ANN] }) }));

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

function renderInbox(path: string) {
  const server = createFakeChatServer({ rooms: ROOMS });
  const http = createFakeHttp(() => {
    throw Object.assign(new Error('Not Found'), { status: 404 });
  });
  const realtime = { createSocket: () => new FakeSocket((t, e, p) => server.reply(t, e, p)).asSocket() };
  const view = renderPluginPage(
    <VirtuosoMockContext.Provider value={{ viewportHeight: 800, itemHeight: 60 }}>
      <Routes>
        <Route
          path="/chats/:roomId?"
          element={
            <>
              <ChatsPage />
              <Where />
            </>
          }
        />
      </Routes>
    </VirtuosoMockContext.Provider>,
    { adminContext: false, route: false, plugins: [chatsPlugin], features: ['chats'], path, overrides: [overrideApi(realtimeApiRef, realtime), overrideApi(httpApiRef, http)] },
  );
  act(() => {
    view.console.get(accountApiRef).setUser(testUser([membership(1, { can_view_chats: true, can_manage_chats: true })]));
    view.console.get(accountApiRef).selectCompany(1);
  });
  return view;
}

const names = () => screen.queryAllByTestId('room-item').map((i) => within(i).getByTestId('room-item-name').textContent);

describe('ChatsPage: /chats?filter=unassigned', () => {
  beforeEach(() => localStorage.clear());

  it('lists only unassigned conversations, looking past pages of assigned ones, and keeps the filter in the URL', async () => {
    renderInbox('/chats?filter=unassigned');
    await waitFor(() => expect(names()).toEqual(['Customer 2', 'Customer 1']));
    // The filter control shows it, on.
    expect(await screen.findByTestId('filter-unassigned')).toBeChecked(); // the filter panel is its own chunk
    expect(screen.getByRole('button', { name: 'Filters' })).toHaveAttribute('aria-pressed', 'true');

    // Opening a room keeps the filter.
    fireEvent.click(screen.getAllByTestId('room-item')[0]);
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/chats/2?filter=unassigned'));
    expect(names()).toEqual(['Customer 2', 'Customer 1']);

    // Turning it off in the inbox clears the URL's filter and lists every conversation.
    fireEvent.click(screen.getByTestId('filter-unassigned'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/chats\/2$/));
    await waitFor(() => expect(names()[0]).toBe('Customer 5'));
    expect(screen.getByTestId('filter-unassigned')).not.toBeChecked();

    // And on again: the URL has it back, the list is filtered again.
    fireEvent.click(screen.getByTestId('filter-unassigned'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/chats/2?filter=unassigned'));
    await waitFor(() => expect(names()).toEqual(['Customer 2', 'Customer 1']));
  });

  it('lists every conversation on plain /chats, the filter off', async () => {
    renderInbox('/chats');
    await waitFor(() => expect(names()[0]).toBe('Customer 5'));
    expect(names()).toContain('Customer 3');
    fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
    expect(screen.getByTestId('filter-unassigned')).not.toBeChecked();
  });
});
