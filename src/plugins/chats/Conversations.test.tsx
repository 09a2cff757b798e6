// @vitest-environment jsdom
/** Issue #22 in the inbox: the Mine / Unassigned / All tabs and the status filter with their counts, resolving, assigning. */
import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { Route, Routes } from 'react-router-dom';
import type { Room } from '../../../contract/chats';
import { ROOM_STATUSES, type RoomCounts, type RoomUpdateBody } from '../../../contract/conversations';
import { membership, testUser } from '../../core/account/testUsers';
import { accountApiRef, httpApiRef, i18nApiRef, overrideApi, realtimeApiRef } from '../../core';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { FakeSocket } from '../../core/testing/fakeSocket';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import ChatsPage from './ChatsPage';
import { chatsPlugin } from './index';
import { createFakeChatServer, room } from './testing/fakeChatServer';

/** The signed-in user of testUser(): Ada, id 7. */
const ME = { id: 7, first_name: 'Ada', email: 'ada@example.com' };
const SAM = { id: 8, first_name: 'Sam', email: 'sam@example.com' };

function renderInbox(path = '/chats', canManageChats = true) {
  const server = createFakeChatServer({
    rooms: [
      { room: room(1, { name: 'Olga Open', last_message_at: '2026-01-01T10:00:00Z' }) },
      { room: room(2, { name: 'Mina Mine', last_message_at: '2026-01-01T11:00:00Z', assignee: ME, tags: [{ id: 1, name: ME.email }] }) },
      { room: room(3, { name: 'Rita Resolved', last_message_at: '2026-01-01T12:00:00Z', status: 'resolved' }) },
      { room: room(4, { name: 'Pia Pending', last_message_at: '2026-01-01T09:00:00Z', status: 'pending', assignee: SAM, tags: [{ id: 2, name: SAM.email }] }) },
    ],
  });
  const view = (r: Room & { all?: unknown }) => {
    const { all: _all, ...rest } = r;
    return { ...rest, messages: [] };
  };
  const counts = (): RoomCounts => {
    const result = Object.fromEntries(ROOM_STATUSES.map((s) => [s, { mine: 0, unassigned: 0, all: 0 }])) as RoomCounts;
    for (const r of server.rooms.values()) {
      const c = result[r.status];
      c.all += 1;
      if (!r.assignee) c.unassigned += 1;
      if (r.assignee?.id === ME.id) c.mine += 1;
    }
    return result;
  };
  const http = createFakeHttp((method, path, options) => {
    if (path === '/api/rooms/counts/') return counts();
    if (path === '/api/chats/members/') {
      return {
        results: [ME, SAM].map((m) => ({ id: m.id + 100, user_id: m.id, first_name: m.first_name, last_name: '', email: m.email, profile_avatar_url: null })),
      };
    }
    const patch = /^\/api\/rooms\/(\d+)\/$/.exec(path);
    if (method === 'PATCH' && patch) {
      const r = server.rooms.get(Number(patch[1]))!;
      const body = options.body as RoomUpdateBody;
      if (body.status) r.status = body.status;
      r.snoozed_until = body.status === 'snoozed' ? (body.snoozed_until ?? null) : null;
      if (body.assignee_id !== undefined) r.assignee = [ME, SAM].find((m) => m.id === body.assignee_id) ?? null;
      return view(r);
    }
    if (path === '/api/chats/presigned_url/') throw new Error('404');
    return { results: [] };
  });
  const sockets: FakeSocket[] = [];
  const realtime = {
    createSocket: () => {
      const s = new FakeSocket((t, e, p) => server.reply(t, e, p));
      sockets.push(s);
      return s.asSocket();
    },
  };
  const rendered = renderPluginPage(
    <VirtuosoMockContext.Provider value={{ viewportHeight: 800, itemHeight: 60 }}>
      <Routes>
        <Route path="/chats/:roomId?" element={<ChatsPage />} />
      </Routes>
    </VirtuosoMockContext.Provider>,
    { adminContext: false, route: false, plugins: [chatsPlugin], features: ['chats'], path, overrides: [overrideApi(realtimeApiRef, realtime), overrideApi(httpApiRef, http)] },
  );
  act(() => {
    rendered.console.get(accountApiRef).setUser(testUser([membership(1, { can_view_chats: true, can_manage_chats: canManageChats })]));
    rendered.console.get(accountApiRef).selectCompany(1);
  });
  return { ...rendered, server, http, socket: () => sockets[sockets.length - 1], view };
}

