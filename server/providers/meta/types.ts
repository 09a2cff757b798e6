/**
 * The Meta adapter's interface (Graph API: WhatsApp Cloud API, Messenger and Instagram Send API,
 * embedded signup, Facebook login) and Google sign-in's. The real implementations call the
 * providers over HTTP (graphClient.ts, google.ts); the local fake servers in ./fake follow the
 * same published formats, so the same code runs against both.
 */
import type { MessageTemplate } from '../../../contract/channels';
import type { MessageType } from '../../../contract/chats';

// ---------- outbound content (what bots and agents send) ----------

export type OutboundContent =
  | { kind: 'text'; text: string; previewUrl?: boolean }
  | { kind: 'media'; mediaType: 'image' | 'video' | 'document' | 'audio'; link: string; caption?: string; filename?: string }
  | { kind: 'buttons'; body: string; buttons: { id: string; title: string }[]; header?: string; footer?: string }
  | {
      kind: 'list';
      body: string;
      buttonText: string;
      sections: { title: string; rows: { id: string; title: string; description?: string }[] }[];
      header?: string;
      footer?: string;
    }
  | {
      kind: 'template';
      name: string;
      language: string;
      bodyParameters: string[];
      /** A media header's file (Meta fetches the link). */
      header?: { type: 'image' | 'video' | 'document'; link: string } | { type: 'text'; text: string };
      /** A carousel template's cards, in order: each card's header media and body parameters. */
      cards?: { type: 'image' | 'video'; link: string; bodyParameters: string[] }[];
      /** Values of the buttons that take one: a URL's {{1}} ending, a copy-code offer code. */
      buttons?: { index: number; subType: 'url' | 'copy_code'; value: string }[];
    };

/** A template as Meta's POST /{waba-id}/message_templates takes it. */
export interface TemplateCreation {
  name: string;
  language: string;
  category: string;
  components: unknown[];
  message_send_ttl_seconds?: number;
}

/** A file for Meta's resumable upload (a media header's sample). */
export interface TemplateMediaFile {
  fileName: string;
  /** Meta takes image/jpeg, image/png, video/mp4 and application/pdf for template samples. */
  fileType: string;
  bytes: Buffer;
}

/** A Graph API error, with Meta's code: retryable ones (130429, 131056, 80007, 4, HTTP 429) are retried with back-off. */
export class GraphApiError extends Error {
  constructor(
    message: string,
    readonly httpStatus: number,
    readonly code: number | null,
    readonly subcode: number | null = null,
    /** Rate limited or temporarily unavailable: try again later, never drop the message. */
    readonly retryable = false,
    /** Meta's Retry-After (HTTP 429), when it sent one: the earliest a retry makes sense. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'GraphApiError';
  }
}

export interface PhoneNumberInfo {
  id: string;
  display_phone_number: string;
  verified_name: string;
}

export interface ManagedPage {
  id: string;
  name: string;
  /** The page token (from /me/accounts). */
  access_token: string;
  instagram: { id: string; username: string } | null;
}

export interface TokenInfo {
  isValid: boolean;
  appId: string;
  userId: string;
  scopes: string[];
}

export interface FacebookProfile {
  id: string;
  email: string | null;
  first_name: string;
  last_name: string;
}

/** The Graph API calls the product makes. Every call takes the token it runs with. */
export interface MetaGraph {
  // embedded signup (WhatsApp)
  /** GET /oauth/access_token with the app id/secret and the SDK's code → a business token. */
  exchangeCode(code: string): Promise<{ accessToken: string }>;
  phoneNumber(phoneNumberId: string, token: string): Promise<PhoneNumberInfo>;
  /** POST /{phone-number-id}/register (Cloud API registration with a two-step PIN). */
  registerPhone(phoneNumberId: string, token: string, pin: string): Promise<void>;
  /** POST /{waba-id}/subscribed_apps: the WABA's webhooks come to this app. */
  subscribeWaba(wabaId: string, token: string): Promise<void>;
  unsubscribeWaba(wabaId: string, token: string): Promise<void>;
  /** GET /{waba-id}/message_templates, every page followed. */
  messageTemplates(wabaId: string, token: string): Promise<MessageTemplate[]>;
  /** POST /{waba-id}/message_templates (Meta's format: name, language, category, components) → Meta's id, status and category. */
  createMessageTemplate(wabaId: string, token: string, template: TemplateCreation): Promise<{ id: string; status: string; category: string }>;
  /** POST /{template-id}: new components (and category) of an existing template; Meta reviews it again. */
  editMessageTemplate(templateId: string, token: string, edit: { category?: string; components: unknown[] }): Promise<void>;
  /** DELETE /{waba-id}/message_templates?name=…[&hsm_id=…]: one language by its id, or every language of the name. */
  deleteMessageTemplate(wabaId: string, token: string, name: string, hsmId?: string): Promise<void>;
  /**
   * Meta's resumable upload: POST /{app-id}/uploads?file_name&file_length&file_type → an upload
   * session `{id: "upload:…"}`, then POST /{session-id} with the bytes (header `file_offset: 0`)
   * → `{h}`: the handle a media header's `example.header_handle` carries.
   */
  uploadTemplateMedia(token: string, file: TemplateMediaFile): Promise<{ handle: string }>;

