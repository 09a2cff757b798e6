import { describe, expect, it, vi } from 'vitest';
import { i18nApiRef, type ApiRef } from '../../core';
import { chatApiRef } from './api';
import { prefetchInbox } from './prefetch';
import { initialState } from './service/chatStore';
import type { ChatState } from './service/types';

/** The parts of the chat service the prefetch uses, over a state the test changes. */
function fakeService() {
  let state: ChatState = initialState();
  const listeners = new Set<() => void>();
  const service = {
    start: vi.fn(),
    selectRoom: vi.fn(),
    getState: () => state,
    subscribe: (listener: () => void) => (listeners.add(listener), () => listeners.delete(listener)),
  };
  const change = (patch: Partial<ChatState>) => {
    state = { ...state, ...patch };
    listeners.forEach((l) => l());
  };
  const i18n = { i18n: { language: 'en' } };
  const get = <T,>(ref: ApiRef<T>): T => {
    if (ref.id === i18nApiRef.id) return i18n as unknown as T;
    if (ref.id !== chatApiRef.id) throw new Error(`unexpected ${ref.id}`);
    return service as unknown as T;
  };
  return { service, change, get, listeners };
}

const thread = (loaded: boolean): ChatState['threads'][number] => ({ messages: [], hasMore: false, loadingOlder: false, loaded });

describe("the inbox's prefetch", () => {
  it("starts the inbox, selects a room's link's room and resolves once its thread has come", async () => {
    const { service, change, get, listeners } = fakeService();
    let done = false;
    const prefetched = prefetchInbox({ get, params: { roomId: '12' }, signal: new AbortController().signal }).then(() => (done = true));
    expect(service.start).toHaveBeenCalled();
    expect(service.selectRoom).toHaveBeenCalledWith(12);
    change({ roomsLoaded: true, threads: { 12: thread(false) } });
    await Promise.resolve();
    expect(done).toBe(false);
    change({ threads: { 12: thread(true) } });
    await prefetched;
    expect(listeners.size).toBe(0);
  });

  it("resolves when the server refuses the link's room (the page says it is not available)", async () => {
    const { change, get, listeners } = fakeService();
    const prefetched = prefetchInbox({ get, params: { roomId: '404' }, signal: new AbortController().signal });
    change({ roomsLoaded: true, unavailableRooms: { 7: true } });
    await Promise.resolve();
    expect(listeners.size).toBe(1);
    change({ unavailableRooms: { 7: true, 404: true } });
    await prefetched;
    expect(listeners.size).toBe(0);
  });

  it('on /chats, resolves once the list has come', async () => {
    const { service, change, get } = fakeService();
    const prefetched = prefetchInbox({ get, params: {}, signal: new AbortController().signal });
    expect(service.selectRoom).not.toHaveBeenCalled();
    change({ roomsLoaded: true });
    await expect(prefetched).resolves.toBeUndefined();
  });

  it('lets go when the shell stops waiting', async () => {
    const { get, listeners } = fakeService();
    const stop = new AbortController();
    const prefetched = prefetchInbox({ get, params: { roomId: '5' }, signal: stop.signal });
    expect(listeners.size).toBe(1);
    stop.abort();
    await prefetched;
    expect(listeners.size).toBe(0);
  });
});
