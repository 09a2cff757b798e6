/**
 * The live inbox: rooms, messages, tags, reads; outgoing messages are handed to ./delivery.ts, customer messages to the inbound queue.
 * Every change is stored first, then announced on the realtime hub (room:{id} and page:{pageId}),
 * so a client that reconnects catches up from the database (join with last_message_id).
 */
import { ChatMembers } from './chatMembers';
import { and, asc, desc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import {
  CHAT_EVENTS,
  DELIVERY_ORDER,
  isAgentTagName,
  type DeliveryStatus,
  type Message,
  type MessageOrigin,
  type MessageType,
  type PageInfo,
  type Platform,
  type Room,
  type Tag,
  type TemplateSendPayload,
} from '../../../contract/chats';
import { isWindowClosed, WINDOW_CLOSED_REASON } from '../../../contract/channels';
import type { RoleId } from '../../../contract/permissions';
import type { Clock } from '../../core/clock';
import type { Backoff } from '../../core/jobs/backgroundJob';
import type { Database } from '../../core/db/client';
import { messages, roomReads, roomTags, rooms, tags } from '../../core/db/schema';
import type { RealtimeHub } from '../../core/realtime/types';
import { mediaUrlForCompany, storedMediaUrl } from '../../providers/storage/privateMedia';
import type { MediaStorage } from '../../providers/storage/types';
import { pageTopic, roomTopic, toMessage, type ChannelRow, type MediaUrlReader, type MessageRow, type RoomRecord } from './views';
import { ChatError } from './chatError';
import { RoomQueries, type FetchRoomsQuery } from './roomQueries';
import { inboundWaiting } from './schema';
import { OutboundDelivery, type ChannelProvider } from './delivery';
import { RoomAssignments } from './assignment';
import { AutoAssignment } from './autoAssignment';
import { RoomStatuses } from './roomStatus';
import { Notifications } from './notifications';
import { RoomNotes } from './notes';
import { MessageSearch } from './messageSearch';
import { Csat, CSAT_SENDER, csatQuestion } from './csat';
import type { RoomCounts } from '../../../contract/conversations';

export { MAX_MISSED, isPrivilegedRole, type FetchRoomsQuery } from './roomQueries';

/** What the inbox needs from the hub to announce changes. */
export type Broadcaster = Pick<RealtimeHub, 'broadcast'>;

/** The member acting (from the socket identity or the request). */
export interface ChatActor {
  userId: number;
  email: string;
  name: string;
  companyId: number;
  role: RoleId;
}

export { ChatError } from './chatError';

export type { ChannelProvider } from './delivery';

export interface OutgoingInput {
  text?: string | null;
  media_url?: string | null;
  media_type?: string | null;
  type?: MessageType;
  /** The sender's idempotency key; without one (spec §7 clients) every send stores a new message. */
  client_id?: string | null;
  /** type 'template' only: the approved WhatsApp template and its body parameters (kept in data.template). */
  template?: TemplateSendPayload | null;
}

/** The refusal of a free-form WhatsApp message outside the 24-hour window. */
export const WINDOW_CLOSED_ERRORS = { message: ['The 24-hour customer service window is closed: send an approved template instead.'] };

export { isRetryableSendError } from './delivery';

export interface InboundInput {
  /** The customer's id on the channel. */
  externalUserId: string;
  name: string;
  type: MessageType;
  text?: string | null;
  mediaUrl?: string | null;
  mediaType?: string | null;
  data?: Record<string, unknown> | null;
  clientId?: string | null;
  externalId?: string | null;
}

const STATUSES = Object.keys(DELIVERY_ORDER) as DeliveryStatus[];

export interface ChatDeps {
  db: Database;
  clock: Clock;
  /** The hub, resolved when used (it may be attached after the service is built). */
  hub: () => Broadcaster;
  /** Media storage: every message handed out carries a freshly signed URL for a private attachment. */
  storage: () => MediaStorage;
  log?: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  /**
   * Runs after each customer message is stored (a replay's too): flows, bots… answer there. The message
   * waits in `inbound_waiting` (stored with it); the pipeline runs once for it, in whichever process
   * holds the room (./inboundQueue.ts).
   */
  inboundPipeline: { run(room: RoomRecord, message: Message): Promise<void>; settled?(): Promise<void> };
  /** Checks a template message against the company's templates (the templates plugin's). */
  templateChecks: { problem(room: { companyId: number; channelId: number }, template: TemplateSendPayload, mediaUrl: string | null | undefined): Promise<string | null> };
  /** User ids with a presence on a topic, across processes (the realtime hub); absent: nobody is online (auto-assignment assigns nobody). */
  presentUsers?: (topic: string) => Promise<number[]>;
}

export class ChatService {
  private readonly inFlight = new Set<Promise<void>>();
  /** The outgoing messages' delivery, leased in the database (./delivery.ts). */
  private readonly delivery: OutboundDelivery;
  /** Tests only: false stores customer messages without running the inbound pipeline (a message no handler saw). */
  runsInboundPipeline = true;

  /** The reads (./roomQueries.ts). */
  private readonly rooms: RoomQueries;
  /** Issue #22: a room's assignee in step with its agent tags (./assignment.ts), its status and snooze (./roomStatus.ts). */
  readonly assignments: RoomAssignments;
  readonly statuses: RoomStatuses;
  /** Issue #22: auto-assignment per channel (./autoAssignment.ts). */
  readonly autoAssignment: AutoAssignment;
  /** Issue #22: members' notifications, private notes and the search of message text (./notifications.ts, ./notes.ts, ./messageSearch.ts). */
  readonly notifications: Notifications;
  readonly notes: RoomNotes;
  /** The members the inbox assigns and mentions (./chatMembers.ts). */
  readonly members: ChatMembers;
  readonly messageSearch: MessageSearch;
  /** Issue #22: the rating question sent when a room is resolved, and the ratings (./csat.ts). */
  readonly csat: Csat;

  constructor(private readonly deps: ChatDeps) {
    this.rooms = new RoomQueries(deps.db, this.message, this.mediaUrl);
    const broadcast = (topic: string, event: string, payload: unknown) => this.broadcast(topic, event, payload);
    this.members = new ChatMembers(deps.db);
    this.notifications = new Notifications({ db: deps.db, clock: deps.clock, broadcast });
    this.notes = new RoomNotes({
      db: deps.db,
      clock: deps.clock,
      message: (row) => this.message(row),
      broadcast,
      notifications: this.notifications,
      mayOpen: (member, room) => this.accessibleRoom(member, room.id).then(() => true, () => false),
    });
    this.messageSearch = new MessageSearch(deps.db);
    this.assignments = new RoomAssignments({
      db: deps.db,
      ensureTag: (companyId, name) => this.ensureTag(companyId, name),
      // Every assignment (PATCH, agent tags, bots, auto-assignment) goes through RoomAssignments.assign: the new assignee is notified there.
      assigned: ({ room, userId, byUserId }) => this.notifications.notify({ companyId: room.companyId, userId, kind: 'assigned', roomId: room.id, byUserId }).then(() => undefined),
    });
    this.csat = new Csat({ db: deps.db, clock: deps.clock });
    this.statuses = new RoomStatuses({
      db: deps.db,
      clock: deps.clock,
      assignments: this.assignments,
      announce: (roomId) => this.announceRoomInfo(roomId),
      resolved: (roomId) => this.askRating(roomId),
      log: deps.log,
    });
    this.autoAssignment = new AutoAssignment({
      db: deps.db,
      assignments: this.assignments,
      presentUsers: (topic) => deps.presentUsers?.(topic) ?? Promise.resolve([]),
      announce: (roomId) => this.announceRoomInfo(roomId),
    });
    this.delivery = new OutboundDelivery({
      db: deps.db,
      clock: deps.clock,
      log: deps.log,
      applyStatus: (messageId, status, extra) => this.applyStatus(messageId, status, extra),
      roomRecord: (roomId) => this.roomRecord(roomId),
      message: this.message,
    });
  }

  // ---------- outgoing deliveries (./delivery.ts) ----------

  /** This process's (this app's) name on the deliveries it leases. */
  get deliveryHolder(): string {
    return this.delivery.holder;
  }
  /** Retryable send errors: the next attempt waits firstMs, doubling up to maxMs (never dropped). */
  get deliveryBackoff(): Backoff {
    return this.delivery.backoff;
  }
  set deliveryBackoff(backoff: Backoff) {
    this.delivery.backoff = backoff;
  }
  /** How long a claimed send attempt keeps its message (a retry's wait comes on top). */
  get deliveryLeaseMs(): number {
    return this.delivery.leaseMs;
  }
  set deliveryLeaseMs(ms: number) {
    this.delivery.leaseMs = ms;
  }
  /** Time between the resume passes (read at start). */
  get deliveryResumeMs(): number {
    return this.delivery.resumeMs;
  }
  set deliveryResumeMs(ms: number) {
    this.delivery.resumeMs = ms;
  }

  /**
   * Hands a pending message to its channel's provider in the background; statuses follow as
   * message_status. A retryable refusal keeps it pending and tries again with back-off; any other
   * refusal marks it failed with the provider's message.
   */
  deliver(room: RoomRecord, message: Message, attempt = 0): void {
    this.delivery.deliver(room, message, attempt);
  }

  /** The resume pass: pending messages whose delivery lease ran out are handed over again. Returns how many. */
  resumePending(olderThanMs?: number): Promise<number> {
    return this.delivery.resumePending(olderThanMs);
  }

  /** A stored media URL as it is handed out: a private attachment's URL signed for the message's company, now. */
  private readonly mediaUrl: MediaUrlReader = (url, companyId) => mediaUrlForCompany(this.deps.storage(), url, companyId);

  /** A stored message as it is handed out, its media URL as `mediaUrl` gives it. */
  private readonly message = (row: MessageRow): Message => toMessage(row, this.mediaUrl);

  private get db(): Database {
    return this.deps.db;
  }

  registerProvider(platform: Platform, provider: ChannelProvider): void {
    this.delivery.providers.set(platform, provider);
  }

  /** Resolves when every delivery started so far has settled (tests, shutdown). Scheduled retries are not waited for. */
  async settled(): Promise<void> {
    // A hook after an inbound message may send (a bot's reply): its delivery is waited for too. The deliveries are
    // waited for again after the pipeline: a run that ended during its wait had started deliveries after the first
    // (a bot's reply read between its 'sent' and 'delivered' writes in a CI run), and left inFlight empty.
    for (;;) {
      await this.delivery.settled();
      await this.deps.inboundPipeline.settled?.();
      await this.delivery.settled();
      if (this.inFlight.size === 0) return;
      await Promise.allSettled([...this.inFlight]);
    }
  }

  /**
   * Start: pending messages left by a previous run or a dead process are resumed now (the first pass
   * is waited for, so its deliveries are under way when the app is ready), then every deliveryResumeMs.
   */
  startDeliveries(): Promise<void> {
    return this.delivery.start();
  }

  /**
   * Shutdown: no new retry is scheduled and the waiting ones are dropped; they stay pending and their
   * leases are let go, so the next start (or another process) takes them at once.
   */
  close(): Promise<void> {
    return this.delivery.close();
  }

  /** Messages waiting for a retry in this process (tests). */
  retriesScheduled(): number {
    return this.delivery.retriesScheduled;
  }

  private async broadcast(topic: string, event: string, payload: unknown): Promise<void> {
    try {
      await this.deps.hub().broadcast(topic, event, payload);
    } catch (err) {
      // The change is stored; a client that missed it catches up when it rejoins.
      this.deps.log?.warn({ err, topic, event }, 'chat broadcast failed');
    }
  }

  // ---------- rooms ----------

  async markRead(roomId: number, userId: number): Promise<void> {
    const [last] = await this.db.select({ id: messages.id }).from(messages).where(eq(messages.roomId, roomId)).orderBy(desc(messages.id)).limit(1);
    const lastId = last?.id ?? 0;
    await this.db
      .insert(roomReads)
      .values({ roomId, userId, lastReadMessageId: lastId })
      .onConflictDoUpdate({
        target: [roomReads.roomId, roomReads.userId],
        set: { lastReadMessageId: sql`greatest(${roomReads.lastReadMessageId}, ${lastId})` },
      });
  }

  // ---------- room changes ----------

  private async changed(roomId: number, event: string, actorUserId: number): Promise<Room> {
    const record = (await this.roomRecord(roomId))!;
    const room = await this.roomDetail(record, actorUserId);
    await this.broadcast(roomTopic(roomId), event, { room: { ...room, unread: 0 } });
    return room;
  }

  /**
   * A change of the room's status or assignee: room_info on room:{id} (the room with its newest
   * messages) and on page:{channel} (with its last message), so every list watching sees it.
   */
  async announceRoomInfo(roomId: number): Promise<void> {
    const record = await this.roomRecord(roomId);
    if (!record) return;
    const [detail, [summary]] = await Promise.all([this.roomDetail(record, null), this.roomSummaries([record], null)]);
    await this.broadcast(roomTopic(roomId), CHAT_EVENTS.roomInfo, { room: { ...detail, unread: 0 } });
    await this.broadcast(pageTopic(record.channelId), CHAT_EVENTS.roomInfo, { room: { ...summary, unread: 0 } });
  }

  /** A bot's or flow's hand-over: the room opens for a person (issue #22). */
  async handOver(room: Pick<RoomRecord, 'id'>): Promise<void> {
    await this.statuses.openForPerson(room.id);
    // A person takes over: the channel's auto-assignment (if on) picks who.
    await this.autoAssign(room.id);
  }

  /**
   * A room was resolved (issue #22): when its channel asks for ratings, the customer gets the question
   * (not on WhatsApp once the 24-hour window is closed: a free-form message cannot be sent then).
   * A failure is logged: the room stays resolved.
   */
  private async askRating(roomId: number): Promise<void> {
    try {
      const record = await this.roomRecord(roomId);
      if (!record || record.blockedAt || this.windowClosed(record)) return;
      const requestId = await this.csat.opened(roomId);
      if (requestId === null) return;
      await this.sendBotMessage(record, { ...csatQuestion(record.platform), client_id: `csat:${requestId}`, sender_name: CSAT_SENDER });
    } catch (err) {
      this.deps.log?.error({ err, roomId }, 'sending the rating question');
    }
  }

  /** Auto-assignment of a room that opened; a failure is logged (the room stays unassigned, as with nobody online). */
  private async autoAssign(roomId: number): Promise<void> {
    try {
      await this.autoAssignment.roomOpened(roomId);
    } catch (err) {
      this.deps.log?.error({ err, roomId }, 'auto-assigning a room');
    }
  }

  async setPausedUntil(actor: ChatActor, room: RoomRecord, pausedUntil: string | null): Promise<Room> {
    await this.db.update(rooms).set({ pausedUntil: pausedUntil ? new Date(pausedUntil) : null }).where(eq(rooms.id, room.id));
    return this.changed(room.id, CHAT_EVENTS.roomInfo, actor.userId);
  }

  async setBlocked(actor: ChatActor, room: RoomRecord, blocked: boolean): Promise<Room> {
    await this.db.update(rooms).set({ blockedAt: blocked ? this.deps.clock.now() : null }).where(eq(rooms.id, room.id));
    return this.changed(room.id, blocked ? CHAT_EVENTS.blockUser : CHAT_EVENTS.unblockUser, actor.userId);
  }

  /** The company's tag of that name (case-insensitive), created on first use. */
  async ensureTag(companyId: number, name: string): Promise<Tag> {
    // Agent tags are e-mail addresses: stored lower-cased like the users' e-mails.
    const clean = isAgentTagName(name.trim()) ? name.trim().toLowerCase() : name.trim();
    const find = async () => {
      const [row] = await this.db
        .select({ id: tags.id, name: tags.name })
        .from(tags)
        // lower() on both sides: JavaScript's and the database's lower-casing differ beyond ASCII (found by the fuzz: 'Ꟊ').
        .where(and(eq(tags.companyId, companyId), sql`lower(${tags.name}) = lower(${clean})`));
      return row;
    };
    const existing = await find();
    if (existing) return existing;
    await this.db.insert(tags).values({ companyId, name: clean }).onConflictDoNothing();
    return (await find())!;
  }

  async addTag(actor: ChatActor, room: RoomRecord, name: string): Promise<Room> {
    if (isAgentTagName(name.trim())) {
      // Spec §5's agent tag is the assignment (./assignment.ts): pushed like any assignment.
      await this.assignments.addAgentTag(room, name, actor.userId);
      await this.announceRoomInfo(room.id);
      return this.roomDetail((await this.roomRecord(room.id))!, actor.userId);
    }
    const tag = await this.ensureTag(actor.companyId, name);
    await this.db.insert(roomTags).values({ roomId: room.id, tagId: tag.id }).onConflictDoNothing();
    return this.changed(room.id, CHAT_EVENTS.roomInfo, actor.userId);
  }

  async removeTag(actor: ChatActor, room: RoomRecord, name: string): Promise<Room> {
    if (isAgentTagName(name.trim())) {
      await this.assignments.removeAgentTag(room, name);
      await this.announceRoomInfo(room.id);
      return this.roomDetail((await this.roomRecord(room.id))!, actor.userId);
    }
    const matching = this.db
      .select({ id: tags.id })
      .from(tags)
      .where(and(eq(tags.companyId, actor.companyId), sql`lower(${tags.name}) = ${name.trim().toLowerCase()}`));
    await this.db.delete(roomTags).where(and(eq(roomTags.roomId, room.id), inArray(roomTags.tagId, matching)));
    return this.changed(room.id, CHAT_EVENTS.roomInfo, actor.userId);
  }

  // ---------- messages ----------

  /**
   * Stores one message idempotently (same client_id in the same room → the stored one, created false)
   * and moves the room's last activity.
   */
  private async storeMessage(values: typeof messages.$inferInsert): Promise<{ row: MessageRow; created: boolean }> {
    const [inserted] = await this.db.insert(messages).values(values).onConflictDoNothing().returning();
    if (!inserted) {
      const [existing] = await this.db
        .select()
        .from(messages)
        .where(and(eq(messages.roomId, values.roomId), eq(messages.clientId, values.clientId!)));
      if (!existing) throw new Error('message conflict without a stored message');
      return { row: existing, created: false };
    }
    await this.db
      .update(rooms)
      .set({ lastMessageAt: sql`greatest(coalesce(${rooms.lastMessageAt}, ${inserted.createdAt}), ${inserted.createdAt})` })
      .where(eq(rooms.id, inserted.roomId));
    return { row: inserted, created: true };
  }

  /** WhatsApp's 24-hour customer-service window is closed (or was never opened) for free-form messages. */
  windowClosed(room: Pick<RoomRecord, 'platform' | 'lastInboundAt'>): boolean {
    return isWindowClosed({ platform: room.platform, last_inbound_at: room.lastInboundAt ? room.lastInboundAt.toISOString() : null }, this.deps.clock.now().getTime());
  }

  private agentMessage(actor: ChatActor, room: RoomRecord, input: OutgoingInput): typeof messages.$inferInsert {
    return {
      companyId: room.companyId,
      roomId: room.id,
      origin: 'agent',
      type: input.type ?? (input.media_url ? 'image' : 'text'),
      text: input.text ?? null,
      // Our own media is stored by its plain URL (a signed one handed back loses its signature).
      mediaUrl: storedMediaUrl(this.deps.storage(), input.media_url),
      mediaType: input.media_type ?? null,
      data: input.type === 'template' && input.template ? { template: input.template } : null,
      status: 'pending',
      ...this.delivery.newLease(),
      clientId: input.client_id ?? null,
      senderUserId: actor.userId,
      senderName: actor.name,
      createdAt: this.deps.clock.now(),
    };
  }

  private async announceMessage(message: Message, pageId: number, onPage = true): Promise<void> {
    await this.broadcast(roomTopic(message.room_id), CHAT_EVENTS.newMessage, message);
    if (onPage) await this.broadcast(pageTopic(pageId), CHAT_EVENTS.newMessage, { room_id: message.room_id, message });
  }

  /** send_message: stored first (idempotent on client_id when the client gives one), announced, then handed to the channel. */
  async sendMessage(actor: ChatActor, room: RoomRecord, input: OutgoingInput): Promise<{ message: Message; created: boolean }> {
    if (room.blockedAt) throw new ChatError('blocked');
    if (input.type === 'template') {
      if (!input.template) throw new ChatError('invalid payload', { template: ['This field is required.'] });
      if (room.platform !== 'whatsapp' && room.platform !== 'sandbox') throw new ChatError('invalid payload', { template: ['Templates can only be sent on WhatsApp.'] });
      const problem = await this.deps.templateChecks.problem(room, input.template, input.media_url);
      if (problem) throw new ChatError('invalid payload', { template: [problem] });
    } else if (!input.text?.trim() && !input.media_url?.trim()) {
      throw new ChatError('invalid payload', { message: ['A text or a media_url is required.'] });
    }
    if (input.type !== 'template' && this.windowClosed(room)) {
      // A resend of a message stored while the window was open still answers the stored one.
      const [existing] = input.client_id
        ? await this.db
            .select()
            .from(messages)
            .where(and(eq(messages.roomId, room.id), eq(messages.clientId, input.client_id)))
        : [];
      if (existing) return { message: this.message(existing), created: false };
      throw new ChatError(WINDOW_CLOSED_REASON, WINDOW_CLOSED_ERRORS);
    }
    const { row, created } = await this.storeMessage(this.agentMessage(actor, room, input));
    const message = this.message(row);
    if (created) {
      await this.markRead(room.id, actor.userId);
      await this.announceMessage(message, room.channelId);
      this.deliver(room, message);
    }
    return { message, created };
  }

  /** A bot's message (origin bot): stored idempotently on client_id, then announced and delivered like an agent's. */
  async sendBotMessage(
    room: RoomRecord,
    input: Omit<OutgoingInput, 'template'> & { data?: Record<string, unknown> | null; sender_name: string },
  ): Promise<{ message: Message; created: boolean }> {
    const { row, created } = await this.storeMessage({
      companyId: room.companyId,
      roomId: room.id,
      origin: 'bot' satisfies MessageOrigin,
      type: input.type ?? (input.media_url ? 'image' : 'text'),
      text: input.text ?? null,
      mediaUrl: storedMediaUrl(this.deps.storage(), input.media_url),
      mediaType: input.media_type ?? null,
      data: input.data ?? null,
      status: 'pending',
      ...this.delivery.newLease(),
      clientId: input.client_id ?? null,
      senderName: input.sender_name,
      createdAt: this.deps.clock.now(),
    });
    const message = this.message(row);
    if (created) {
      await this.announceMessage(message, room.channelId);
      this.deliver(room, message);
    }
    return { message, created };
  }

  private track(run: Promise<void>): void {
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }


  /**
   * Moves a message's delivery status forward only (contract DELIVERY_ORDER): a status at or
   * behind the current one is ignored. Broadcasts message_status when it moved; returns the message then.
   */
  async applyStatus(messageId: number, status: DeliveryStatus, extra: { error?: string; externalId?: string } = {}): Promise<Message | null> {
    const behind = STATUSES.filter((s) => DELIVERY_ORDER[s] < DELIVERY_ORDER[status]);
    const [row] = await this.db
      .update(messages)
      .set({
        status,
        ...(status === 'failed' ? { error: extra.error ?? 'Delivery failed.' } : {}),
        ...(extra.externalId ? { externalId: extra.externalId } : {}),
      })
      .where(and(eq(messages.id, messageId), inArray(messages.status, behind)))
      .returning();
    if (!row) return null;
    const message = this.message(row);
    await this.broadcast(roomTopic(row.roomId), CHAT_EVENTS.messageStatus, message);
    return message;
  }

  /** A provider's status report by its message id (webhooks). */
  async applyStatusByExternalId(channelId: number, externalId: string, status: DeliveryStatus, error?: string): Promise<Message | null> {
    const [row] = await this.db
      .select({ id: messages.id })
      .from(messages)
      .innerJoin(rooms, eq(rooms.id, messages.roomId))
      .where(and(eq(rooms.channelId, channelId), eq(messages.externalId, externalId)));
    return row ? this.applyStatus(row.id, status, { error }) : null;
  }

  /**
   * Messenger/Instagram delivery and read watermarks: every outgoing message of the customer's room
   * created at or before the watermark moves forward to `status` (never back; pending and failed
   * ones are left alone). Broadcasts message_status for each; returns the changed messages.
   */
  async applyWatermark(channelId: number, customerExternalId: string, status: 'delivered' | 'read', watermark: Date): Promise<Message[]> {
    const room = await this.roomByCustomer(channelId, customerExternalId);
    if (!room) return [];
    const behind = status === 'read' ? ['sent', 'delivered'] : ['sent'];
    const rows = await this.db
      .update(messages)
      .set({ status })
      .where(
        and(
          eq(messages.roomId, room.id),
          ne(messages.origin, 'user'),
          inArray(messages.status, behind),
          sql`${messages.createdAt} <= ${watermark.toISOString()}::timestamptz`,
        ),
      )
      .returning();
    const changed = rows.sort((a, b) => a.id - b.id).map(this.message);
    for (const message of changed) await this.broadcast(roomTopic(room.id), CHAT_EVENTS.messageStatus, message);
    return changed;
  }

  /** The customer read the conversation: every outgoing message sent or delivered becomes read. */
  async markReadByCustomer(roomId: number): Promise<Message[]> {
    const rows = await this.db
      .update(messages)
      .set({ status: 'read' })
      .where(and(eq(messages.roomId, roomId), ne(messages.origin, 'user'), inArray(messages.status, ['sent', 'delivered'])))
      .returning();
    const changed = rows.sort((a, b) => a.id - b.id).map(this.message);
    for (const message of changed) await this.broadcast(roomTopic(roomId), CHAT_EVENTS.messageStatus, message);
    return changed;
  }

  /** The room of a customer on a channel, created (name given) on first contact. */
  private async ensureRoom(channel: ChannelRow, externalUserId: string, name: string): Promise<{ record: RoomRecord; created: boolean }> {
    const [inserted] = await this.db
      .insert(rooms)
      .values({ companyId: channel.companyId, channelId: channel.id, externalId: externalUserId, name, createdAt: this.deps.clock.now() })
      .onConflictDoNothing()
      .returning({ id: rooms.id });
    if (inserted) return { record: (await this.roomRecord(inserted.id))!, created: true };
    const [existing] = await this.db
      .select({ id: rooms.id })
      .from(rooms)
      .where(and(eq(rooms.channelId, channel.id), eq(rooms.externalId, externalUserId)));
    return { record: (await this.roomRecord(existing.id))!, created: false };
  }

  private async announceNewRoom(record: RoomRecord): Promise<Room> {
    const [room] = await this.roomSummaries([(await this.roomRecord(record.id))!], null);
    await this.broadcast(pageTopic(record.channelId), CHAT_EVENTS.newRoom, { room });
    return room;
  }

  /**
   * create_new_chat_room: the customer's room on the channel (existing or new), the messages
   * stored as agent messages and sent. A new room is announced with new_room, messages into an existing one with new_message.
   */
  async createRoom(
    actor: ChatActor,
    channel: ChannelRow,
    input: { user_id: string; name: string; messages: { text: string; client_id: string }[] },
  ): Promise<Room> {
    if (input.messages.length > 0 && channel.platform === 'whatsapp') {
      // A customer who never wrote (or not within 24 h) can only be reached with a template.
      const existing = await this.roomByCustomer(channel.id, input.user_id);
      if (!existing || this.windowClosed(existing)) throw new ChatError(WINDOW_CLOSED_REASON, WINDOW_CLOSED_ERRORS);
    }
    const { record, created } = await this.ensureRoom(channel, input.user_id, input.name);
    if (record.blockedAt && input.messages.length > 0) throw new ChatError('blocked');
    const stored: Message[] = [];
    for (const m of input.messages) {
      const { row, created: isNew } = await this.storeMessage(this.agentMessage(actor, record, { text: m.text, client_id: m.client_id, type: 'text' }));
      if (isNew) stored.push(this.message(row));
    }
    if (created) await this.announceNewRoom(record);
    else for (const message of stored) await this.announceMessage(message, record.channelId);
    for (const message of stored) this.deliver(record, message);
    return this.roomDetail((await this.roomRecord(record.id))!, actor.userId);
  }

  /**
   * Stores a customer's message idempotently (same client_id in the room → the stored one, created
   * false) in one transaction with its row waiting for the inbound pipeline and the room's activity.
   * The room row is locked first, so a room's customer messages get their ids in commit order: the
   * pipeline, which takes them in id order, never finds a message older than one it answered.
   */
  private async storeInbound(values: typeof messages.$inferInsert): Promise<{ row: MessageRow; created: boolean; rated?: MessageRow }> {
    return this.db.transaction(async (tx) => {
      await tx.select({ id: rooms.id }).from(rooms).where(eq(rooms.id, values.roomId)).for('update');
      const [inserted] = await tx.insert(messages).values(values).onConflictDoNothing().returning();
      if (!inserted) {
        const [existing] = await tx
          .select()
          .from(messages)
          .where(and(eq(messages.roomId, values.roomId), eq(messages.clientId, values.clientId!)));
        if (!existing) throw new Error('message conflict without a stored message');
        return { row: existing, created: false };
      }
      // A rating of the room's open CSAT question (issue #22) is stored with its event row and never queued:
      // it neither re-opens the room nor reaches flows or bots.
      const rating = await this.csat.takeReply(tx, { id: inserted.roomId, companyId: inserted.companyId }, inserted);
      let rated: MessageRow | undefined;
      if (rating) {
        [rated] = await tx
          .insert(messages)
          .values({
            companyId: inserted.companyId,
            roomId: inserted.roomId,
            origin: 'system' satisfies MessageOrigin,
            type: 'text',
            text: `Rated ${rating.rating}/5`,
            data: { csat: { rating: rating.rating } },
            clientId: `csat:${rating.requestId}:rating`,
            createdAt: inserted.createdAt,
          })
          .returning();
      } else if (this.runsInboundPipeline) {
        await tx.insert(inboundWaiting).values({ messageId: inserted.id, roomId: inserted.roomId, createdAt: inserted.createdAt }).onConflictDoNothing();
      }
      await tx
        .update(rooms)
        .set({
          lastMessageAt: sql`greatest(coalesce(${rooms.lastMessageAt}, ${inserted.createdAt}), ${inserted.createdAt})`,
          lastInboundAt: sql`greatest(coalesce(${rooms.lastInboundAt}, ${inserted.createdAt}), ${inserted.createdAt})`,
        })
        .where(eq(rooms.id, inserted.roomId));
      return { row: inserted, created: true, rated };
    });
  }

  /** A waiting customer message as the inbound pipeline's handlers get it: its room as it is now (null: gone). */
  async inboundMessage(messageId: number): Promise<{ room: RoomRecord; message: Message } | null> {
    const [row] = await this.db.select().from(messages).where(eq(messages.id, messageId));
    if (!row) return null;
    const room = await this.roomRecord(row.roomId);
    return room ? { room, message: this.message(row) } : null;
  }

  /**
   * A customer's message arriving from a channel: the room is created on first contact (new_room
   * on the page), the message stored idempotently (client_id or provider id) and announced.
   */
  async receiveInbound(channel: ChannelRow, input: InboundInput): Promise<{ room: RoomRecord; message: Message; created: boolean; roomCreated: boolean }> {
    const { record, created: roomCreated } = await this.ensureRoom(channel, input.externalUserId, input.name);
    if (record.blockedAt) throw new ChatError('blocked');
    const { row, created, rated } = await this.storeInbound({
      companyId: channel.companyId,
      roomId: record.id,
      origin: 'user' satisfies MessageOrigin,
      type: input.type,
      text: input.text ?? null,
      mediaUrl: storedMediaUrl(this.deps.storage(), input.mediaUrl),
      mediaType: input.mediaType ?? null,
      data: input.data ?? null,
      clientId: input.clientId ?? null,
      externalId: input.externalId ?? null,
      senderName: input.name,
      createdAt: this.deps.clock.now(),
    });
    const message = this.message(row);
    if (created && rated) {
      // A CSAT rating: the message and its event row, the room left as it is (resolved).
      await this.announceMessage(message, channel.id);
      await this.announceMessage(this.message(rated), channel.id);
    } else if (created) {
      // A customer message re-opens a resolved, snoozed or pending room (issue #22), pushed before the message so lists know where it belongs.
      const reopened = !roomCreated && (await this.statuses.reopenOnCustomerMessage(record.id));
      // A new room carries its first message (and unread count) in new_room; the page needs no new_message then.
      if (roomCreated) await this.announceNewRoom(record);
      await this.announceMessage(message, channel.id, !roomCreated);
      // The room opened (new, or re-opened): the channel's auto-assignment, in the background (settled() waits for it).
      if (roomCreated || reopened) this.track(this.autoAssign(record.id));
    }
    // In the background (waited for by settled()). A replay adds no waiting row: this only lends a hand
    // with what still waits (its own message, if the process that stored it died before the pipeline ran).
    if (this.runsInboundPipeline) {
      this.track(this.deps.inboundPipeline.run(record, message).catch((err) => this.deps.log?.error({ err, roomId: record.id }, 'after an inbound message')));
    }
    return { room: record, message, created, roomCreated };
  }

  // ---------- what the channel reports besides messages (issue #25, contract/customerEvents.ts) ----------

  /**
   * A customer's reaction, stored on the message it reacts to in that customer's room (found by the provider's
   * id, or by the client id an inbound message was stored under): data.reaction is the emoji (null once removed)
   * and data.reaction_at its time, so a replay, or an older reaction arriving after a newer one, changes nothing.
   * A change is pushed as message_status (the console merges the whole message). Null: no such message in the
   * room, or the customer is blocked (their reactions are dropped like their messages).
   */
  async applyReaction(
    channelId: number,
    customerExternalId: string,
    target: { externalId: string; clientId: string },
    emoji: string | null,
    at: Date,
  ): Promise<{ message: Message; changed: boolean } | null> {
    const room = await this.roomByCustomer(channelId, customerExternalId);
    if (!room || room.blockedAt) return null;
    const [row] = await this.db
      .select()
      .from(messages)
      .where(and(eq(messages.roomId, room.id), or(eq(messages.externalId, target.externalId), eq(messages.clientId, target.clientId))))
      .orderBy(asc(messages.id))
      .limit(1);
    if (!row) return null;
    const iso = at.toISOString();
    const storedAt = sql`${messages.data}->>'reaction_at'`;
    const [updated] = await this.db
      .update(messages)
      .set({ data: sql`coalesce(${messages.data}, '{}'::jsonb) || jsonb_build_object('reaction', ${emoji}::text, 'reaction_at', ${iso}::text)` })
      .where(
        and(
          eq(messages.id, row.id),
          // ISO times of one format compare as text; at the same second the latest event processed wins.
          sql`(${storedAt} is null or ${storedAt} < ${iso} or (${storedAt} = ${iso} and ${messages.data}->>'reaction' is distinct from ${emoji}::text))`,
        ),
      )
      .returning();
    if (!updated) return { message: this.message(row), changed: false };
    const message = this.message(updated);
    await this.broadcast(roomTopic(room.id), CHAT_EVENTS.messageStatus, message);
    return { message, changed: true };
  }

  /**
   * A line the channel adds to a customer's room (origin 'system', rendered by the console from its data: a
   * message the channel cannot show, a number change), stored idempotently on clientId and announced like a
   * message. Never queued for the inbound pipeline: bots and flows have nothing to answer. `fromCustomer`: the
   * customer did write (it opens the room when needed, re-opens a resolved one, counts for the 24-hour window;
   * a blocked customer's is dropped). Null when there is no room for it (`createRoom` false) or it is dropped.
   */
  async receiveSystemLine(
    channel: ChannelRow,
    input: { externalUserId: string; name: string; text: string; data: Record<string, unknown>; clientId: string; fromCustomer: boolean },
  ): Promise<{ room: RoomRecord; message: Message; created: boolean } | null> {
    let record: RoomRecord | null;
    let roomCreated = false;
    if (input.fromCustomer) ({ record, created: roomCreated } = await this.ensureRoom(channel, input.externalUserId, input.name));
    else record = await this.roomByCustomer(channel.id, input.externalUserId);
    if (!record || (input.fromCustomer && record.blockedAt)) return null;
    const room = record;
    const { row, created } = await this.db.transaction(async (tx) => {
      await tx.select({ id: rooms.id }).from(rooms).where(eq(rooms.id, room.id)).for('update');
      const [inserted] = await tx
        .insert(messages)
        .values({ companyId: room.companyId, roomId: room.id, origin: 'system' satisfies MessageOrigin, type: 'text', text: input.text, data: input.data, clientId: input.clientId, createdAt: this.deps.clock.now() })
        .onConflictDoNothing()
        .returning();
      if (!inserted) {
        const [existing] = await tx.select().from(messages).where(and(eq(messages.roomId, room.id), eq(messages.clientId, input.clientId)));
        if (!existing) throw new Error('message conflict without a stored message');
        return { row: existing, created: false };
      }
      await tx
        .update(rooms)
        .set({
          lastMessageAt: sql`greatest(coalesce(${rooms.lastMessageAt}, ${inserted.createdAt}), ${inserted.createdAt})`,
          ...(input.fromCustomer ? { lastInboundAt: sql`greatest(coalesce(${rooms.lastInboundAt}, ${inserted.createdAt}), ${inserted.createdAt})` } : {}),
        })
        .where(eq(rooms.id, room.id));
      return { row: inserted, created: true };
    });
    const message = this.message(row);
    if (created) {
      const reopened = input.fromCustomer && !roomCreated && (await this.statuses.reopenOnCustomerMessage(room.id));
      if (roomCreated) await this.announceNewRoom(room);
      await this.announceMessage(message, channel.id, !roomCreated);
      if (roomCreated || reopened) this.track(this.autoAssign(room.id));
    }
    return { room, message, created };
  }

  /**
   * A WhatsApp customer changed their number: a system line in their room, then the room follows the new
   * number, so their next messages (from the new number) land in the same conversation with its history,
   * and replies, broadcasts and the contact reach the number they use now (the old one may be given to
   * someone else). Not when the new number already has a room (it wrote before the change reached us):
   * the two conversations stay as they are, the line tells the agent. The room's name follows too when it
   * was the number itself. Null when the old number has no room.
   */
  async customerChangedNumber(channel: ChannelRow, input: { externalUserId: string; newId: string; text: string; data: Record<string, unknown>; clientId: string }): Promise<{ room: RoomRecord; moved: boolean } | null> {
    const stored = await this.receiveSystemLine(channel, { ...input, name: input.externalUserId, fromCustomer: false });
    if (!stored) return null;
    const taken = this.db.select({ id: rooms.id }).from(rooms).where(and(eq(rooms.channelId, channel.id), eq(rooms.externalId, input.newId)));
    const moved = await this.db
      .update(rooms)
      .set({
        externalId: input.newId,
        name: sql`case when ${rooms.name} = ${input.externalUserId} then ${input.newId} else ${rooms.name} end`,
      })
      .where(and(eq(rooms.id, stored.room.id), eq(rooms.externalId, input.externalUserId), sql`not exists (${taken})`))
      .returning({ id: rooms.id });
    if (moved.length) await this.announceRoomInfo(stored.room.id);
    return { room: stored.room, moved: moved.length > 0 };
  }

  // ---------- reads (./roomQueries.ts) ----------

  agentFeature(companyId: number): Promise<boolean> {
    return this.rooms.agentFeature(companyId);
  }
  restrictedEmail(actor: Pick<ChatActor, 'companyId' | 'role' | 'email'>): Promise<string | null> {
    return this.rooms.restrictedEmail(actor);
  }
  listPages(companyId: number): Promise<PageInfo[]> {
    return this.rooms.listPages(companyId);
  }
  channel(companyId: number, channelId: number): Promise<ChannelRow | null> {
    return this.rooms.channel(companyId, channelId);
  }
  roomRecord(roomId: number): Promise<RoomRecord | null> {
    return this.rooms.roomRecord(roomId);
  }
  accessibleRoom(actor: ChatActor, roomId: number): Promise<RoomRecord> {
    return this.rooms.accessibleRoom(actor, roomId);
  }
  roomSummaries(records: RoomRecord[], userId: number | null): Promise<Room[]> {
    return this.rooms.roomSummaries(records, userId);
  }
  roomDetail(record: RoomRecord, userId: number | null, includeNotes = false): Promise<Room> {
    return this.rooms.roomDetail(record, userId, includeNotes);
  }
  fetchRooms(actor: ChatActor, pageId: number | null, query: FetchRoomsQuery): Promise<Room[]> {
    return this.rooms.fetchRooms(actor, pageId, query);
  }
  countRooms(actor: ChatActor, pageId: number | null, query: Omit<FetchRoomsQuery, 'page'>): Promise<number> {
    return this.rooms.countRooms(actor, pageId, query);
  }
  roomCounts(actor: ChatActor, pages?: number[]): Promise<RoomCounts> {
    return this.rooms.roomCounts(actor, pages);
  }
  openRoom(actor: ChatActor, room: RoomRecord, lastMessageId: number | null | undefined, includeNotes = false): Promise<{ room: Room; missed: Message[] }> {
    return this.rooms.openRoom(actor, room, lastMessageId, includeNotes);
  }
  olderMessages(roomId: number, before: { timestamp?: string | null; id?: number | null }, includeNotes = false): Promise<{ messages: Message[]; has_more: boolean }> {
    return this.rooms.olderMessages(roomId, before, includeNotes);
  }
  listTags(actor: ChatActor): Promise<Tag[]> {
    return this.rooms.listTags(actor);
  }
  messagesAfter(roomId: number, afterId: number, limit?: number): Promise<Message[]> {
    return this.rooms.messagesAfter(roomId, afterId, limit);
  }
  roomByCustomer(channelId: number, externalUserId: string): Promise<RoomRecord | null> {
    return this.rooms.roomByCustomer(channelId, externalUserId);
  }
}
