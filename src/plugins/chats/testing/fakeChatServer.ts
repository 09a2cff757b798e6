/**
 * An in-memory chat server speaking contract/chats.ts over the fake socket, for unit and component
 * tests: pages, rooms with messages, fetch_rooms paging (30, newest first), room join with
 * last_message_id catch-up, fetch_messages, send_message idempotent by client_id (templates too; free-form
 * sends into a WhatsApp room outside its 24-hour window are refused like the server does), tags, pause, block.
 */
import { CHAT_PAGE_SIZE, isAgentTagName, type Message, type PageInfo, type Room, type Tag } from '../../../../contract/chats';
import { isWindowClosed, WINDOW_CLOSED_REASON } from '../../../../contract/channels';

/** The server's refusal text for a free-form send outside the window. */
export const WINDOW_CLOSED_MESSAGE = 'The 24-hour customer service window is closed: send an approved template instead.';
import type { Reply } from '../../../core/testing/fakeSocket';

let nextId = 100_000;

export function message(roomId: number, id: number, patch: Partial<Message> = {}): Message {
  return {
    id,
    room_id: roomId,
    origin: 'user',
    type: 'text',
    text: `message ${id}`,
    media_url: null,
    media_type: null,
    data: null,
    status: null,
    error: null,
    client_id: null,
    sender_name: null,
    created_at: new Date(Date.UTC(2026, 0, 1, 12, 0, 0) + id * 1000).toISOString(),
    private: false,
    ...patch,
  };
}

/** Like the server (issue #22): a member's agent tag is the room's assignee (the fake takes any e-mail-like tag for one). */
function assigneeOfTags(tags: Tag[]): Room['assignee'] {
  const tag = tags.find((t) => isAgentTagName(t.name));
  return tag ? { id: 1000 + tag.id, first_name: tag.name.split('@')[0], email: tag.name } : null;
}

export function room(id: number, patch: Partial<Room> = {}): Room {
  return {
    assignee: assigneeOfTags(patch.tags ?? []),
    id,
    name: `Customer ${id}`,
    external_id: `ext-${id}`,
    page_id: 1,
    platform: 'sandbox',
    tags: [],
    paused_until: null,
    blocked_at: null,
    unread: 0,
    last_message_at: null,
    last_inbound_at: null,
    messages: [],
    status: 'open',
    snoozed_until: null,
    ...patch,
  };
}

export interface FakeChatServer {
  pages: PageInfo[];
  rooms: Map<number, Room & { all: Message[] }>;
  tags: Tag[];
  reply(topic: string, event: string, payload: any): Reply;
  /** Adds a message as if the customer (or anyone) sent it; returns it. */
  add(roomId: number, patch?: Partial<Message>): Message;
  log: { topic: string; event: string; payload: any }[];
  /** Make the next push of this event fail. */
  failNext: Set<string>;
  /** Refuse the next push of this event on this topic with this reply (a rate-limited join…). */
  refuseNext(topic: string, event: string, response: unknown): void;
}

