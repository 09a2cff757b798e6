// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { createAccountStore } from '../../../core/account/accountStore';
import { membership, testUser } from '../../../core/account/testUsers';
import { createAlertApi } from '../../../core/alert/alertApi';
import type { AccountStore } from '../../../core/apis';
import { CHAT_PAGE_SIZE } from '../../../../contract/chats';
import { createFakeChatServer, room, type FakeChatServer } from '../testing/fakeChatServer';
import { FakeSocket, flush } from '../../../core/testing/fakeSocket';
import { createChatService, MAX_FILL_PAGES } from './chatService';

const ANN = { id: 1, name: 'ann@demo.test' };

/**
 * The server filters by assignee since issue #22 (fetch_rooms `assignee: 'none'`); these tests play an
 * older server that ignores it, where the client fills the list from further pages itself.
 */
function setup(server: FakeChatServer) {
  const account: AccountStore = createAccountStore();
  account.setUser(testUser([membership(1)]));
  account.selectCompany(1);
  const olderServer = (event: string, payload: any) => (event === 'fetch_rooms' && payload ? { ...payload, assignee: undefined } : payload);
  return createChatService({
    realtime: { createSocket: () => new FakeSocket((topic, event, payload) => server.reply(topic, event, olderServer(event, payload))).asSocket() },
    account,
    alert: createAlertApi(),
  });
}

const fetchedPages = (server: FakeChatServer) => server.log.filter((l) => l.event === 'fetch_rooms').map((l) => l.payload.page as number);

describe('chat service: the unassigned filter', () => {
  beforeEach(() => localStorage.clear());

  it('shows only rooms without an agent tag, asking for further pages while a page brings none', async () => {
    // Newest first: rooms 70…4 assigned to Ann (more than two pages), 3…1 unassigned.
    const rooms = Array.from({ length: 70 }, (_, i) => ({ room: room(i + 1, { tags: i < 3 ? [] : [ANN] }) }));
    const server = createFakeChatServer({ rooms });
    const service = setup(server);
    service.start();
    service.setFilter({ unassigned: true });
    await expect.poll(async () => (await flush(5), service.getState().visibleRoomIds)).toEqual([3, 2, 1]);
    expect(Math.max(...fetchedPages(server))).toBe(3);
    expect(service.getState().loadingRooms).toBe(false);
    expect(service.getState().hasMoreRooms).toBe(false);

    // Turned off, the filter lists every room again.
    service.setFilter({ unassigned: false });
    expect(service.getState().visibleRoomIds.slice(0, 2)).toEqual([70, 69]);
  });

  it('stops looking after MAX_FILL_PAGES pages in a row', async () => {
    const total = (MAX_FILL_PAGES + 3) * CHAT_PAGE_SIZE;
    const server = createFakeChatServer({ rooms: Array.from({ length: total }, (_, i) => ({ room: room(i + 1, { tags: [ANN] }) })) });
    const service = setup(server);
    service.start();
    service.setFilter({ unassigned: true });
    await expect.poll(async () => (await flush(5), Math.max(0, ...fetchedPages(server))), { timeout: 15_000 }).toBe(MAX_FILL_PAGES + 1);
    await expect.poll(async () => (await flush(5), service.getState().loadingRooms)).toBe(false);
    // Page 1, then MAX_FILL_PAGES more; never the rest.
    expect(new Set(fetchedPages(server))).toEqual(new Set(Array.from({ length: MAX_FILL_PAGES + 1 }, (_, i) => i + 1)));
    expect(service.getState().visibleRoomIds).toEqual([]);
    expect(service.getState().hasMoreRooms).toBe(true);
  });

  it('asks for nothing more without the filter', async () => {
    const server = createFakeChatServer({ rooms: Array.from({ length: 70 }, (_, i) => ({ room: room(i + 1, { tags: [ANN] }) })) });
    const service = setup(server);
    service.start();
    await expect.poll(async () => (await flush(5), service.getState().visibleRoomIds.length)).toBe(CHAT_PAGE_SIZE);
    expect(fetchedPages(server)).toEqual([1]);
  });
});
