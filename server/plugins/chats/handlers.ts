/**
 * The inbox's realtime topics on the hub (spec §7):
 *   page:lobby     fetch_pages
 *   page:{pageId}  fetch_rooms, create_new_chat_room; receives new_room, new_message {room_id, message}
 *   room:{roomId}  join {last_message_id?} → {room, missed}; fetch_messages, update_user, send_message,
 *                  add_tag, remove_tag, block_user, unblock_user; receives new_message, message_status,
 *                  room_info, block_user, unblock_user, presence.
 * Every payload is validated with the contract's schemas; refusals reply `{reason, errors?}`.
 */
import type { z } from 'zod';
import {
  CHAT_EVENTS,
  CreateRoomPayload,
  FetchMessagesPayload,
  ViewPayload,
  FetchRoomsPayload,
  RoomJoinPayload,
  sendMessagePayload,
  TagPayload,
  UpdateUserPayload,
} from '../../../contract/chats';
import { canManage, canView } from '../../../contract/permissions';
import { NOTIFICATION_TOPIC_PREFIX } from '../../../contract/notes';
import { parseFields } from '../../core/errors';
import { topicAccess } from '../../core/access/topics';
import type { ChannelContext, ChannelHandler, RealtimeHub, Reply, SocketIdentity } from '../../core/realtime/types';
import { ChatError, type ChatActor, type ChatService } from './service';

const ok = (response: unknown): Reply => ({ status: 'ok', response });
const refuse = (reason: string, errors?: Record<string, string[]>): Reply => ({ status: 'error', response: errors ? { reason, errors } : { reason } });

export function actorOf(identity: SocketIdentity): ChatActor {
  return {
    userId: identity.userId,
    email: identity.email,
    name: identity.firstName || identity.email,
    companyId: identity.companyId,
    role: identity.role,
  };
}

/** A join or push payload parsed with a contract schema; a missing payload counts as `{}`. */
function parse<S extends z.ZodType>(schema: S, payload: unknown): z.infer<S> {
  const result = parseFields(schema, payload ?? {});
  if (!result.ok) throw new ChatError('invalid payload', result.fields);
  return result.value;
}

/** The numeric id of `prefix:{id}`, or null. */
function topicId(topic: string): number | null {
  const match = /^[a-z]+:(\d{1,9})$/.exec(topic);
  return match ? Number(match[1]) : null;
}

async function guarded(run: () => Promise<Reply>): Promise<Reply> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ChatError) return refuse(err.reason, err.errors);
    throw err;
  }
}

function requireManage(ctx: ChannelContext): void {
  if (!canManage(ctx.identity.permissions, 'chats')) throw new ChatError('forbidden');
}

/**
 * Page topics filter their broadcasts per subscriber (handleOut, Phoenix's handle_out) so an agent
 * restricted by the agent feature does not receive rooms they may not see.
 */