export function createFakeChatServer(options: { pages?: PageInfo[]; rooms?: { room: Room; messages?: Message[] }[] } = {}): FakeChatServer {
  const pages = options.pages ?? [{ id: 1, name: 'Sandbox', platform: 'sandbox', external_id: 'sb-1' }];
  const rooms = new Map<number, Room & { all: Message[] }>();
  for (const r of options.rooms ?? []) {
    const all = [...(r.messages ?? [])].sort((a, b) => a.created_at.localeCompare(b.created_at));
    const inbound = all.filter((m) => m.origin === 'user').pop()?.created_at ?? null;
    rooms.set(r.room.id, { ...r.room, all, last_message_at: all[all.length - 1]?.created_at ?? r.room.last_message_at, last_inbound_at: r.room.last_inbound_at ?? inbound });
  }
  const tags: Tag[] = [];
  const failNext = new Set<string>();
  const refusals = new Map<string, unknown>();
  const log: FakeChatServer['log'] = [];

  const view = (r: Room & { all: Message[] }, n = 1): Room => {
    const { all, ...rest } = r;
    return { ...rest, messages: all.slice(-n) };
  };
  const ok = (response: unknown): Reply => ({ status: 'ok', response });

  const server: FakeChatServer = {
    pages,
    rooms,
    tags,
    log,
    failNext,
    refuseNext(topic, event, response) {
      refusals.set(`${topic} ${event}`, response);
    },
    add(roomId, patch = {}) {
      const r = rooms.get(roomId)!;
      nextId += 1;
      const m = message(roomId, nextId, { created_at: new Date().toISOString(), ...patch });
      r.all.push(m);
      r.last_message_at = m.created_at;
      if (m.origin === 'user') r.last_inbound_at = m.created_at;
      return m;
    },
    reply(topic, event, payload) {
      log.push({ topic, event, payload });
      const refusal = `${topic} ${event}`;
      if (refusals.has(refusal)) {
        const response = refusals.get(refusal);
        refusals.delete(refusal);
        return { status: 'error', response };
      }
      if (failNext.has(event)) {
        failNext.delete(event);
        return { status: 'error', response: { reason: 'nope' } };
      }
      if (topic === 'page:lobby') {
        if (event === 'phx_join') return ok({});
        if (event === 'fetch_pages') return ok({ page_ids: pages.map((p) => p.id), pages });
      }
      if (topic.startsWith('page:')) {
        const pageId = Number(topic.slice(5));
        if (event === 'phx_join') return ok({});
        if (event === 'fetch_rooms') {
          const term = String(payload.search ?? '').toLowerCase();
          const list = [...rooms.values()]
            .filter((r) => (payload.pages?.length ? payload.pages.includes(r.page_id) : r.page_id === pageId))
            .filter((r) => !term || r.name.toLowerCase().includes(term) || r.external_id.toLowerCase().includes(term))
            .filter((r) => !payload.tags?.length || r.tags.some((t) => payload.tags.includes(t.id)))
            .filter((r) => !payload.status || payload.status === 'all' || (r.status ?? 'open') === payload.status)
            .filter((r) => payload.assignee !== 'none' || !r.assignee)
            .sort((a, b) => (b.last_message_at ?? '').localeCompare(a.last_message_at ?? '') || b.id - a.id);
          const page = payload.page ?? 1;
          return ok({ rooms: list.slice((page - 1) * CHAT_PAGE_SIZE, page * CHAT_PAGE_SIZE).map((r) => view(r)) });
        }
        if (event === 'create_new_chat_room') {
          const existing = [...rooms.values()].find((r) => r.page_id === payload.page_id && r.external_id === payload.user_id);
          if (payload.platform === 'whatsapp' && payload.messages.length && (!existing || isWindowClosed(existing))) {
            return { status: 'error', response: { reason: WINDOW_CLOSED_REASON, errors: { message: [WINDOW_CLOSED_MESSAGE] } } };
          }
          nextId += 1;
          const r = { ...room(nextId, { name: payload.name, external_id: payload.user_id, page_id: payload.page_id }), all: [] as Message[] };
          rooms.set(r.id, r);
          for (const m of payload.messages) server.add(r.id, { origin: 'agent', text: m.text, client_id: m.client_id, status: 'sent' });
          return ok({ room: view(r) });
        }
      }
      if (topic.startsWith('room:')) {
        const r = rooms.get(Number(topic.slice(5)));
        if (!r) return { status: 'error', response: { reason: 'not found' } };
        switch (event) {
          case 'phx_join': {
            const last = payload?.last_message_id;
            return ok({ room: view(r, CHAT_PAGE_SIZE), missed: last ? r.all.filter((m) => m.id > last) : [] });
          }
          case 'fetch_messages': {
            const older = r.all.filter((m) => (!payload.before_timestamp || m.created_at < payload.before_timestamp) && (payload.before_id == null || m.id < payload.before_id));
            return ok({ messages: older.slice(-CHAT_PAGE_SIZE), has_more: older.length > CHAT_PAGE_SIZE });
          }
          case 'send_message': {
            const sent = payload.message;
            const existing = r.all.find((m) => m.client_id === sent.client_id);
            if (existing) return ok({ message: existing });
            const type = sent.type ?? 'text';
            if (type !== 'template' && isWindowClosed(r)) return { status: 'error', response: { reason: WINDOW_CLOSED_REASON, errors: { message: [WINDOW_CLOSED_MESSAGE] } } };
            const m = server.add(r.id, {
              origin: 'agent',
              type,
              text: sent.text,
              media_url: sent.media_url ?? null,
              media_type: sent.media_type ?? null,
              data: sent.template ? { template: sent.template } : null,
              client_id: sent.client_id,
              status: 'sent',
            });
            return ok({ message: m });
          }
          case 'update_user':
            r.paused_until = payload.user.paused_until;
            return ok({ room: view(r) });
          case 'block_user':
            r.blocked_at = new Date().toISOString();
            return ok({ room: view(r, CHAT_PAGE_SIZE) });
          case 'unblock_user':
            r.blocked_at = null;
            return ok({ room: view(r, CHAT_PAGE_SIZE) });
          case 'add_tag': {
            let tag = tags.find((t) => t.name === payload.tag);
            if (!tag) tags.push((tag = { id: tags.length + 1, name: payload.tag }));
            if (!r.tags.some((t) => t.id === tag!.id)) r.tags = [...r.tags, tag];
            // An agent tag assigns the room and replaces any other agent tag (issue #22).
            if (isAgentTagName(tag.name)) {
              r.tags = r.tags.filter((t) => t.id === tag!.id || !isAgentTagName(t.name));
              r.assignee = assigneeOfTags(r.tags);
            }
            return ok({ room: view(r) });
          }
          case 'remove_tag':
            r.tags = r.tags.filter((t) => t.name !== payload.tag);
            r.assignee = assigneeOfTags(r.tags);
            return ok({ room: view(r) });
          case 'view':
            return ok({});
        }
      }
      return { status: 'error', response: { reason: `unhandled ${topic} ${event}` } };
    },
  };
  return server;
}
