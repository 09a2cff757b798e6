/**
 * Channels (spec §2 /channels and /whatsapp-integration, §3 Channel and embedded signup data,
 * §4 WhatsApp connection, §7 channels, wa-onboard, account/facebook, account/google).
 * Shared by the console (src/plugins/channels) and the server (server/plugins/channels).
 */
import { z } from 'zod';
import type { Platform } from './chats';

/** Graph API version of the social login SDK and of the server's Graph calls (spec §7). */
export const GRAPH_API_VERSION = 'v23.0';

/** Where a channel stands: connected and receiving, being set up, or disconnected by the company. */
export type ChannelStatus = 'active' | 'pending' | 'disconnected';

/** Embedded signup status (GET /api/wa-onboard/signup_status/ → status). */
export type SignupStatus = 'in_progress' | 'completed' | 'partial_failure' | 'failed';

/** The server's embedded-signup steps, in order. A failed step can be retried; later steps wait for it. */
export const SIGNUP_STEPS = ['exchange_code', 'phone_number', 'register_phone', 'subscribe_webhooks'] as const;
export type SignupStepName = (typeof SIGNUP_STEPS)[number];
export interface SignupStep {
  name: SignupStepName;
  status: 'pending' | 'done' | 'failed';
  /** The provider's message when the step failed. */
  error: string | null;
  /** ISO 8601 of the last attempt. */
  at: string | null;
}

/** Spec §3 Channel: id and external_id, plus what the channels page shows. */
export interface Channel {
  id: number;
  /** WhatsApp phone number id, Facebook page id, Instagram account id, `sandbox-{company}`. */
  external_id: string;
  platform: Platform;
  name: string;
  status: ChannelStatus;
  /** WhatsApp only: the phone number as Meta displays it (+1 555…). */
  display_phone_number: string | null;
  /** WhatsApp only: the WhatsApp Business Account id. */
  waba_id: string | null;
  /** WhatsApp only (null elsewhere): the embedded signup's outcome and its steps. */
  signup_status: SignupStatus | null;
  signup_error: string | null;
  steps: SignupStep[];
  /** Derived on the server with isChannelConnected. */
  connected: boolean;
  /** Sandbox only: the customer simulator's page (/sandbox/{key}). */
  simulator_url: string | null;
  created_at: string;
}

/** GET /api/channels/ (paged, results envelope) with the company's "connected" rule (spec §4) for the requesting member. */
export interface ChannelsListResponse {
  results: Channel[];
  count: number;
  company_connected: boolean;
}

/** Spec §4: a WhatsApp channel whose signup is completed or partial_failure is connected; other channels when active. */
export function isChannelConnected(channel: Pick<Channel, 'platform' | 'status' | 'signup_status'>): boolean {
  if (channel.status === 'disconnected') return false;
  if (channel.platform === 'whatsapp') return channel.signup_status === 'completed' || channel.signup_status === 'partial_failure';
  return channel.status === 'active';
}

/** Spec §4: with no connected channel, the company counts as connected only when it has exactly one member or the user is admin. */
export function isCompanyConnected(channels: Pick<Channel, 'platform' | 'status' | 'signup_status'>[], memberCount: number, isAdmin: boolean): boolean {
  if (channels.some((c) => c.platform !== 'sandbox' && isChannelConnected(c))) return true;
  return memberCount === 1 || isAdmin;
}

// ---------- requests ----------

/** POST /api/wa-onboard/embedded_signup/ (spec §7). `non_json_data` is whatever the SDK's message event carried that was not JSON. */
/**
 * A provider token or code as Meta and Google issue them: visible ASCII only. Anything else (spaces,
 * line breaks, control or non-ASCII characters) cannot be a token, and would not even fit in the
 * Authorization header it is sent in.
 */
export const providerToken = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .regex(/^[\x21-\x7e]+$/, 'Enter a valid access token.');
/** The most `non_json_data` (whatever the SDK's message event carried that was not JSON) kept, as JSON text. */
export const MAX_NON_JSON_DATA_CHARS = 16_384;

export const EmbeddedSignupBody = z.object({
  phone_number_id: z.string().trim().min(1).max(64),
  waba_id: z.string().trim().min(1).max(64),
  code: providerToken(2048),
  // Any JSON value, but small: the body's depth limit bounds its nesting, this its size.
  non_json_data: z
    .unknown()
    .refine((value) => value === undefined || JSON.stringify(value).length <= MAX_NON_JSON_DATA_CHARS, `Ensure this value has no more than ${MAX_NON_JSON_DATA_CHARS} characters.`)
    .optional(),
  company: z.union([z.number().int(), z.string().regex(/^\d{1,9}$/).transform(Number)]),
  email: z.string().trim().toLowerCase().email().max(254),
});
export type EmbeddedSignupBody = z.input<typeof EmbeddedSignupBody>;

export const SignupStatusQuery = z.object({ external_id: z.string().trim().min(1).max(64) });