export function pageChannel(chats: ChatService, hub: Pick<RealtimeHub, 'trackPresence'> | null = null): ChannelHandler {
  return {
    async join(topic, _payload, ctx) {
      return guarded(async () => {
        if (!canView(ctx.identity.permissions, 'chats')) return refuse('forbidden');
        const actor = actorOf(ctx.identity);
        ctx.assigns.restrictedEmail = await chats.restrictedEmail(actor);
        if (topic === 'page:lobby') return ok({});
        const pageId = topicId(topic);
        const channel = pageId === null ? null : await chats.channel(actor.companyId, pageId);
        if (!channel) return refuse('not found');
        ctx.assigns.pageId = channel.id;
        // A member who may answer has this inbox open: online for the channel's auto-assignment (./autoAssignment.ts).
        if (canManage(ctx.identity.permissions, 'chats')) hub?.trackPresence(ctx, String(actor.userId), { name: actor.name, email: actor.email });
        return ok({});
      });
    },

    async handleIn(event, payload, ctx) {
      return guarded(async () => {
        const actor = actorOf(ctx.identity);
        const pageId = ctx.assigns.pageId as number | undefined;
        switch (event) {
          case CHAT_EVENTS.fetchPages: {
            const pages = await chats.listPages(actor.companyId);
            return ok({ page_ids: pages.map((p) => p.id), pages });
          }
          case CHAT_EVENTS.fetchRooms: {
            const query = parse(FetchRoomsPayload, payload);
            if (pageId === undefined && !query.pages?.length) return refuse('not found');
            return ok({ rooms: await chats.fetchRooms(actor, pageId ?? -1, query) });
          }
          case CHAT_EVENTS.createNewChatRoom: {
            requireManage(ctx);
            const input = parse(CreateRoomPayload, payload);
            const channel = await chats.channel(actor.companyId, input.page_id);
            if (!channel || (pageId !== undefined && channel.id !== pageId)) return refuse('not found');
            if (channel.platform !== input.platform) return refuse('invalid payload', { platform: ['The platform is not the channel’s.'] });
            return ok({ room: await chats.createRoom(actor, channel, input) });
          }
          default:
            return refuse('unknown event');
        }
      });
    },

    async handleOut(event, payload, ctx) {
      const email = ctx.assigns.restrictedEmail as string | null | undefined;
      if (!email) return payload;
      const roomId =
        event === CHAT_EVENTS.newRoom || event === CHAT_EVENTS.roomInfo
          ? (payload as { room?: { id?: number } }).room?.id
          : event === CHAT_EVENTS.newMessage
            ? (payload as { room_id?: number }).room_id
            : undefined;
      if (roomId === undefined) return payload;
      try {
        await chats.accessibleRoom(actorOf(ctx.identity), roomId);
        return payload;
      } catch {
        return null;
      }
    },
  };
}

/** Viewing (the agent has the room open) marks it read and shows the agent in the room's presence. */
async function setViewing(chats: ChatService, hub: Pick<RealtimeHub, 'trackPresence' | 'untrackPresence'> | null, ctx: ChannelContext, viewing: boolean) {
  const actor = actorOf(ctx.identity);
  const was = ctx.assigns.viewing === true;
  ctx.assigns.viewing = viewing;
  // Leaving marks read too: the agent saw everything up to now.
  if (viewing || was) await chats.markRead(ctx.assigns.roomId as number, actor.userId);
  if (viewing && !was) hub?.trackPresence(ctx, String(actor.userId), { name: actor.name, email: actor.email });
  if (!viewing && was) hub?.untrackPresence(ctx);
}

