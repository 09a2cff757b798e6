import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Socket } from 'phoenix';
import { FakeSocket, flush } from '../testing/fakeSocket';
import { createSocketSharing } from './sharedSocket';

const ok = () => ({ status: 'ok' as const, response: {} });

/** A sharing whose sockets are FakeSockets (phoenix's shape), with the ones it opened listed. */
function setup(lingerMs = 0) {
  const sharing = createSocketSharing({ lingerMs });
  const opened: FakeSocket[] = [];
  const open = () => {
    const socket = new FakeSocket(ok);
    opened.push(socket);
    return socket as unknown as Socket;
  };
  const hold = (key = 'company 1') => sharing.acquire(key, open);
  /** Two holders of one company's socket, connected and open. */
  const twoConnected = async () => {
    const pair = [hold(), hold()] as const;
    pair.forEach((holder) => holder.connect());
    await flush();
    return pair;
  };
  return { sharing, opened, hold, twoConnected };
}

afterEach(() => vi.useRealTimers());

describe('one socket per company, shared', () => {
  it('opens and connects one socket for every holder of a key, and tells a late holder it is open', async () => {
    const { opened, hold } = setup();
    const bell = hold();
    const inbox = hold();
    const bellOpened = vi.fn();
    bell.onOpen(bellOpened);
    bell.connect();
    await flush();
    expect(opened).toHaveLength(1);
    expect(bellOpened).toHaveBeenCalledTimes(1);

    // The inbox connects to the socket the bell opened: it hears of the open all the same.
    const inboxOpened = vi.fn();
    inbox.onOpen(inboxOpened);
    inbox.connect();
    await flush();
    expect(inboxOpened).toHaveBeenCalledTimes(1);
    expect(opened).toHaveLength(1);
    // A reopen after a drop reaches both.
    opened[0].drop();
    opened[0].open();
    expect(bellOpened).toHaveBeenCalledTimes(2);
    expect(inboxOpened).toHaveBeenCalledTimes(2);
  });

  it('opens another socket for another company or endpoint', () => {
    const { opened, hold } = setup();
    hold('ws://a/socket 1').connect();
    hold('ws://a/socket 2').connect();
    expect(opened).toHaveLength(2);
  });

  it("closes the socket when the last holder lets go, and removes only that holder's callbacks before", async () => {
    const { sharing, opened, hold } = setup();
    const bell = hold();
    const inbox = hold();
    const bellClosed = vi.fn();
    const inboxClosed = vi.fn();
    bell.onClose(bellClosed);
    inbox.onClose(inboxClosed);
    bell.connect();
    inbox.connect();
    await flush();

    bell.disconnect();
    expect(opened[0].disconnected).toBe(false);
    opened[0].drop(1006);
    expect(bellClosed).not.toHaveBeenCalled();
    expect(inboxClosed).toHaveBeenCalledTimes(1);

    inbox.disconnect();
    expect(opened[0].disconnected).toBe(true);
    expect(sharing.size()).toBe(0);
    // The next holder gets a socket of its own.
    hold().connect();
    expect(opened).toHaveLength(2);
  });

  it('keeps a socket nobody holds for the linger time, for a page that mounts its consumer just after', async () => {
    vi.useFakeTimers();
    const { opened, hold } = setup(1000);
    const templates = hold();
    templates.connect();
    templates.disconnect();
    vi.advanceTimersByTime(500);
    const broadcasts = hold();
    broadcasts.connect();
    vi.advanceTimersByTime(5000);
    expect(opened).toHaveLength(1);
    expect(opened[0].disconnected).toBe(false);
    broadcasts.disconnect();
    vi.advanceTimersByTime(999);
    expect(opened[0].disconnected).toBe(false);
    vi.advanceTimersByTime(1);
    expect(opened[0].disconnected).toBe(true);
  });
});

