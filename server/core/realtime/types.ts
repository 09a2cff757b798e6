/**
 * Contract between the Phoenix-protocol hub (server/core/realtime) and the feature plugins that own
 * topics (e.g. server/plugins/chats owns `page:*` and `room:*`).
 */
import type { PermissionMap, RoleId } from '../../../contract/permissions';
import type { TopicAccessRule } from '../access/topics';

/** Who is on the other end of a socket, established once at connect from the `token` and `company_id` params. */
export interface SocketIdentity {
  socketId: string;
  userId: number;
  email: string;
  firstName: string;
  companyId: number;
  role: RoleId;
  permissions: PermissionMap;
}

export type ReplyStatus = 'ok' | 'error';
export interface Reply {
  status: ReplyStatus;
  response: unknown;
}

/** One joined channel (a topic on a socket). */
export interface ChannelContext {
  readonly topic: string;
  readonly identity: SocketIdentity;
  /** Per-join state the handler may keep (e.g. the room id). */
  readonly assigns: Record<string, unknown>;
  /** Push an event to this client only (`[join_ref, null, topic, event, payload]`). Pushes made
   *  during `join` reach the client right after the ok reply; after the channel closed they are dropped. */
  push(event: string, payload: unknown): void;
}

export interface ChannelHandler {
  /** Authorise and answer a join; `{status:'error', response:{reason}}` refuses it. Throwing answers
   *  `{status:'error', response:{reason:'join crashed'}}`. Messages of one topic are handled in order. */
  join(topic: string, payload: unknown, ctx: ChannelContext): Promise<Reply>;
  /** Handle a client push; the returned reply is sent as phx_reply (omit for no reply). Throwing
   *  closes the channel with `phx_error` (the client rejoins) and runs terminate. */
  handleIn?(event: string, payload: unknown, ctx: ChannelContext): Promise<Reply | void>;
  /**
   * Filters a broadcast for one subscriber: return the payload (or a rewritten one) to deliver it, null to
   * drop it for this subscriber. Deliveries to one channel keep their order.
   */
  handleOut?(event: string, payload: unknown, ctx: ChannelContext): Promise<unknown | null>;
  /** The channel left or the socket closed. */
  terminate?(ctx: ChannelContext): void;
}

/**
 * Whose sockets to close: every socket authenticated with one of these login sessions (revoked:
 * logout, password change, refresh-token reuse), or every socket of a user in a company (removed,
 * or the role changed: they may reconnect with their new rights).
 */
export type DisconnectTarget = { sessionId: string } | { sessionIds: string[] } | { userId: number; companyId: number };

export interface RealtimeHub {
  /** Route topics matching `prefix:*` (e.g. 'room') to a handler. Every join is first checked against the
   *  prefix's declared access rule (server/core/access/topics.ts). Duplicate prefixes and a missing rule fail. */
  registerChannel(prefix: string, access: TopicAccessRule, handler: ChannelHandler): void;
  /** Every registered prefix with its access rule (the generated isolation test reads it). */
  topicAccess(): { prefix: string; access: TopicAccessRule }[];
  /** Deliver an event to every socket joined to the topic, on every server process (Redis fan-out when configured). */
  broadcast(topic: string, event: string, payload: unknown): Promise<void>;
  /** Presence (Phoenix.Presence wire format: presence_state / presence_diff) for a joined channel:
   *  the joiner gets presence_state, the topic a presence_diff; untracked when the channel closes. */
  trackPresence(ctx: ChannelContext, key: string, meta: Record<string, unknown>): void;
  /** Ends every presence this channel tracks (presence_diff leaves), keeping the channel joined. */
  untrackPresence(ctx: ChannelContext): void;
  /** The presences on a topic, from every server process (Redis when configured): key → metas. */
  listPresence(topic: string): Promise<Record<string, { metas: Record<string, unknown>[] }>>;
  /** Number of sockets currently connected to this process (metrics, tests). */
  socketCount(): number;
  /**
   * Closes the target's sockets on every server process (through the fan-out) and forgets the
   * cached connect-time identity, so a reconnect is checked against the database again. Call it
   * after the change is committed. Never rejects (a fan-out failure is logged).
   */
  disconnect(target: DisconnectTarget): Promise<void>;
}
