/**
 * What the fake Meta knows: Facebook users and their pages (with linked Instagram accounts),
 * WhatsApp Business Accounts with their phone numbers and templates, tokens and one-time codes,
 * every message in both directions, and inbound media. Plain JSON, optionally kept in a file so
 * a restarted demo server still accepts the tokens its database holds.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface FakeUser {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
}

export interface FakeTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: { type: string; text?: string; format?: string }[];
  /** Meta's quality_score.score (GREEN, YELLOW, RED, UNKNOWN) and the review's reason (NONE when approved). */
  quality_score?: string;
  rejected_reason?: string;
}

export interface FakeWaba {
  id: string;
  name: string;
  subscribed: boolean;
  templates: FakeTemplate[];
}

export interface FakePhoneNumber {
  id: string;
  wabaId: string;
  display_phone_number: string;
  verified_name: string;
  registered: boolean;
}

export interface FakePage {
  id: string;
  name: string;
  ownerUserId: string;
  accessToken: string;
  instagram: { id: string; username: string } | null;
  subscribedFields: string[];
}

export type FakeTokenGrant =
  | { kind: 'user'; userId: string; appId: string; scopes: string[]; expiresAt: number }
  | { kind: 'business'; wabaId: string; appId: string }
  | { kind: 'page'; pageId: string; appId: string };

export type FakePlatform = 'whatsapp' | 'messenger' | 'instagram';

export interface FakeStatus {
  status: 'sent' | 'delivered' | 'read' | 'failed';
  at: string;
  error_code?: number;
}

export interface FakeMessage {
  id: string;
  direction: 'inbound' | 'outbound';
  platform: FakePlatform;
  /** phone_number_id, page id or Instagram account id. */
  channel_id: string;
  /** wa_id, PSID or IGSID. */
  customer_id: string;
  /** Outbound: the request body as the business sent it; inbound: the webhook's message object. */
  payload: unknown;
  /** Text shown in the demo page. */
  summary: string;
  statuses: FakeStatus[];
  created_at: string;
}

export interface FakeMedia {
  id: string;
  phoneNumberId: string;
  mimeType: string;
  sha256: string;
  base64: string;
}

export interface FakeFailure {
  count: number;
  code: number;
  httpStatus: number;
  subcode?: number;
  message?: string;
}

export interface FakeWebhookDelivery {
  at: string;
  object: string;
  status: number | null;
  error: string | null;
}

export interface FakeMetaData {
  users: Record<string, FakeUser>;
  tokens: Record<string, FakeTokenGrant>;
  codes: Record<string, { wabaId: string; phoneNumberId: string; expiresAt: number; used: boolean }>;
  wabas: Record<string, FakeWaba>;
  phoneNumbers: Record<string, FakePhoneNumber>;
  pages: Record<string, FakePage>;
  /** `${channel_id}:${customer_id}` → when the customer last wrote (the 24-hour window) and their name. */
  customers: Record<string, { name: string; lastInboundAt: number }>;
  messages: FakeMessage[];
  media: Record<string, FakeMedia>;
  failNext: FakeFailure | null;
  webhooks: FakeWebhookDelivery[];
}

const MAX_MESSAGES = 2000;
const MAX_MEDIA = 200;
const MAX_WEBHOOK_LOG = 50;
/** Codes from the signup dialog are short-lived at Meta too. */
const CODE_TTL_MS = 10 * 60_000;
const USER_TOKEN_TTL_S = 60 * 24 * 3600;

function emptyData(): FakeMetaData {
  return { users: {}, tokens: {}, codes: {}, wabas: {}, phoneNumbers: {}, pages: {}, customers: {}, messages: [], media: {}, failNext: null, webhooks: [] };
}

/** Meta's object ids are 15-17 digit numbers. */
export function fakeNumericId(): string {
  return `${randomInt(1, 10)}${String(randomInt(0, 1e9)).padStart(9, '0')}${String(randomInt(0, 1e6)).padStart(6, '0')}`;
}

/** Meta user/page/system-user tokens start with "EAA". */
function fakeToken(): string {
  return `EAA${randomBytes(48).toString('base64url')}`;
}

export function fakeWamid(to: string): string {
  return `wamid.${Buffer.concat([Buffer.from(`${to}:`), randomBytes(18)]).toString('base64')}`;
}

export function fakeMid(): string {
  return `m_${randomBytes(36).toString('base64url')}`;
}

function seededTemplates(): FakeTemplate[] {
  return [
    {
      id: fakeNumericId(),
      name: 'hello_world',
      language: 'en_US',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Hello World' },
        { type: 'BODY', text: 'Hello World! Thanks for contacting us.' },
        { type: 'FOOTER', text: 'WhatsApp Business Platform sample message' },
      ],
    },
    {
      id: fakeNumericId(),
      name: 'order_update',
      language: 'en_US',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.' }],
    },
    {
      id: fakeNumericId(),
      name: 'spring_sale',
      language: 'en_US',
      status: 'PENDING',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Our spring sale starts today: {{1}} off everything!' }],
    },
  ];
}

