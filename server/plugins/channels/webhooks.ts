/**
 * Meta's webhooks at one public endpoint, /api/webhooks/meta/ (no login):
 *   GET  the subscription handshake (hub.mode, hub.verify_token → hub.challenge);
 *   POST accepted only with a valid X-Hub-Signature-256 over the raw bytes, stored in
 *        webhook_events and answered 200 at once; processed in the background. A delivery whose
 *        bytes were already received (Meta's retries, or a captured request replayed) is answered
 *        200 too (Meta retries anything else) and stored no second time: rows are unique by the
 *        SHA-256 of the raw body.
 * Processing is durable and idempotent: events are claimed with FOR UPDATE SKIP LOCKED (several
 * processes may run), a failure counts an attempt and is retried with back-off, unprocessed events
 * are picked up at start and periodically, and replaying an event changes nothing (messages are
 * keyed by the provider's id, statuses only move forward). An event being processed is held under a
 * lease (`webhook:<id>`, Redis in a cluster, see core/jobs/leases.ts) for as long as it runs: a claim
 * does not lock the row past its statement, so an event processed for longer than its retry back-off
 * would otherwise be claimed again by another process meanwhile; that process gives the claim back.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { and, asc, eq, inArray, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { MessageType } from '../../../contract/chats';
import type { AppConfig } from '../../core/config';
import { BackgroundJob, backoffDelay, NotYetError } from '../../core/jobs/backgroundJob';
import type { Leases } from '../../core/jobs/leases';
import { messages, rooms, webhookEvents } from '../../core/db/schema';
import { GraphApiError, type InboundWebhookMessage, type ReactionWebhookEvent, type StatusWebhookEvent, type SystemWebhookEvent, type WebhookEvent } from '../../providers/meta/types';
import { parseMetaWebhook, parseTemplateWebhook, verifyMetaSignature } from '../../providers/meta/webhooks';
import { parseJsonSafely, stripNul } from '../../core/input';
import { extensionFor, type MediaStorage } from '../../providers/storage/types';
import { ChatError, isRetryableSendError, type ChatService } from '../chats';
import type { WebhookEventRegistry } from './webhookEvents';
import type { ChannelDeps, ChannelService } from './service';
import { access } from '../../core/access';
import type { ChannelRow } from './views';

export const WEBHOOK_PATH = '/api/webhooks/meta/';
export const INVALID_SIGNATURE = { detail: 'Invalid signature.', code: 'invalid_signature' } as const;

export interface WebhookDeps extends ChannelDeps {
  chats: ChatService;
  channels: ChannelService;
  storage: () => MediaStorage;
  /** The handlers other plugins registered on webhookEventsExtensionPoint. */
  events: WebhookEventRegistry;
  /** Who is processing which event, across processes. */
  leases: Leases;
}

/** The longest an event may be processed before another process may take it (a process that died holding it). */
export const WEBHOOK_LEASE_MS = 5 * 60_000;

export interface WebhookTiming {
  /** Delay before the 2nd attempt, doubling up to maxMs. */
  firstRetryMs: number;
  maxRetryMs: number;
  /** Attempts after which an event is given up (kept with its error). */
  maxAttempts: number;
  /** How often unprocessed events (and in-progress signups) are looked for. */
  sweepMs: number;
  /** Events claimed per query. */
  batchSize: number;
  /**
   * An event not processable yet (NotYetError: a status before its send's answer, which the broadcast engine
   * writes within about 100 ms) is tried again this much later by this process, the attempt not counted…
   */
  notYetRetryMs: number;
  /** …for this long after its reception; after, it counts and backs off as any failure. */
  notYetMaxMs: number;
}

export const DEFAULT_WEBHOOK_TIMING: WebhookTiming = { firstRetryMs: 5_000, maxRetryMs: 5 * 60_000, maxAttempts: 10, sweepMs: 30_000, batchSize: 20, notYetRetryMs: 500, notYetMaxMs: 60_000 };

const PLATFORM_APPS: Record<WebhookEvent['platform'], string> = { whatsapp: 'WhatsApp', messenger: 'Messenger', instagram: 'Instagram' };

