/**
 * The inbox's hold on the company's socket and its channels' registry: the connection state the
 * inbox shows, and the generation that makes late replies of a closed connection harmless.
 */
import type { RealtimeChannel, RealtimeClientFactory, RealtimeSocket, SessionStore } from '../../../core/apis';
import type { ChatStore } from './chatStore';

/** Close codes of server/core/realtime's revocation (hub.disconnect). */
export const REVOKED_SESSION_CLOSE = 4401;
export const REVOKED_MEMBERSHIP_CLOSE = 4403;

/** An expired token is refreshed at most this often while the socket is down. */
const SESSION_CHECK_INTERVAL_MS = 5000;

export interface ChatConnection {
  socket(): RealtimeSocket | null;
  lobby(): RealtimeChannel | null;
  readonly pageChannels: Map<number, RealtimeChannel>;
  readonly roomChannels: Map<number, RealtimeChannel>;
  /** Whether the connection open now is still the current one when a reply comes back. */
  currentRun(): () => boolean;
  /** Creates and connects the socket, and returns the lobby channel (page:lobby), not yet joined. */
  open(): RealtimeChannel;
  /** Leaves every channel and disconnects; replies still on their way are ignored. */
  close(): void;
}

export function createChatConnection(deps: {
  realtime: RealtimeClientFactory;
  session?: SessionStore;
  store: ChatStore;
  /** An authenticated HTTP call: it refreshes an expired token, or signs a revoked session out (401). */
  checkSession: () => void;
  /** The server closed the socket because the membership changed (role, or the role's permissions): reload them. */
  onMembershipChanged?: () => void;
}): ChatConnection {
  const { store } = deps;
  let socket: RealtimeSocket | null = null;
  let generation = 0;
  let everOpened = false;
  let lobby: RealtimeChannel | null = null;
  const pageChannels = new Map<number, RealtimeChannel>();
  const roomChannels = new Map<number, RealtimeChannel>();

  return {
    socket: () => socket,
    lobby: () => lobby,
    pageChannels,
    roomChannels,
    currentRun() {
      const gen = generation;
      return () => gen === generation;
    },
    open() {
      generation += 1;
      const gen = generation;
      const opened = deps.realtime.createSocket();
      socket = opened;
      store.set({ connection: 'connecting' });
      opened.onOpen(() => {
        if (gen !== generation) return;
        everOpened = true;
        store.set({ connection: 'live' });
      });
      let lastCheck = 0;
      const down = (event?: unknown) => {
        if (gen !== generation || !socket) return;
        store.set({ connection: everOpened ? 'reconnecting' : 'connecting' });
        // The server closes with 4401 when the session was revoked (logout elsewhere, password
        // change) and 4403 when the membership changed: an authenticated call then signs a revoked
        // session out (401) instead of reconnecting in vain until the next HTTP call.
        const code = (event as { code?: number } | undefined)?.code ?? 0;
        const revoked = [REVOKED_SESSION_CLOSE, REVOKED_MEMBERSHIP_CLOSE].includes(code);
        // Issue #22: a role or permission change reaches the open console at once (a read-only inbox, say).
        if (code === REVOKED_MEMBERSHIP_CLOSE) deps.onMembershipChanged?.();
        // Access tokens are short-lived: an authenticated call refreshes an expired one, so the
        // next reconnect attempt (params are read on each attempt) carries a valid token.
        if ((revoked || deps.session?.isExpired(deps.session.getAccessToken())) && Date.now() - lastCheck > SESSION_CHECK_INTERVAL_MS) {
          lastCheck = Date.now();
          deps.checkSession();
        }
      };
      opened.onError(down);
      opened.onClose(down);
      opened.connect();
      lobby = opened.channel('page:lobby', {});
      return lobby;
    },
    close() {
      generation += 1;
      for (const c of [...roomChannels.values(), ...pageChannels.values()]) c.leave();
      lobby?.leave();
      roomChannels.clear();
      pageChannels.clear();
      lobby = null;
      socket?.disconnect();
      socket = null;
      everOpened = false;
    },
  };
}