describe('one channel per topic, shared', () => {
  it('joins a topic once for two holders, each hearing its events until it leaves', async () => {
    const { opened, twoConnected } = setup();
    const [inbox, templates] = await twoConnected();

    const inboxEvents = vi.fn();
    const templateEvents = vi.fn();
    const inboxPage = inbox.channel('page:7', {});
    inboxPage.on('template_status', inboxEvents);
    const inboxJoined = vi.fn();
    inboxPage.join().receive('ok', inboxJoined);
    await flush();
    expect(inboxJoined).toHaveBeenCalledTimes(1);

    const templatesPage = templates.channel('page:7', {});
    templatesPage.on('template_status', templateEvents);
    const templatesJoined = vi.fn();
    // The join was answered already: the hook runs at once, as phoenix's Push does for a received status.
    templatesPage.join().receive('ok', templatesJoined);
    expect(templatesJoined).toHaveBeenCalledTimes(1);
    expect(opened[0].joins.map((j) => j.topic)).toEqual(['page:7']);

    opened[0].emit('page:7', 'template_status', { id: 1 });
    expect(inboxEvents).toHaveBeenCalledTimes(1);
    expect(templateEvents).toHaveBeenCalledTimes(1);

    // The inbox leaves: the templates page still hears the topic, and the channel is not left.
    inboxPage.leave();
    opened[0].emit('page:7', 'template_status', { id: 2 });
    expect(inboxEvents).toHaveBeenCalledTimes(1);
    expect(templateEvents).toHaveBeenCalledTimes(2);
    expect(opened[0].find('page:7')).toBeDefined();

    // A rejoin after a drop reaches the holder still there, not the one that left.
    opened[0].drop();
    opened[0].open();
    await flush();
    expect(templatesJoined).toHaveBeenCalledTimes(2);
    expect(inboxJoined).toHaveBeenCalledTimes(1);

    templates.disconnect();
    expect(opened[0].find('page:7')).toBeUndefined();
  });

  it("sends the first holder's params with the join", async () => {
    const { opened, hold } = setup();
    const inbox = hold();
    inbox.connect();
    await flush();
    inbox.channel('room:3', () => ({ last_message_id: 41 })).join();
    hold().channel('room:3', { last_message_id: 0 }).join();
    await flush();
    expect(opened[0].joins).toEqual([{ topic: 'room:3', payload: { last_message_id: 41 } }]);
  });

  it('gives a later holder a new channel when the server closed the topic, and the old holder leaving leaves it be', async () => {
    const { opened, twoConnected } = setup();
    const [bell, inbox] = await twoConnected();
    const kicked = bell.channel('page:4', {});
    kicked.join();
    await flush();
    opened[0].find('page:4')!.state = 'closed'; // the server closed it (phx_close)
    const fresh = inbox.channel('page:4', {});
    const heard = vi.fn();
    fresh.on('new_room', heard);
    fresh.join();
    await flush();
    expect(opened[0].joins.map((j) => j.topic)).toEqual(['page:4', 'page:4']);
    const [first, second] = opened[0].channels;
    kicked.leave();
    expect(first.left).toBe(false); // closed already: no leave sent for the topic
    expect(second.left).toBe(false);
    opened[0].emit('page:4', 'new_room', {});
    expect(heard).toHaveBeenCalledTimes(1);
  });

  it('starts a new channel for a topic whose channel was closed', async () => {
    const { opened, hold } = setup();
    const bell = hold();
    bell.connect();
    await flush();
    const first = bell.channel('notifications:1', {});
    first.join();
    first.leave();
    const again = bell.channel('notifications:1', {});
    again.join();
    await flush();
    expect(opened[0].joins.map((j) => j.topic)).toEqual(['notifications:1', 'notifications:1']);
    expect(() => again.join()).toThrow(/twice/);
  });

  it('a holder that let go opens no channel', () => {
    const { hold } = setup();
    const bell = hold();
    bell.disconnect();
    expect(() => bell.channel('page:1')).toThrow();
    bell.disconnect();
  });
});