const MEDIA_LABELS: Partial<Record<MessageType, string>> = { image: 'An image', video: 'A video', audio: 'An audio message', document: 'A document' };

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export class WebhookProcessor {
  timing: WebhookTiming = { ...DEFAULT_WEBHOOK_TIMING };
  /** Runs at each sweep besides the events (the plugin resumes in-progress signups there). */
  onSweep: (() => Promise<unknown>) | null = null;
  private readonly inFlight = new Set<number>();
  /** Events not processable yet, by id: when (the clock's ms) this process tries them again. */
  private readonly parked = new Map<number, number>();
  /** Passes over the pending events: at start, at each sweep (with onSweep), when an event is stored, after a failure's back-off. */
  private readonly job: BackgroundJob;

  constructor(private readonly deps: WebhookDeps) {
    this.job = new BackgroundJob({
      run: () => this.processPending(),
      intervalMs: () => this.timing.sweepMs,
      onTick: async () => this.onSweep?.(),
      whileRunning: 'rerun',
      log: deps.log,
      failureMessage: 'processing webhook events',
      tickFailureMessage: 'channels sweep',
    });
  }

  private get db() {
    return this.deps.db;
  }

  /** Delay (ms) from reception before the attempt after `attempts` claims: the sum of the back-off so far. */
  private cumulativeDelays(): number[] {
    const { firstRetryMs, maxRetryMs, maxAttempts } = this.timing;
    const delays = [0];
    for (let i = 0; i < maxAttempts; i++) delays.push(delays[i] + backoffDelay({ firstMs: firstRetryMs, maxMs: maxRetryMs }, i));
    return delays;
  }

  /**
   * Stores a delivery; null when the same raw bytes were stored before (a replay). Without
   * `rawBody` (events built in process) nothing is deduplicated.
   */
  async store(payload: unknown, rawBody?: Buffer): Promise<number | null> {
    const bodyHash = rawBody ? createHash('sha256').update(rawBody).digest('hex') : null;
    const [row] = await this.db
      .insert(webhookEvents)
      .values({ provider: 'meta', payload: payload as object, receivedAt: this.deps.clock.now(), bodyHash })
      .onConflictDoNothing({ target: [webhookEvents.provider, webhookEvents.bodyHash] })
      .returning({ id: webhookEvents.id });
    return row?.id ?? null;
  }

  /** Processes what is pending now, then at every sweep (the timer does not keep the process alive). */
  start(): void {
    this.job.start();
  }

  /** Final: no pass starts any more; the one in progress ends after its current event (see settled()). */
  stop(): void {
    this.job.stop();
  }

  /** Processes what is pending in the background (coalesced: one pass at a time, another after it if asked meanwhile). */
  kick(): void {
    this.job.trigger();
  }

  /** Resolves when the current pass (and any pass it started) is over (tests, shutdown). */
  async settled(): Promise<void> {
    await this.job.settled();
  }

  /** Claims the events due (FOR UPDATE SKIP LOCKED, counting the attempt) until none is left; returns how many were processed. */
  async processPending(): Promise<number> {
    let processed = 0;
    /** Events another process is processing: not claimed again in this pass. */
    const elsewhere = new Set<number>();
    for (;;) {
      if (this.job.isStopped) break;
      const claimed = await this.claim(elsewhere);
      if (claimed.length === 0) return processed;
      for (const event of claimed) {
        const name = `webhook:${event.id}`;
        const lease = await this.deps.leases.acquire(name, WEBHOOK_LEASE_MS);
        if (!lease) {
          // Still being processed by another process: this claim was not an attempt.
          elsewhere.add(event.id);
          await this.db.update(webhookEvents).set({ attempts: sql`greatest(0, ${webhookEvents.attempts} - 1)` }).where(eq(webhookEvents.id, event.id));
          continue;
        }
        this.inFlight.add(event.id);
        try {
          await this.processEvent(event.payload);
          await this.db.update(webhookEvents).set({ processedAt: this.deps.clock.now(), error: null }).where(eq(webhookEvents.id, event.id));
          processed++;
        } catch (err) {
          const error = errorText(err);
          const now = this.deps.clock.now().getTime();
          if (err instanceof NotYetError && now - event.receivedAt.getTime() < this.timing.notYetMaxMs) {
            // Soon processable: not an attempt (the give-up count is for failures), tried again in a moment. Another
            // process may try it meanwhile (the row is due); it parks it in turn.
            await this.db.update(webhookEvents).set({ error, attempts: sql`greatest(0, ${webhookEvents.attempts} - 1)` }).where(eq(webhookEvents.id, event.id));
            this.parked.set(event.id, now + this.timing.notYetRetryMs);
            this.deps.log.debug?.({ eventId: event.id, reason: error }, 'webhook event not processable yet, tried again shortly');
            this.job.triggerAfter(this.timing.notYetRetryMs + 10);
            continue;
          }
          await this.db.update(webhookEvents).set({ error }).where(eq(webhookEvents.id, event.id));
          if (event.attempts >= this.timing.maxAttempts) this.deps.log.error({ err, eventId: event.id }, 'webhook event given up');
          else {
            if (err instanceof NotYetError) this.deps.log.info({ eventId: event.id, attempts: event.attempts, reason: error }, 'webhook event not processable yet, will retry');
            else this.deps.log.warn({ err, eventId: event.id, attempts: event.attempts }, 'webhook event failed, will retry');
            // A little after the event is due again (claim() computes the same back-off from its reception).
            this.job.triggerAfter(backoffDelay({ firstMs: this.timing.firstRetryMs, maxMs: this.timing.maxRetryMs }, event.attempts - 1) + 50);
          }
        } finally {
          this.inFlight.delete(event.id);
          await this.deps.leases.release(name, lease).catch((err) => this.deps.log.warn({ err, eventId: event.id }, 'webhook event lease not released (it lapses by itself)'));
        }
      }
    }
    return processed;
  }

  /** The parked events still to wait for, the others forgotten. */
  private stillParked(): number[] {
    const now = this.deps.clock.now().getTime();
    for (const [id, wakeAt] of this.parked) if (wakeAt <= now) this.parked.delete(id);
    return [...this.parked.keys()];
  }

  private async claim(elsewhere: ReadonlySet<number>): Promise<{ id: number; payload: unknown; attempts: number; receivedAt: Date }[]> {
    const skip = [...this.inFlight, ...elsewhere, ...this.stillParked()];
    const delays = sql.raw(`(ARRAY[${this.cumulativeDelays().join(',')}]::float8[])`);
    const now = this.deps.clock.now().toISOString();
    const due = this.db
      .select({ id: webhookEvents.id })
      .from(webhookEvents)
      .where(
        and(
          isNull(webhookEvents.processedAt),
          eq(webhookEvents.provider, 'meta'),
          lt(webhookEvents.attempts, this.timing.maxAttempts),
          or(
            eq(webhookEvents.attempts, 0),
            sql`${webhookEvents.receivedAt} + ${delays}[${webhookEvents.attempts} + 1] * interval '1 millisecond' <= ${now}::timestamptz`,
          ),
          skip.length ? notInArray(webhookEvents.id, skip) : undefined,
        ),
      )
      .orderBy(asc(webhookEvents.id))
      .limit(this.timing.batchSize)
      .for('update', { skipLocked: true });
    const rows = await this.db
      .update(webhookEvents)
      .set({ attempts: sql`${webhookEvents.attempts} + 1` })
      .where(inArray(webhookEvents.id, due))
      .returning({ id: webhookEvents.id, payload: webhookEvents.payload, attempts: webhookEvents.attempts, receivedAt: webhookEvents.receivedAt });
    return rows.sort((a, b) => a.id - b.id);
  }

  /** One stored payload: every event in it, in order. Throws to have the whole payload retried (each part is idempotent). */
  async processEvent(payload: unknown): Promise<void> {
    const cache = new Map<string, ChannelRow | null>();
    if (this.deps.events.hasTemplateHandlers) for (const event of parseTemplateWebhook(payload)) await this.deps.events.templateEvent(event);
    for (const event of parseMetaWebhook(payload)) {
      const key = `${event.platform}:${event.channelExternalId}`;
      if (!cache.has(key)) cache.set(key, await this.deps.channels.activeChannel(event.platform, event.channelExternalId));
      const channel = cache.get(key);
      if (!channel) {
        this.deps.log.info({ platform: event.platform, externalId: event.channelExternalId }, 'webhook event for no active channel, ignored');
        continue;
      }
      await this.apply(channel, event);
    }
  }

  private async apply(channel: ChannelRow, event: WebhookEvent): Promise<void> {
    if (event.kind === 'message') await this.inbound(channel, event);
    else if (event.kind === 'user_preference') await this.deps.events.userPreference(channel, event);
    else if (event.kind === 'reaction') await this.reaction(channel, event);
    else if (event.kind === 'system') await this.system(channel, event);
    else await this.status(channel, event);
  }

  /** Issue #25: the customer's reaction, on the message it reacts to (ours by its provider id, theirs by `meta:{mid}`). */
  private async reaction(channel: ChannelRow, event: ReactionWebhookEvent): Promise<void> {
    const applied = await this.deps.chats.applyReaction(channel.id, event.customerId, { externalId: event.targetId, clientId: `meta:${event.targetId}` }, event.emoji, new Date(event.timestamp));
    // Logged, never thrown: a throw would have Meta's delivery retried for days over a message we never had
    // (sent before the channel was connected here, or from the WhatsApp Business app).
    if (!applied) this.deps.log.info({ platform: event.platform, channelId: channel.id, target: event.targetId }, 'reaction to an unknown message (or of a blocked customer), ignored');
  }

  /** Issue #25: a line of the channel's own in the customer's room (contract/customerEvents.ts); never handed to bots or flows. */
  private async system(channel: ChannelRow, event: SystemWebhookEvent): Promise<void> {
    const clientId = `meta:${event.messageId}`;
    if (event.system === 'number_changed' && event.newId) {
      const changed = await this.deps.chats.customerChangedNumber(channel, {
        externalUserId: event.customerId,
        newId: event.newId,
        text: `The customer changed their number to +${event.newId}`,
        data: { system: 'number_changed', new_id: event.newId },
        clientId,
      });
      if (!changed) this.deps.log.info({ channelId: channel.id }, 'number change of a customer without a conversation, ignored');
      return;
    }
    const app = PLATFORM_APPS[event.platform];
    let name = event.customerName || event.customerId;
    if (name === event.customerId && event.platform !== 'whatsapp' && !(await this.deps.chats.roomByCustomer(channel.id, event.customerId))) {
      name = (await this.profileName(channel, event)) ?? name;
    }
    await this.deps.chats.receiveSystemLine(channel, {
      externalUserId: event.customerId,
      name,
      text: `The customer sent a message this channel cannot show (see it in the ${app} app)`,
      data: { system: 'unsupported', platform: event.platform, ...(event.detail ? { detail: event.detail } : {}) },
      clientId,
      fromCustomer: true,
    });
  }

  private async status(channel: ChannelRow, event: StatusWebhookEvent): Promise<void> {
    if (event.watermark && event.status !== 'sent' && event.status !== 'failed') {
      await this.deps.chats.applyWatermark(channel.id, event.recipientId, event.status, new Date(event.watermark));
    } else if (event.messageId) {
      await this.deps.chats.applyStatusByExternalId(channel.id, event.messageId, event.status, event.error ?? undefined);
    }
    await this.deps.events.messageStatus(channel, event);
  }

  private async inbound(channel: ChannelRow, event: InboundWebhookMessage): Promise<void> {
    const clientId = `meta:${event.messageId}`;
    // Already stored (a replay, or a retry after a later part failed): nothing to download again.
    const [stored] = await this.db
      .select({ id: messages.id })
      .from(messages)
      .innerJoin(rooms, eq(rooms.id, messages.roomId))
      .where(and(eq(rooms.channelId, channel.id), eq(messages.clientId, clientId)))
      .limit(1);
    if (stored) return;
    await this.deps.events.inboundMessage(channel, event);
    const existingRoom = await this.deps.chats.roomByCustomer(channel.id, event.customerId);
    if (existingRoom?.blockedAt) return;

    let { type, text, data } = event;
    let mediaUrl = event.mediaUrl;
    let mediaType = event.mediaType;
    if (event.mediaId) {
      const media = await this.download(channel, event);
      if (media.ok) {
        mediaUrl = media.url;
        mediaType = media.mimeType;
      } else {
        // Kept, with a note in place of the attachment.
        const note = `${MEDIA_LABELS[type] ?? 'An attachment'} was received but could not be shown (${media.reason}).`;
        data = { ...(data ?? {}), attachment: { type, mime_type: event.mediaType, media_id: event.mediaId } };
        text = text ? `${text}\n${note}` : note;
        type = 'text';
        mediaUrl = null;
        mediaType = null;
      }
    }
    // Messenger and Instagram webhooks carry the customer's id only: a new conversation gets their name from
    // the User Profile API (issue #23), else keeps the id.
    let name = event.customerName || event.customerId;
    if (!existingRoom && name === event.customerId && event.platform !== 'whatsapp') name = (await this.profileName(channel, event)) ?? name;
    try {
      await this.deps.chats.receiveInbound(channel, {
        externalUserId: event.customerId,
        name,
        type,
        text,
        mediaUrl,
        mediaType,
        data,
        clientId,
        externalId: event.messageId,
      });
    } catch (err) {
      // A blocked customer's messages are dropped.
      if (err instanceof ChatError && err.reason === 'blocked') return;
      throw err;
    }
  }

  private async profileName(channel: ChannelRow, event: Pick<InboundWebhookMessage, 'customerId' | 'platform'>): Promise<string | null> {
    const token = this.deps.channels.tokenOf(channel);
    if (!token || event.platform === 'whatsapp') return null;
    try {
      return (await this.deps.graph().userProfile(event.customerId, token, event.platform)).name;
    } catch {
      return null; // withheld (no permission, the customer's privacy settings) or Meta unreachable: the id will do
    }
  }

  /** WhatsApp media: downloaded with the channel token and stored; unsupported or gone → a reason (anything temporary throws for a retry). */
  private async download(channel: ChannelRow, event: InboundWebhookMessage): Promise<{ ok: true; url: string; mimeType: string } | { ok: false; reason: string }> {
    const token = this.deps.channels.tokenOf(channel);
    if (!token) return { ok: false, reason: 'the channel has no access token' };
    let media: { bytes: Buffer; mimeType: string };
    try {
      media = await this.deps.graph().downloadMedia(event.mediaId!, token);
    } catch (err) {
      if (err instanceof GraphApiError && !isRetryableSendError(err)) return { ok: false, reason: 'it could not be downloaded' };
      throw err;
    }
    const mimeType = media.mimeType.split(';')[0].trim().toLowerCase();
    const ext = extensionFor(mimeType);
    if (!ext) return { ok: false, reason: `unsupported type ${mimeType || 'unknown'}` };
    // Under the company's private chat prefix, like the console's uploads: served only with a signed URL.
    const saved = await this.deps.storage().put(`chats/${channel.companyId}/inbound/${randomUUID()}.${ext}`, media.bytes, mimeType);
    return { ok: true, url: saved.url, mimeType };
  }
}

