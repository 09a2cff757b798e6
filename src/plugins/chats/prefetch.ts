import { i18nApiRef, prewarmDateFormats, type RoutePrefetchContext } from '../../core';
import { chatApiRef } from './api';
import { INBOX_DATE_FORMATS } from './format';
import type { ChatService, ChatState } from './service/types';

/**
 * The inbox's route `prefetch` (core's warmRoute): on a load that opens on the inbox, the service starts before the
 * page renders, on the socket the entry opened (core's earlySocket), and a room's link (a notification, a reload)
 * joins its room at once. The shell's first render waits for the room's thread, or for the list on /chats, so the
 * page's first render shows them: it used to render first, then start the service and join (bench/bundle README).
 */
export function prefetchInbox({ get, params, signal }: RoutePrefetchContext): Promise<void> {
  const service = get(chatApiRef);
  service.start();
  // The dates' formatters (a language's first loads its calendar data, 50-80 ms at 4x CPU) while the answers are on
  // their way, not in the page's first render with them.
  prewarmDateFormats(get(i18nApiRef).i18n.language, INBOX_DATE_FORMATS);
  const roomId = params.roomId && /^\d+$/.test(params.roomId) ? Number(params.roomId) : null;
  if (roomId !== null) service.selectRoom(roomId);
  return whenShown(service, () => (roomId !== null ? roomShown(service.getState(), roomId) : service.getState().roomsLoaded), signal);
}

/** The room's thread came, or the server refused the room (the page then says it is not available). */
function roomShown(state: ChatState, roomId: number): boolean {
  return !!state.threads[roomId]?.loaded || !!state.unavailableRooms[roomId];
}

/** Resolves once `shown()` holds, or when the shell stops waiting. */
function whenShown(service: ChatService, shown: () => boolean, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (shown() || signal.aborted) return resolve();
    const done = () => {
      unsubscribe();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const unsubscribe = service.subscribe(() => {
      if (shown()) done();
    });
    signal.addEventListener('abort', done);
  });
}
