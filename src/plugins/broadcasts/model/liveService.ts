/**
 * Live broadcast progress: joins `page:{channelId}` on the company's socket for the channels of the
 * broadcasts on screen and keeps the last `broadcast_progress` of each broadcast. Components read it
 * with useSyncExternalStore. A company switch or sign-out drops the socket and everything kept
 * (spec §4: sign-out clears broadcast state).
 */
import type { AccountStore, RealtimeChannel, RealtimeClientFactory, RealtimeSocket } from '../../../core/apis';
import { LIVE_EVENTS } from './liveEvents';
import type { BroadcastLiveEvent } from './status';

export interface LiveState {
  /** broadcast id → its last live event. */
  progress: Record<number, BroadcastLiveEvent>;
  /** Grows on every channel rejoin after a disconnection: events may have been missed, reload. */
  resyncs: number;
}

export interface LiveBroadcastService {
  getState(): LiveState;
  subscribe(listener: () => void): () => void;
  /** Watch the channels' broadcasts until the returned function is called (counted per channel). */
  watch(channelIds: readonly number[]): () => void;
  /** Forget a broadcast's last event (after an action whose result the reloaded record carries). */
  forget(broadcastId: number): void;
  /** Leave every channel, close the socket, forget everything. */
  reset(): void;
}

function initialState(): LiveState {
  return { progress: {}, resyncs: 0 };
}

export function createLiveBroadcastService(deps: { realtime: RealtimeClientFactory; account: AccountStore }): LiveBroadcastService {
  let state = initialState();
  const listeners = new Set<() => void>();
  let socket: RealtimeSocket | null = null;
  const channels = new Map<number, { channel: RealtimeChannel; watchers: number }>();

  const emit = () => listeners.forEach((l) => l());
  const set = (patch: Partial<LiveState>) => {
    state = { ...state, ...patch };
    emit();
  };

  function ensureSocket(): RealtimeSocket {
    if (!socket) {
      socket = deps.realtime.createSocket();
      socket.connect();
    }
    return socket;
  }

  function join(channelId: number) {
    const entry = channels.get(channelId);
    if (entry) {
      entry.watchers += 1;
      return;
    }
    const channel = ensureSocket().channel(`page:${channelId}`, {});
    for (const event of LIVE_EVENTS) {
      channel.on(event, (payload: BroadcastLiveEvent) => {
        const id = Number(payload?.id ?? payload?.broadcast_id);
        if (!payload || !Number.isInteger(id)) return;
        // The engine sends the same payload under both event names: the second changes nothing.
        if (JSON.stringify(state.progress[id]) === JSON.stringify({ ...payload, id })) return;
        set({ progress: { ...state.progress, [id]: { ...payload, id } } });
      });
    }
    let joined = false;
    channel.join().receive('ok', () => {
      if (joined) set({ resyncs: state.resyncs + 1 });
      joined = true;
    });
    channels.set(channelId, { channel, watchers: 1 });
  }

  function leave(channelId: number) {
    const entry = channels.get(channelId);
    if (!entry) return;
    entry.watchers -= 1;
    if (entry.watchers > 0) return;
    entry.channel.leave();
    channels.delete(channelId);
    if (channels.size === 0 && socket) {
      socket.disconnect();
      socket = null;
    }
  }

  const service: LiveBroadcastService = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    watch(channelIds) {
      const ids = [...new Set(channelIds.filter((id) => Number.isFinite(id)))];
      ids.forEach(join);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        ids.forEach(leave);
      };
    },
    forget(broadcastId) {
      if (!(broadcastId in state.progress)) return;
      const progress = { ...state.progress };
      delete progress[broadcastId];
      set({ progress });
    },
    reset() {
      for (const { channel } of channels.values()) channel.leave();
      channels.clear();
      socket?.disconnect();
      socket = null;
      state = initialState();
      emit();
    },
  };

  deps.account.subscribe((event) => {
    if (event === 'companyChanged' || event === 'signedOut') service.reset();
  });
  return service;
}