/** GET /api/wa-onboard/signup_status/ and the answer of embedded_signup. */
export interface SignupStatusResponse {
  status: SignupStatus;
  external_id: string;
  channel_id: number;
  steps: SignupStep[];
  error: string | null;
  /** The number was already connected (to this company or another): the console shows account-already-connected. */
  already_connected: boolean;
}

/** POST /api/wa-onboard/retry/: runs the failed steps of a partial_failure signup again. */
export const SignupRetryBody = z.object({ external_id: z.string().trim().min(1).max(64) });

/** POST /api/channels/facebook_pages/: the pages (and their Instagram accounts) a Facebook user token can manage. */
export const FacebookPagesBody = z.object({ access_token: providerToken(4096) });
export interface FacebookPage {
  id: string;
  name: string;
  /** The Instagram professional account linked to the page, if any; `connected`: its Instagram channel is active in a company. */
  instagram: { id: string; username: string; connected: boolean } | null;
  /** The page's Messenger channel is already connected to a company (this one or another). */
  connected: boolean;
}

/** POST /api/channels/ (spec §7): connect a Facebook page or its Instagram account with the user's token from Facebook login. */
export const ConnectChannelBody = z.object({
  platform: z.enum(['messenger', 'instagram']),
  access_token: providerToken(4096),
  page_id: z.string().trim().min(1).max(64),
});
export type ConnectChannelBody = z.infer<typeof ConnectChannelBody>;

/** POST /account/facebook/ and POST /account/google/ (spec §7). Answered like POST /account/login/. */
export const SocialLoginBody = z.object({ access_token: providerToken(4096) });

/** A WhatsApp message template as Meta lists it (GET /api/channels/{id}/templates/ → results). */
export interface MessageTemplate {
  id: string;
  name: string;
  language: string;
  status: 'APPROVED' | 'PENDING' | 'REJECTED' | 'PAUSED' | 'DISABLED' | string;
  category: string;
  components: TemplateComponent[];
  /** Meta's quality_score.score (GREEN, YELLOW, RED, UNKNOWN) and a rejection's reason, when Meta lists them. */
  quality_score?: string;
  rejected_reason?: string;
}
export interface TemplateComponent {
  type: 'HEADER' | 'BODY' | 'FOOTER' | 'BUTTONS' | string;
  format?: string;
  text?: string;
  buttons?: { type: string; text: string; url?: string; phone_number?: string }[];
}

/** How many `{{n}}` parameters a template's body expects. */
export function templateBodyParameterCount(template: Pick<MessageTemplate, 'components'>): number {
  const body = template.components.find((c) => c.type === 'BODY')?.text ?? '';
  const numbers = [...body.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => Number(m[1]));
  return numbers.length ? Math.max(...numbers) : 0;
}

/** The template's body with its parameters filled in (what the conversation shows). */
export function renderTemplateBody(template: Pick<MessageTemplate, 'components'>, parameters: string[]): string {
  const body = template.components.find((c) => c.type === 'BODY')?.text ?? '';
  return body.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => parameters[Number(n) - 1] ?? whole);
}

/**
 * GET /api/client-config/ (no login): what the console needs to load the social SDKs. Another
 * backend may not serve it; the console then falls back to its build-time VITE_* settings.
 */
export interface ClientConfig {
  facebook: {
    app_id: string;
    /** Embedded signup configuration id (Facebook Login for Business). */
    config_id: string;
    /** The SDK script: Meta's in production, the local fake's in the embedded default. */
    sdk_url: string;
    version: string;
    /** Permission scopes asked when connecting pages (Messenger, Instagram). */
    page_scopes: string[];
    /** Permission scopes asked for signing in. */
    login_scopes: string[];
  } | null;
  google: {
    client_id: string;
    /** Google Identity Services' script, or the local fake's. */
    script_url: string;
  } | null;
  /** Feature keys the operator turned on for this server (CONSOLE_FEATURES) beyond the console's start-up ones; absent when none. */
  features?: string[];
}

// ---------- the WhatsApp customer-service window ----------

/** WhatsApp accepts free-form messages only within 24 h of the customer's last message. */
export const WHATSAPP_WINDOW_MS = 24 * 60 * 60 * 1000;

/** When the room's window closes (ISO), or null when it is not a WhatsApp room or the customer never wrote. */
export function windowClosesAt(room: { platform: Platform; last_inbound_at: string | null }): string | null {
  if (room.platform !== 'whatsapp' || !room.last_inbound_at) return null;
  return new Date(new Date(room.last_inbound_at).getTime() + WHATSAPP_WINDOW_MS).toISOString();
}

/** True when a free-form message may not be sent (WhatsApp room, window closed or never opened). */
export function isWindowClosed(room: { platform: Platform; last_inbound_at: string | null }, now = Date.now()): boolean {
  if (room.platform !== 'whatsapp') return false;
  const closes = windowClosesAt(room);
  return !closes || new Date(closes).getTime() <= now;
}

/** The refusal of a free-form send outside the window (server ChatError reason and the console's text key). */
export const WINDOW_CLOSED_REASON = 'window closed';