export function digitsOf(phone: string): string {
  return phone.replace(/\D/g, '');
}

export class FakeMetaStore {
  data: FakeMetaData;
  /** Outbound messages per `${channel_id}:${customer_id}` since start (not capped like `messages`): duplicate checks. */
  readonly sendCounts = new Map<string, number>();

  constructor(
    readonly appId: string,
    private readonly statePath?: string,
  ) {
    this.data = this.load();
  }

  private load(): FakeMetaData {
    if (!this.statePath || !existsSync(this.statePath)) return emptyData();
    try {
      return { ...emptyData(), ...(JSON.parse(readFileSync(this.statePath, 'utf8')) as Partial<FakeMetaData>) };
    } catch {
      // A corrupt state file only costs the demo its fake accounts; start afresh.
      return emptyData();
    }
  }

  /** Writes the state file (atomically) after each change. */
  save(): void {
    if (this.data.messages.length > MAX_MESSAGES) this.data.messages.splice(0, this.data.messages.length - MAX_MESSAGES);
    const media = Object.keys(this.data.media);
    for (const id of media.slice(0, Math.max(0, media.length - MAX_MEDIA))) delete this.data.media[id];
    if (this.data.webhooks.length > MAX_WEBHOOK_LOG) this.data.webhooks.splice(0, this.data.webhooks.length - MAX_WEBHOOK_LOG);
    if (!this.statePath) return;
    mkdirSync(path.dirname(this.statePath), { recursive: true });
    const tmp = `${this.statePath}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.data));
    renameSync(tmp, this.statePath);
  }

  reset(): void {
    this.data = emptyData();
    this.save();
  }

  // ---------- WhatsApp embedded signup ----------

  /**
   * What the embedded signup dialog does at Meta: a WABA with one phone number, and a one-time
   * code for the business token. The same number signed up again keeps its ids (it is the same
   * WhatsApp number), which is how "already connected" can be tried out.
   */
  createWhatsAppBusiness(input: { businessName?: string; phoneNumber?: string } = {}): { code: string; wabaId: string; phoneNumberId: string } {
    const display = input.phoneNumber?.trim() || `+1 555-01${randomInt(10, 99)}-${randomInt(1000, 9999)}`;
    let phone = Object.values(this.data.phoneNumbers).find((p) => digitsOf(p.display_phone_number) === digitsOf(display));
    if (!phone) {
      const waba: FakeWaba = { id: fakeNumericId(), name: input.businessName?.trim() || 'Test Business', subscribed: false, templates: seededTemplates() };
      this.data.wabas[waba.id] = waba;
      phone = { id: fakeNumericId(), wabaId: waba.id, display_phone_number: display, verified_name: waba.name, registered: false };
      this.data.phoneNumbers[phone.id] = phone;
    }
    const code = `AQ${randomBytes(32).toString('base64url')}`;
    this.data.codes[code] = { wabaId: phone.wabaId, phoneNumberId: phone.id, expiresAt: Date.now() + CODE_TTL_MS, used: false };
    this.save();
    return { code, wabaId: phone.wabaId, phoneNumberId: phone.id };
  }

  /** GET /oauth/access_token: a code is good once, and only for a while. */
  redeemCode(code: string): { token: string } | { error: 'used' | 'invalid' } {
    const entry = this.data.codes[code];
    if (!entry || entry.expiresAt < Date.now()) return { error: 'invalid' };
    if (entry.used) return { error: 'used' };
    entry.used = true;
    const token = fakeToken();
    this.data.tokens[token] = { kind: 'business', wabaId: entry.wabaId, appId: this.appId };
    this.save();
    return { token };
  }

  /** A business token for a WABA without the dialog (tests that start from a connected number). */
  issueBusinessToken(wabaId: string): string {
    const token = fakeToken();
    this.data.tokens[token] = { kind: 'business', wabaId, appId: this.appId };
    this.save();
    return token;
  }

  // ---------- Facebook login ----------

  /** Facebook login: the user (found by e-mail or created with one page and its Instagram account) and a user token. */
  login(input: { email: string; firstName: string; lastName: string; scopes: string[]; appId?: string; expiresInSeconds?: number }): {
    accessToken: string;
    userID: string;
    expiresIn: number;
    grantedScopes: string;
  } {
    const email = input.email.trim().toLowerCase();
    let user = Object.values(this.data.users).find((u) => u.email === email);
    if (!user) {
      user = { id: fakeNumericId(), email, first_name: input.firstName.trim() || 'Test', last_name: input.lastName.trim() || 'User' };
      this.data.users[user.id] = user;
      const handle = user.first_name.toLowerCase().replace(/[^a-z0-9]+/g, '') || 'user';
      const page: FakePage = {
        id: fakeNumericId(),
        name: `${user.first_name}'s Shop`,
        ownerUserId: user.id,
        accessToken: fakeToken(),
        instagram: { id: fakeNumericId(), username: `${handle}.shop` },
        subscribedFields: [],
      };
      this.data.pages[page.id] = page;
      this.data.tokens[page.accessToken] = { kind: 'page', pageId: page.id, appId: this.appId };
    }
    const expiresIn = input.expiresInSeconds ?? USER_TOKEN_TTL_S;
    const scopes = [...new Set(['public_profile', ...input.scopes])];
    const token = fakeToken();
    this.data.tokens[token] = { kind: 'user', userId: user.id, appId: input.appId ?? this.appId, scopes, expiresAt: Date.now() + expiresIn * 1000 };
    this.save();
    return { accessToken: token, userID: user.id, expiresIn, grantedScopes: scopes.join(',') };
  }

  // ---------- lookups ----------

  grant(token: string): FakeTokenGrant | null {
    return Object.hasOwn(this.data.tokens, token) ? this.data.tokens[token] : null;
  }

  /** The page (Messenger) or the page whose linked Instagram account has this id. */
  pageOfChannel(channelId: string): { page: FakePage; platform: 'messenger' | 'instagram' } | null {
    if (Object.hasOwn(this.data.pages, channelId)) return { page: this.data.pages[channelId], platform: 'messenger' };
    const page = Object.values(this.data.pages).find((p) => p.instagram?.id === channelId);
    return page ? { page, platform: 'instagram' } : null;
  }

  phone(phoneNumberId: string): FakePhoneNumber | null {
    return Object.hasOwn(this.data.phoneNumbers, phoneNumberId) ? this.data.phoneNumbers[phoneNumberId] : null;
  }

  waba(wabaId: string): FakeWaba | null {
    return Object.hasOwn(this.data.wabas, wabaId) ? this.data.wabas[wabaId] : null;
  }

  message(id: string): FakeMessage | null {
    return this.data.messages.find((m) => m.id === id) ?? null;
  }

  // ---------- conversations ----------

  customer(channelId: string, customerId: string): { name: string; lastInboundAt: number } | null {
    const key = `${channelId}:${customerId}`;
    return Object.hasOwn(this.data.customers, key) ? this.data.customers[key] : null;
  }

  recordInbound(message: Omit<FakeMessage, 'direction' | 'statuses' | 'created_at'>, customerName: string): FakeMessage {
    const record: FakeMessage = { ...message, direction: 'inbound', statuses: [], created_at: new Date().toISOString() };
    this.data.customers[`${message.channel_id}:${message.customer_id}`] = { name: customerName, lastInboundAt: Date.now() };
    this.data.messages.push(record);
    this.save();
    return record;
  }

  recordOutbound(message: Omit<FakeMessage, 'direction' | 'statuses' | 'created_at'>): FakeMessage {
    const record: FakeMessage = { ...message, direction: 'outbound', statuses: [], created_at: new Date().toISOString() };
    const key = `${message.channel_id}:${message.customer_id}`;
    this.sendCounts.set(key, (this.sendCounts.get(key) ?? 0) + 1);
    this.data.messages.push(record);
    this.save();
    return record;
  }

  /**
   * Messages the business sent before this fake knew of them (the demo's finished broadcast, written as history):
   * kept with their own time and statuses, no webhook, not counted as sends since start. An id already known is left.
   */
  importSent(messages: Omit<FakeMessage, 'direction'>[]): number {
    let added = 0;
    for (const message of messages) {
      if (this.message(message.id)) continue;
      this.data.messages.push({ ...message, direction: 'outbound' });
      added += 1;
    }
    this.save();
    return added;
  }

  addStatus(message: FakeMessage, status: FakeStatus['status'], errorCode?: number): void {
    message.statuses.push({ status, at: new Date().toISOString(), ...(errorCode ? { error_code: errorCode } : {}) });
    this.save();
  }

  addMedia(phoneNumberId: string, bytes: Buffer, mimeType: string): FakeMedia {
    const media: FakeMedia = {
      id: fakeNumericId(),
      phoneNumberId,
      mimeType,
      sha256: createHash('sha256').update(bytes).digest('base64'),
      base64: bytes.toString('base64'),
    };
    this.data.media[media.id] = media;
    this.save();
    return media;
  }

  /** The next send fails as configured (POST control/fail_next); null when sends go through. */
  takeFailure(): FakeFailure | null {
    const failure = this.data.failNext;
    if (!failure || failure.count <= 0) return null;
    failure.count -= 1;
    if (failure.count === 0) this.data.failNext = null;
    this.save();
    return failure;
  }

  logWebhook(delivery: FakeWebhookDelivery): void {
    this.data.webhooks.push(delivery);
    this.save();
  }
}
