/**
 * One socket per company, shared by everything in the console that listens live.
 *
 * The bell, the inbox, a room's contact panel, the templates and the broadcasts each asked the realtime API for a
 * socket of their own: three WebSocket connects on `/chats/:id` (about 15 ms each on a phone at 4× CPU, issue #26),
 * and three against the server's per-user connect limit (60 a minute) at each page load. A consumer now gets a hold
 * on the company's socket (`RealtimeSocket`) instead: `connect()` opens it if nobody had, `disconnect()` lets go of
 * this consumer's channels and callbacks only, and the socket closes when the last hold is let go (after
 * `lingerMs`, so a page change that unmounts one consumer before the next mounts keeps the socket).
 *
 * Channels are shared per topic too: phoenix.js leaves an open channel when another of the same topic joins on the
 * same socket, and the server (like Phoenix) treats a second join of a topic as a duplicate. So the first holder of a
 * topic creates and joins the channel with its params; a later holder gets the same channel: its bindings are its
 * own (removed when it leaves), its `join()` hooks see the join already answered (phoenix's Push runs a hook at once
 * for a status it has received, and again at each rejoin), and the channel is left when its last holder leaves.
 * A topic's params are the first holder's: only the inbox joins the topics whose params matter (`room:{id}`).
 */
import type { Channel, Push, Socket } from 'phoenix';
import type { RealtimeChannel, RealtimePush, RealtimeSocket } from '../apis';

/** How long a socket nobody holds stays open for the next holder. */
export const SOCKET_LINGER_MS = 1000;

interface SharedTopic {
  channel: Channel;
  holders: number;
  joinPush: Push | null;
}

interface SharedConnection {
  socket: Socket;
  holders: number;
  connectRequested: boolean;
  topics: Map<string, SharedTopic>;
  closeTimer: ReturnType<typeof setTimeout> | null;
}

export interface SocketSharing {
  /** A hold on the socket for `key` (opened by `open` when no hold is left). */
  acquire(key: string, open: () => Socket): RealtimeSocket;
  /** How many sockets are open or lingering (tests). */
  size(): number;
}

export function createSocketSharing(options: { lingerMs?: number } = {}): SocketSharing {
  const lingerMs = options.lingerMs ?? SOCKET_LINGER_MS;
  const connections = new Map<string, SharedConnection>();

  function connectionFor(key: string, open: () => Socket): SharedConnection {
    const existing = connections.get(key);
    if (existing) {
      if (existing.closeTimer) clearTimeout(existing.closeTimer);
      existing.closeTimer = null;
      return existing;
    }
    const created: SharedConnection = { socket: open(), holders: 0, connectRequested: false, topics: new Map(), closeTimer: null };
    connections.set(key, created);
    return created;
  }

  function release(key: string, shared: SharedConnection) {
    shared.holders -= 1;
    if (shared.holders > 0) return;
    const close = () => {
      if (shared.holders > 0 || connections.get(key) !== shared) return;
      connections.delete(key);
      shared.socket.disconnect();
    };
    if (lingerMs <= 0) close();
    else shared.closeTimer = setTimeout(close, lingerMs);
  }

  function topicFor(shared: SharedConnection, topic: string, params?: object | (() => object)): SharedTopic {
    const existing = shared.topics.get(topic);
    // A channel the server closed (a refused join, a kick) is not joined again: a new holder starts a new one.
    if (existing && existing.channel.state !== 'closed') return existing;
    const created: SharedTopic = { channel: shared.socket.channel(topic, params), holders: 0, joinPush: null };
    shared.topics.set(topic, created);
    return created;
  }

  function holdChannel(shared: SharedConnection, entry: SharedTopic, onRelease: () => void): RealtimeChannel & { release(): void } {
    entry.holders += 1;
    const { channel } = entry;
    const bindings: { event: string; ref: number }[] = [];
    let left = false;
    let joined = false;

    const guarded = (push: Push): RealtimePush => {
      const lease: RealtimePush = {
        receive<T>(status: 'ok' | 'error' | 'timeout', callback: (response: T) => void) {
          // phoenix's Push hands over the server's reply untyped: the consumer names what it expects.
          push.receive(status, (response: T) => {
            if (!left) callback(response);
          });
          return lease;
        },
      };
      return lease;
    };

    const release = () => {
      if (left) return;
      left = true;
      onRelease();
      for (const { event, ref } of bindings) channel.off(event, ref);
      bindings.length = 0;
      entry.holders -= 1;
      // A channel the server closed was replaced for the holders after it: its last holder leaves nothing (a leave
      // sent for its topic now would be the new channel's).
      if (entry.holders > 0 || shared.topics.get(channel.topic) !== entry) return;
      shared.topics.delete(channel.topic);
      if (channel.state !== 'closed') channel.leave();
    };

    return {
      topic: channel.topic,
      on(event, callback) {
        const ref = channel.on(event, callback);
        bindings.push({ event, ref });
        return ref;
      },
      off(event, ref) {
        channel.off(event, ref);
        for (let i = bindings.length - 1; i >= 0; i--) if (bindings[i].event === event && (ref === undefined || bindings[i].ref === ref)) bindings.splice(i, 1);
      },
      join(timeout) {
        if (joined) throw new Error(`tried to join ${channel.topic} twice`);
        joined = true;
        entry.joinPush ??= channel.join(timeout);
        return guarded(entry.joinPush);
      },
      push(event, payload, timeout) {
        return channel.push(event, payload, timeout);
      },
      leave() {
        release();
      },
      release,
    };
  }

  return {
    size: () => connections.size,
    acquire(key, open) {
      const shared = connectionFor(key, open);
      shared.holders += 1;
      const { socket } = shared;
      const callbackRefs: string[] = [];
      // The channels this holder holds now (the inbox joins and leaves rooms all day: a left one is forgotten).
      const channels = new Set<{ release(): void }>();
      const openCallbacks: (() => void)[] = [];
      let released = false;
      let connected = false;

      // A callback of this holder's: silent once the holder let go (phoenix may still be calling the list it was in).
      const whileHeld =
        <A extends unknown[]>(callback: (...args: A) => void) =>
        (...args: A) => {
          if (!released) callback(...args);
        };
      const keep = (ref: string) => {
        callbackRefs.push(ref);
        return ref;
      };

      // A holder that connects to a socket already open is told so, as if it had opened for it.
      const announceOpen = (callback: () => void) =>
        queueMicrotask(() => {
          if (!released && socket.isConnected()) callback();
        });

      return {
        connect() {
          if (released || connected) return;
          connected = true;
          if (!shared.connectRequested) {
            shared.connectRequested = true;
            socket.connect();
          } else if (socket.isConnected()) {
            openCallbacks.forEach(announceOpen);
          }
        },
        disconnect() {
          if (released) return;
          released = true;
          socket.off(callbackRefs);
          for (const channel of [...channels]) channel.release();
          release(key, shared);
        },
        channel(topic, params) {
          if (released) throw new Error(`a released socket cannot open ${topic}`);
          const held = holdChannel(shared, topicFor(shared, topic, params), () => channels.delete(held));
          channels.add(held);
          return held;
        },
        onOpen(callback) {
          openCallbacks.push(callback);
          if (connected && socket.isConnected()) announceOpen(callback);
          return keep(socket.onOpen(whileHeld(callback)));
        },
        onError: (callback) => keep(socket.onError(whileHeld(callback))),
        onClose: (callback) => keep(socket.onClose(whileHeld(callback))),
        isConnected: () => socket.isConnected(),
        endPointURL: () => socket.endPointURL(),
      };
    },
  };
}
