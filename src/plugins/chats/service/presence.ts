/** Who else is looking at a room: phoenix presence per room topic, as viewers other than this user. */
import { Presence } from 'phoenix';
import type { AccountStore } from '../../../core/apis';
import type { ChatStore } from './chatStore';
import type { Viewer } from './types';

export interface RoomPresence {
  syncState(roomId: number, state: unknown): void;
  syncDiff(roomId: number, diff: unknown): void;
  clear(): void;
}

export function createRoomPresence(deps: { store: ChatStore; account: AccountStore }): RoomPresence {
  const { store } = deps;
  const presences = new Map<number, Record<string, unknown>>();

  function updateViewers(roomId: number) {
    const me = String(deps.account.getUser()?.id ?? '');
    const viewers = Presence.list(presences.get(roomId) ?? {}, (id: string, p: { metas: { name?: string; email?: string }[] }) => ({
      id,
      name: p.metas[0]?.name ?? '',
      email: p.metas[0]?.email ?? '',
    })) as Viewer[];
    store.set({ viewers: { ...store.get().viewers, [roomId]: viewers.filter((v) => v.id !== me) } });
  }

  return {
    syncState(roomId, state) {
      presences.set(roomId, Presence.syncState(presences.get(roomId) ?? {}, state as never) as Record<string, unknown>);
      updateViewers(roomId);
    },
    syncDiff(roomId, diff) {
      presences.set(roomId, Presence.syncDiff(presences.get(roomId) ?? {}, diff as never) as Record<string, unknown>);
      updateViewers(roomId);
    },
    clear() {
      presences.clear();
    },
  };
}
