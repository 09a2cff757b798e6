/**
 * What the fake Meta's route groups share: the store, the options, and the webhook side — status
 * changes of sent messages posted as Meta would (WhatsApp statuses, Messenger delivery/read
 * watermarks, Instagram read receipts), immediately or a little later like the real network.
 */
import type { FakeMessage, FakeMetaStore } from './fakeMetaStore';
import { deliverWebhook, messagingPayload, whatsAppStatusPayload, type WebhookDeliveryResult, type WebhookTarget } from './fakeMetaWebhooks';

export interface FakeMetaOptions {
  appId: string;
  appSecret: string;
  /** The version the adapter is configured with; any vNN.N path is answered, as Meta does for supported versions. */
  graphVersion?: string;
  /** Where webhooks go; a function is read at each delivery (the main app knows its port only once listening). */
  webhookUrl?: WebhookTarget;
  /** JSON file keeping the fake's accounts and tokens across restarts. */
  statePath?: string;
  /** Share a store (startFakeMeta passes its own so tests can read and seed it). */
  store?: FakeMetaStore;
  /** After a send: WhatsApp 'sent' then 'delivered' webhooks; Messenger a delivery watermark. Default true. */
  autoStatuses?: boolean;
  /** Time between a send and its first status, and between statuses (default 100 ms). */
  statusDelayMs?: number;
  /** Refuse free-form messages to customers who did not write in the last 24 h, like Meta (default true). */
  enforceCustomerWindow?: boolean;
  /** Demand appsecret_proof on every user/page/business token call, like an app with "Require App Secret" (default true). */
  requireAppSecretProof?: boolean;
  /** Largest page of a Graph list, whatever `limit` asks (default 100). */
  maxPageSize?: number;
  /** Time between a template's creation (or edit) and its review (default 2 s; see fakeMetaTemplates.ts). */
  templateReviewDelayMs?: number;
}

export const CUSTOMER_WINDOW_MS = 24 * 3600 * 1000;

export class FakeMetaContext {
  readonly autoStatuses: boolean;
  readonly statusDelayMs: number;
  readonly enforceCustomerWindow: boolean;
  readonly requireAppSecretProof: boolean;
  readonly maxPageSize: number;
  readonly templateReviewDelayMs: number;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    readonly store: FakeMetaStore,
    readonly options: FakeMetaOptions,
    /** The URL prefix the fake is mounted at ('' standalone, '/dev/meta' in the main app). */
    readonly prefix: string,
  ) {
    this.autoStatuses = options.autoStatuses ?? true;
    this.statusDelayMs = options.statusDelayMs ?? 100;
    this.enforceCustomerWindow = options.enforceCustomerWindow ?? true;
    this.requireAppSecretProof = options.requireAppSecretProof ?? true;
    this.maxPageSize = options.maxPageSize ?? 100;
    this.templateReviewDelayMs = options.templateReviewDelayMs ?? 2000;
  }

  get appSecret(): string {
    return this.options.appSecret;
  }

  webhook(payload: Record<string, unknown>): Promise<WebhookDeliveryResult> {
    return deliverWebhook(this.options.webhookUrl, this.options.appSecret, payload, this.store);
  }

  /** Runs `steps` one after another, `statusDelayMs` apart; dropped when the fake closes. */
  later(steps: (() => Promise<unknown>)[]): void {
    const run = (index: number) => {
      if (index >= steps.length || this.closed) return;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (this.closed) return;
        void steps[index]().finally(() => run(index + 1));
      }, this.statusDelayMs);
      timer.unref();
      this.timers.add(timer);
    };
    run(0);
  }

  /** Runs `step` once after `ms`; dropped when the fake closes. */
  after(ms: number, step: () => Promise<unknown>): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed) void step().catch(() => undefined);
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  windowOpen(channelId: string, customerId: string): boolean {
    const customer = this.store.customer(channelId, customerId);
    return !!customer && Date.now() - customer.lastInboundAt < CUSTOMER_WINDOW_MS;
  }

  /** Records a status of an outbound message and posts its webhook, when the platform has one for it. */
  async emitStatus(message: FakeMessage, status: 'sent' | 'delivered' | 'read' | 'failed', errorCode?: number): Promise<WebhookDeliveryResult> {
    this.store.addStatus(message, status, errorCode);
    if (message.platform === 'whatsapp') {
      const phone = this.store.phone(message.channel_id);
      if (!phone) return { status: null, error: 'Unknown phone number.' };
      return this.webhook(whatsAppStatusPayload(phone, { messageId: message.id, recipientId: message.customer_id, status, errorCode }));
    }
    // Messenger reports deliveries and reads as watermarks; Instagram only reads, by mid.
    const receipt =
      message.platform === 'instagram'
        ? status === 'read' && { read: { mid: message.id } }
        : status === 'read'
          ? { read: { watermark: Date.now() } }
          : status === 'delivered' && { delivery: { mids: [message.id], watermark: Date.now() } };
    if (!receipt) return { status: null, error: `${message.platform} has no "${status}" webhook.` };
    return this.webhook(messagingPayload(message.platform, message.channel_id, { sender: { id: message.customer_id }, ...receipt }));
  }
}