const names = () => screen.queryAllByTestId('room-item').map((i) => within(i).getByTestId('room-item-name').textContent);
const tabText = (tab: string) => screen.getByTestId(`room-tab-${tab}`).textContent;
const patches = (http: ReturnType<typeof renderInbox>['http']) => http.calls.filter((c) => c.method === 'PATCH').map((c) => ({ path: c.path, body: c.options.body }));

describe('ChatsPage: status, tabs and assignment (issue #22)', () => {
  beforeEach(() => localStorage.clear());

  it('opens on the open conversations, with the counts of every tab and status', async () => {
    renderInbox();
    await waitFor(() => expect(names()).toEqual(['Mina Mine', 'Olga Open']));
    await waitFor(() => expect(tabText('all')).toBe('All (2)'));
    expect(tabText('mine')).toBe('Mine (1)');
    expect(tabText('unassigned')).toBe('Unassigned (1)');

    fireEvent.click(screen.getByTestId('room-tab-mine'));
    await waitFor(() => expect(names()).toEqual(['Mina Mine']));

    fireEvent.click(screen.getByTestId('room-tab-all'));
    const filter = screen.getByRole('combobox', { name: 'Status' });
    expect(within(filter).getAllByRole('option').map((o) => o.textContent)).toEqual(['Open · 2', 'Pending · 1', 'Snoozed · 0', 'Resolved · 1', 'All statuses · 4']);
    fireEvent.change(filter, { target: { value: 'resolved' } });
    await waitFor(() => expect(names()).toEqual(['Rita Resolved']));
    expect(tabText('all')).toBe('All (1)');
  });

  it('resolving with the button takes the room out of the open view at once, and the counts follow', async () => {
    const { http } = renderInbox('/chats/1');
    await waitFor(() => expect(names()).toEqual(['Mina Mine', 'Olga Open']));
    fireEvent.click(await screen.findByTestId('resolve-room'));
    await waitFor(() => expect(names()).toEqual(['Mina Mine']));
    expect(patches(http)).toEqual([{ path: '/api/rooms/1/', body: { status: 'resolved' } }]);
    await waitFor(() => expect(tabText('all')).toBe('All (1)'));
    // The header now offers to reopen it.
    expect(await screen.findByTestId('reopen-room')).toBeInTheDocument();
    expect(screen.getByTestId('status-chip')).toHaveTextContent('Resolved');
  });

  it('one key (E, outside a text field) resolves the open room', async () => {
    const { http } = renderInbox('/chats/2');
    await screen.findByTestId('resolve-room');
    fireEvent.keyDown(window, { key: 'e' });
    await waitFor(() => expect(patches(http)).toEqual([{ path: '/api/rooms/2/', body: { status: 'resolved' } }]));
    await waitFor(() => expect(names()).toEqual(['Olga Open']));
  });

  it('a room resolved by someone else (room_info on the page) leaves the view for everyone watching', async () => {
    const { server, socket, view } = renderInbox();
    await waitFor(() => expect(names()).toEqual(['Mina Mine', 'Olga Open']));
    const r = server.rooms.get(1)!;
    r.status = 'resolved';
    act(() => socket().emit('page:1', 'room_info', { room: view(r) }));
    await waitFor(() => expect(names()).toEqual(['Mina Mine']));
  });

  it('assigns to me from the picker: the room enters Mine; search finds a member by e-mail; unassign', async () => {
    const { http } = renderInbox('/chats/1');
    await screen.findByTestId('resolve-room');
    fireEvent.click(screen.getByTestId('assignee-button'));
    fireEvent.click(await screen.findByTestId('assign-to-me'));
    await waitFor(() => expect(patches(http)).toEqual([{ path: '/api/rooms/1/', body: { assignee_id: ME.id } }]));
    await waitFor(() => expect(screen.getByTestId('assignee-name')).toHaveTextContent('Ada'));
    fireEvent.click(screen.getByTestId('room-tab-mine'));
    await waitFor(() => expect(names()).toEqual(['Mina Mine', 'Olga Open']));

    fireEvent.click(screen.getByTestId('assignee-button'));
    fireEvent.change(await screen.findByTestId('assignee-search'), { target: { value: 'sam@' } });
    const options = await screen.findAllByTestId('assignee-option');
    expect(options).toHaveLength(1);
    expect(options[0]).toHaveTextContent('sam@example.com');
    fireEvent.click(options[0]);
    await waitFor(() => expect(patches(http).at(-1)).toEqual({ path: '/api/rooms/1/', body: { assignee_id: SAM.id } }));
    // No longer mine: it leaves the Mine tab at once.
    await waitFor(() => expect(names()).toEqual(['Mina Mine']));

    fireEvent.click(screen.getByTestId('assignee-button'));
    fireEvent.click(await screen.findByTestId('unassign'));
    await waitFor(() => expect(patches(http).at(-1)).toEqual({ path: '/api/rooms/1/', body: { assignee_id: null } }));
  });

  it('snoozes with a preset from the overflow menu', async () => {
    const { http } = renderInbox('/chats/1');
    fireEvent.click(await screen.findByTestId('room-more'));
    fireEvent.click(await screen.findByTestId('snooze-hour'));
    await waitFor(() => expect(patches(http)).toHaveLength(1));
    const body = patches(http)[0].body as RoomUpdateBody;
    expect(body.status).toBe('snoozed');
    expect(Date.parse(body.snoozed_until!) - Date.now()).toBeGreaterThan(59 * 60_000);
    await waitFor(() => expect(names()).toEqual(['Mina Mine']));
  });

  it('speaks French', async () => {
    const { console: app } = renderInbox('/chats/1');
    await screen.findByTestId('resolve-room');
    await act(() => app.get(i18nApiRef).i18n.changeLanguage('fr'));
    await waitFor(() => expect(screen.getByTestId('room-tab-mine')).toHaveTextContent('Les miennes (1)'));
    expect(screen.getByTestId('resolve-room')).toHaveTextContent('Résoudre');
  });

  it('without "manage chats" the room is read-only: the thread, one line saying who can act, no composer nor controls, and E does nothing', async () => {
    const { http } = renderInbox('/chats/1', false);
    expect(await screen.findByTestId('read-only-inbox')).toHaveTextContent('Only members whose role may manage chats can reply');
    expect(screen.getByTestId('room-header')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
    expect(document.querySelector('textarea')).toBeNull();
    for (const id of ['resolve-room', 'room-more', 'assignee-button']) expect(screen.queryByTestId(id)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Block' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New chat' })).not.toBeInTheDocument();
    fireEvent.keyDown(window, { key: 'e' });
    expect(patches(http)).toEqual([]);
  });

  it('a permission granted while the inbox is open brings the composer and the controls back without a reload', async () => {
    const { console: app } = renderInbox('/chats/1', false);
    await screen.findByTestId('read-only-inbox');
    act(() => app.get(accountApiRef).setUser(testUser([membership(1, { can_view_chats: true, can_manage_chats: true })])));
    expect(await screen.findByTestId('resolve-room')).toBeInTheDocument();
    expect(screen.queryByTestId('read-only-inbox')).not.toBeInTheDocument();
  });
});