  // messaging
  /** POST /{phone-number-id}/messages → the wamid. Rate limits are retried (config.meta.sendRetryDelaysMs), then thrown as retryable. */
  sendWhatsApp(phoneNumberId: string, token: string, to: string, content: OutboundContent): Promise<{ messageId: string }>;
  /**
   * POST /{page-id}/messages (Messenger and Instagram Send API) → the mid. Instagram with Facebook Login sends
   * through the linked page too (its id, the page token, the customer's IGSID); `platform` holds the text to
   * Instagram's limit (1000 bytes).
   */
  sendMessenger(pageId: string, pageToken: string, recipientId: string, content: OutboundContent, platform?: 'messenger' | 'instagram'): Promise<{ messageId: string }>;
  /** WhatsApp inbound media: GET /{media-id} for its URL, then the bytes (the URL needs the token). */
  downloadMedia(mediaId: string, token: string): Promise<{ bytes: Buffer; mimeType: string }>;
  /** A Messenger (PSID) or Instagram (IGSID) customer's name and picture, with the page token (User Profile API). */
  userProfile(userId: string, pageToken: string, platform: 'messenger' | 'instagram'): Promise<{ name: string | null; pictureUrl: string | null }>;

  // pages (Messenger, Instagram)
  /** GET /me/accounts with the user's token: the pages they manage, with page tokens and linked Instagram accounts. */
  managedPages(userToken: string): Promise<ManagedPage[]>;
  /** POST /{page-id}/subscribed_apps (messages, message_deliveries, message_reads, messaging_postbacks). */
  subscribePage(pageId: string, pageToken: string): Promise<void>;
  unsubscribePage(pageId: string, pageToken: string): Promise<void>;

