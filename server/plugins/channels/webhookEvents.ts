/**
 * Handlers of Meta's webhook events by kind (channels' extension point): the templates plugin takes the
 * template events, the broadcasts engine the statuses, replies and opt-outs. Several handlers of one kind
 * run one after the other, in the order they were added.
 */
import type { InboundWebhookMessage, StatusWebhookEvent, TemplateWebhookEvent, UserPreferenceWebhookEvent } from '../../providers/meta/types';
import type { ChannelRow } from '../chats';
import type { WebhookEventHandlers } from './index';

type ChannelEventHandler<E> = (channel: ChannelRow, event: E) => Promise<void>;

export class WebhookEventRegistry implements WebhookEventHandlers {
  private readonly template: ((event: TemplateWebhookEvent) => Promise<void>)[] = [];
  private readonly status: ChannelEventHandler<StatusWebhookEvent>[] = [];
  private readonly inbound: ChannelEventHandler<InboundWebhookMessage>[] = [];
  private readonly preference: ChannelEventHandler<UserPreferenceWebhookEvent>[] = [];

  onTemplateEvent(handler: (event: TemplateWebhookEvent) => Promise<void>): void {
    this.template.push(handler);
  }
  onMessageStatus(handler: ChannelEventHandler<StatusWebhookEvent>): void {
    this.status.push(handler);
  }
  onInboundMessage(handler: ChannelEventHandler<InboundWebhookMessage>): void {
    this.inbound.push(handler);
  }
  onUserPreference(handler: ChannelEventHandler<UserPreferenceWebhookEvent>): void {
    this.preference.push(handler);
  }

  get hasTemplateHandlers(): boolean {
    return this.template.length > 0;
  }

  async templateEvent(event: TemplateWebhookEvent): Promise<void> {
    for (const handler of this.template) await handler(event);
  }
  async messageStatus(channel: ChannelRow, event: StatusWebhookEvent): Promise<void> {
    for (const handler of this.status) await handler(channel, event);
  }
  async inboundMessage(channel: ChannelRow, event: InboundWebhookMessage): Promise<void> {
    for (const handler of this.inbound) await handler(channel, event);
  }
  async userPreference(channel: ChannelRow, event: UserPreferenceWebhookEvent): Promise<void> {
    for (const handler of this.preference) await handler(channel, event);
  }
}