/**
 * The webhook routes, in their own encapsulated plugin: JSON bodies are kept as raw bytes here
 * only (the signature is computed over them), every other route keeps the normal JSON parser.
 */
export function webhookRoutes(processor: WebhookProcessor, config: AppConfig) {
  return async function metaWebhooks(app: FastifyInstance): Promise<void> {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    // Meta's subscription handshake: answered only with our verify token.
    app.get<{ Querystring: Record<string, string | undefined> }>(WEBHOOK_PATH, { config: { access: access.signedWebhook('Meta subscription handshake: hub.verify_token must match') } }, async (request, reply) => {
      const q = request.query;
      const token = q['hub.verify_token'] ?? '';
      if (q['hub.mode'] === 'subscribe' && constantTimeEqual(token, config.meta.verifyToken) && typeof q['hub.challenge'] === 'string') {
        return reply.code(200).type('text/plain; charset=utf-8').send(q['hub.challenge']);
      }
      return reply.code(403).send({ detail: 'Verification failed.', code: 'verification_failed' });
    });

    app.post(WEBHOOK_PATH, { config: { access: access.signedWebhook('Meta deliveries: X-Hub-Signature-256 over the raw body') } }, async (request, reply) => {
      const raw = request.body;
      const header = request.headers['x-hub-signature-256'];
      if (!Buffer.isBuffer(raw) || !verifyMetaSignature(raw, Array.isArray(header) ? header[0] : header, config.meta.appSecret)) {
        return reply.code(401).send(INVALID_SIGNATURE);
      }
      let payload: unknown;
      try {
        // Same depth limit as every body; NULs stripped (PostgreSQL cannot store them, and refusing would make Meta retry forever).
        payload = stripNul(parseJsonSafely(raw.toString('utf8')));
      } catch {
        return reply.code(400).send({ detail: 'Invalid JSON.', code: 'parse_error' });
      }
      // A replay is acknowledged like the first delivery, and changes nothing.
      if ((await processor.store(payload, raw)) !== null) processor.kick();
      return reply.code(200).send({ received: true });
    });
  };
}

function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  if (x.length !== y.length || x.length === 0) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}