  // Facebook login
  /** GET /debug_token with the app token: is this user token valid and issued for our app? */
  debugToken(userToken: string): Promise<TokenInfo>;
  /** GET /me?fields=id,email,first_name,last_name. */
  profile(userToken: string): Promise<FacebookProfile>;
}

export interface GoogleProfile {
  sub: string;
  email: string;
  emailVerified: boolean;
  firstName: string;
  lastName: string;
}

/** Google sign-in: checks an access token was issued to our client id and reads the profile. */
export interface GoogleIdentity {
  verifyAccessToken(accessToken: string): Promise<GoogleProfile>;
}

/** Thrown when a social token is invalid, expired or issued to another app. */
export class SocialTokenError extends Error {
  constructor(message = 'Invalid or expired access token.') {
    super(message);
    this.name = 'SocialTokenError';
  }
}

// ---------- webhooks ----------

/** One inbound customer message from a webhook, normalised across WhatsApp, Messenger and Instagram. */
export interface InboundWebhookMessage {
  kind: 'message';
  platform: 'whatsapp' | 'messenger' | 'instagram';
  /** phone_number_id (WhatsApp), page id (Messenger), Instagram account id. */
  channelExternalId: string;
  /** wa_id, PSID or IGSID. */
  customerId: string;
  /** The contact's profile name when the webhook carries it, else the customer id. */
  customerName: string;
  /** wamid / mid: the idempotency key. */
  messageId: string;
  /** ISO 8601. */
  timestamp: string;
  type: MessageType;
  text: string | null;
  /** WhatsApp media: the media id to download; Messenger/Instagram: the attachment URL. */
  mediaId: string | null;
  mediaUrl: string | null;
  mediaType: string | null;
  /** Button/list reply id and title, location, contacts… as received. */
  data: Record<string, unknown> | null;
}

export interface StatusWebhookEvent {
  kind: 'status';
  platform: 'whatsapp' | 'messenger' | 'instagram';
  channelExternalId: string;
  /** The provider message id the status is about (wamid). Messenger read/delivery watermarks use `watermark` instead. */
  messageId: string | null;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  /** Messenger/Instagram: every message sent before this time (ISO) is delivered/read. */
  watermark: string | null;
  recipientId: string;
  error: string | null;
  timestamp: string;
}

/**
 * A WhatsApp user's marketing-message preference (webhook field `user_preferences`): `stop` when
 * they turned marketing messages off for the business, `resume` when they turned them back on.
 */
export interface UserPreferenceWebhookEvent {
  kind: 'user_preference';
  platform: 'whatsapp';
  channelExternalId: string;
  /** wa_id. */
  customerId: string;
  /** e.g. `marketing_messages`. */
  category: string;
  /** `stop` or `resume` (lower case). */
  value: string;
  detail: string | null;
  timestamp: string;
}

/**
 * A customer's reaction to a message (WhatsApp `type: reaction`, Messenger/Instagram `message_reactions`):
 * stored on the message it reacts to, never as a message of its own.
 */
export interface ReactionWebhookEvent {
  kind: 'reaction';
  platform: 'whatsapp' | 'messenger' | 'instagram';
  channelExternalId: string;
  customerId: string;
  /** The reacted-to message: a wamid / mid, ours (sent) or the customer's. */
  targetId: string;
  /** The emoji; null when the customer removed their reaction. */
  emoji: string | null;
  timestamp: string;
}

/**
 * Something the channel reports in the conversation rather than a message the customer wrote: WhatsApp's
 * `user_changed_number` system message, or a message the channel cannot show (WhatsApp `unsupported`,
 * Instagram `is_unsupported`). Shown as a system line of the room; never handed to bots or flows.
 */
export interface SystemWebhookEvent {
  kind: 'system';
  platform: 'whatsapp' | 'messenger' | 'instagram';
  channelExternalId: string;
  customerId: string;
  customerName: string;
  /** wamid / mid: the idempotency key. */
  messageId: string;
  system: 'number_changed' | 'unsupported';
  /** number_changed: the customer's new wa_id. */
  newId: string | null;
  /** Meta's own words: the system body, or the error's title (logs only). */
  detail: string | null;
  timestamp: string;
}

export type WebhookEvent = InboundWebhookMessage | StatusWebhookEvent | UserPreferenceWebhookEvent | ReactionWebhookEvent | SystemWebhookEvent;

/**
 * A WhatsApp Business Account's template event (fields message_template_status_update and
 * message_template_quality_update): keyed by the WABA (entry id), not by a phone number.
 */
export type TemplateWebhookEvent =
  | {
      kind: 'template_status';
      wabaId: string;
      templateId: string;
      name: string;
      language: string;
      /** Meta's `event`: APPROVED, REJECTED, PENDING, PAUSED, DISABLED, … */
      status: string;
      /** Meta's `reason` (NONE when there is none) and, when given, its other_info. */
      reason: string | null;
      /** ISO time of the change (entry.time), to keep an older event from overwriting a newer one. */
      at: string;
    }
  | { kind: 'template_quality'; wabaId: string; templateId: string; name: string; language: string; quality: string; previous: string | null; at: string };