/** `ownMediaBases`: URL prefixes of this server's own media a message may link to over plain http (contract/chats.ts isAllowedMediaUrl). */
export function roomChannel(
  chats: ChatService,
  hub: Pick<RealtimeHub, 'trackPresence' | 'untrackPresence'> | null,
  ownMediaBases: readonly string[] = [],
): ChannelHandler {
  const SendMessagePayload = sendMessagePayload(ownMediaBases);
  const roomOf = async (ctx: ChannelContext) => {
    const roomId = ctx.assigns.roomId as number;
    // Re-checked on every push: a room re-tagged away from a restricted agent closes to them at once.
    return chats.accessibleRoom(actorOf(ctx.identity), roomId);
  };

  return {
    async join(topic, payload, ctx) {
      return guarded(async () => {
        if (!canView(ctx.identity.permissions, 'chats')) return refuse('forbidden');
        const roomId = topicId(topic);
        if (roomId === null) return refuse('not found');
        // viewing defaults to true: a client that knows nothing of background subscriptions opens the room.
        const { last_message_id, viewing = true, notes = false } = parse(RoomJoinPayload, payload);
        const actor = actorOf(ctx.identity);
        const room = await chats.accessibleRoom(actor, roomId);
        ctx.assigns.roomId = room.id;
        ctx.assigns.pageId = room.channelId;
        // Issue #22: this client shows private notes (contract/notes.ts); new_note reaches it either way, which it listens to only if so.
        ctx.assigns.notes = notes;
        await setViewing(chats, hub, ctx, viewing);
        return ok(await chats.openRoom(actor, room, last_message_id, notes));
      });
    },

    async handleIn(event, payload, ctx) {
      return guarded(async () => {
        const actor = actorOf(ctx.identity);
        switch (event) {
          case CHAT_EVENTS.view: {
            const { viewing } = parse(ViewPayload, payload);
            await roomOf(ctx);
            await setViewing(chats, hub, ctx, viewing);
            return ok({});
          }
          case CHAT_EVENTS.fetchMessages: {
            const { before_timestamp, before_id } = parse(FetchMessagesPayload, payload);
            const room = await roomOf(ctx);
            return ok(await chats.olderMessages(room.id, { timestamp: before_timestamp, id: before_id ?? null }, ctx.assigns.notes === true));
          }
          case CHAT_EVENTS.updateUser: {
            requireManage(ctx);
            const { user } = parse(UpdateUserPayload, payload);
            return ok({ room: await chats.setPausedUntil(actor, await roomOf(ctx), user.paused_until) });
          }
          case CHAT_EVENTS.sendMessage: {
            requireManage(ctx);
            const { message } = parse(SendMessagePayload, payload);
            const sent = await chats.sendMessage(actor, await roomOf(ctx), message);
            return ok({ message: sent.message });
          }
          case CHAT_EVENTS.addTag:
          case CHAT_EVENTS.removeTag: {
            requireManage(ctx);
            const { tag } = parse(TagPayload, payload);
            const room = await roomOf(ctx);
            return ok({ room: event === CHAT_EVENTS.addTag ? await chats.addTag(actor, room, tag) : await chats.removeTag(actor, room, tag) });
          }
          case CHAT_EVENTS.blockUser:
          case CHAT_EVENTS.unblockUser: {
            requireManage(ctx);
            return ok({ room: await chats.setBlocked(actor, await roomOf(ctx), event === CHAT_EVENTS.blockUser) });
          }
          default:
            return refuse('unknown event');
        }
      });
    },
  };
}

/** Registers page:* and room:* on the hub. */
export function registerChatChannels(hub: RealtimeHub, chats: ChatService, ownMediaBases: readonly string[] = []): void {
  hub.registerChannel('page', chatTopicAccess.page(chats), pageChannel(chats, hub));
  hub.registerChannel('room', chatTopicAccess.room(chats), roomChannel(chats, hub, ownMediaBases));
  hub.registerChannel(NOTIFICATION_TOPIC_PREFIX, chatTopicAccess.notifications(), notificationChannel());
}

/**
 * notifications:{userId} (issue #22): the member's own notifications, pushed as `notification`. Only the
 * member's sockets join it; a member of several companies gets each company's on that company's sockets.
 */
export function notificationChannel(): ChannelHandler {
  return {
    async join() {
      return ok({});
    },
    async handleIn() {
      return refuse('unknown event');
    },
    async handleOut(_event, payload, ctx) {
      return (payload as { company_id?: number }).company_id === ctx.identity.companyId ? payload : null;
    },
  };
}

/** The declared access of the inbox's topics, checked by the hub before each join (the handlers re-check, and add the agent feature's restriction). */
export const chatTopicAccess = {
  page: (chats: ChatService) =>
    topicAccess.companyResource({
      permission: { area: 'chats', access: 'view' },
      fixed: ['lobby'],
      belongsTo: async (pageId, identity) => (await chats.channel(identity.companyId, pageId)) !== null,
    }),
  room: (chats: ChatService) =>
    topicAccess.companyResource({
      permission: { area: 'chats', access: 'view' },
      belongsTo: async (roomId, identity) => (await chats.roomRecord(roomId))?.companyId === identity.companyId,
    }),
  /** The id is a user's: only that user's own socket (its company's notifications only, handleOut). */
  notifications: () =>
    topicAccess.companyResource({
      permission: { area: 'chats', access: 'view' },
      belongsTo: async (userId, identity) => userId === identity.userId,
    }),
};
