/**
 * Issue #22: private notes in the inbox. A note is written over REST (POST /api/rooms/{id}/notes/) and
 * comes back live as `new_note` on the room's topic (contract/notes.ts): either way it lands in the
 * thread only, never in the room list's preview nor the unread counts (a note is not a message to or
 * from the customer).
 */
import type { SuggestReplyResponse } from '../../../../contract/assistant';
import type { Message } from '../../../../contract/chats';
import type { HttpProvider } from '../../../core/apis';
import { mergeMessages } from '../model/messages';
import type { ChatStore } from './chatStore';
import type { FailureAlert } from './types';

export interface RoomNotes {
  /** Adds a note to the room's thread (a push or the POST's answer: merged by id). */
  receive(roomId: number, note: Message): void;
  /** Writes a note; false when it was refused (the alert says why). */
  addNote(roomId: number, text: string): Promise<boolean>;
  /** Issue #24, the copilot: a reply suggested from the knowledge (never sent); null when refused (alerted). */
  suggestReply(roomId: number): Promise<SuggestReplyResponse | null>;
  /** Issue #24, the copilot: the conversation's summary, stored and shown as a private note. */
  summarise(roomId: number): Promise<boolean>;
}

export function createRoomNotes(deps: { store: ChatStore; http?: HttpProvider; alertFailure: FailureAlert }): RoomNotes {
  const { store } = deps;
  const receive = (roomId: number, note: Message) => {
    if (store.get().threads[roomId]) store.setThread(roomId, { messages: mergeMessages(store.thread(roomId).messages, [{ ...note, room_id: roomId, private: true }]) });
  };
  return {
    receive,
    async addNote(roomId, text) {
      if (!deps.http) return false;
      try {
        const note = await deps.http.post<Message>(`/api/rooms/${roomId}/notes/`, { text });
        if (note && typeof note === 'object' && typeof note.id === 'number') receive(roomId, note);
        return true;
      } catch (err) {
        deps.alertFailure('chats.notes.failed', err);
        return false;
      }
    },
    async suggestReply(roomId) {
      if (!deps.http) return null;
      try {
        return await deps.http.post<SuggestReplyResponse>(`/api/rooms/${roomId}/suggest-reply/`, {});
      } catch (err) {
        deps.alertFailure('chats.copilot.failed', err);
        return null;
      }
    },
    async summarise(roomId) {
      if (!deps.http) return false;
      try {
        const note = await deps.http.post<Message>(`/api/rooms/${roomId}/summary/`, {});
        if (note && typeof note === 'object' && typeof note.id === 'number') receive(roomId, note);
        return true;
      } catch (err) {
        deps.alertFailure('chats.copilot.summaryFailed', err);
        return false;
      }
    },
  };
}
