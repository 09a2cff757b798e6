/** Test helpers of the channels plugin: an in-memory MetaGraph and signed webhook posts. */
import type { LightMyRequestResponse } from 'fastify';
import type { MessageTemplate } from '../../../contract/channels';
import { signMetaPayload } from '../../providers/meta/webhooks';
import { GraphApiError, type FacebookProfile, type ManagedPage, type MetaGraph, type OutboundContent, type PhoneNumberInfo, type TemplateCreation, type TokenInfo } from '../../providers/meta/types';
import type { TestApp } from '../../testing/testApp';
import { WEBHOOK_PATH } from './webhooks';

type Method = keyof MetaGraph;

export interface GraphCall {
  method: Method;
  args: unknown[];
}

export interface SentMessage {
  via: 'whatsapp' | 'messenger';
  from: string;
  token: string;
  to: string;
  content: OutboundContent;
  messageId: string;
}

/** A MetaGraph in memory: what Meta knows is set by the test; failures and hangs are queued per method. */
export class InMemoryGraph implements MetaGraph {
  readonly calls: GraphCall[] = [];
  readonly sent: SentMessage[] = [];
  /** code → business token; a code works once. */
  readonly codes = new Map<string, string>();
  private readonly usedCodes = new Set<string>();
  readonly phoneNumbers = new Map<string, PhoneNumberInfo>();
  /** user token → pages */
  readonly pages = new Map<string, ManagedPage[]>();
  readonly templates = new Map<string, MessageTemplate[]>();
  readonly media = new Map<string, { bytes: Buffer; mimeType: string }>();
  readonly subscribedPages = new Set<string>();
  readonly subscribedWabas = new Set<string>();
  readonly registered = new Map<string, string>();
  private readonly failures = new Map<Method, Error[]>();
  private readonly hangs = new Map<Method, number>();
  private seq = 0;

  /** The next `count` calls of `method` throw `error`. */
  failNext(method: Method, error: Error = new GraphApiError('Meta said no.', 400, 100), count = 1): void {
    const queue = this.failures.get(method) ?? [];
    for (let i = 0; i < count; i++) queue.push(error);
    this.failures.set(method, queue);
  }

  /** The next `count` calls of `method` never answer (a process stuck on Meta when it restarts). */
  hangNext(method: Method, count = 1): void {
    this.hangs.set(method, (this.hangs.get(method) ?? 0) + count);
  }

  callsOf(method: Method): GraphCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  private async enter(method: Method, args: unknown[]): Promise<void> {
    this.calls.push({ method, args });
    await Promise.resolve();
    const hang = this.hangs.get(method) ?? 0;
    if (hang > 0) {
      this.hangs.set(method, hang - 1);
      await new Promise(() => {});
    }
    const error = this.failures.get(method)?.shift();
    if (error) throw error;
  }

  async exchangeCode(code: string): Promise<{ accessToken: string }> {
    await this.enter('exchangeCode', [code]);
    const token = this.codes.get(code);
    if (!token || this.usedCodes.has(code)) throw new GraphApiError('This authorization code has been used.', 400, 100, 36009);
    this.usedCodes.add(code);
    return { accessToken: token };
  }

  async phoneNumber(phoneNumberId: string, token: string): Promise<PhoneNumberInfo> {
    await this.enter('phoneNumber', [phoneNumberId, token]);
    const info = this.phoneNumbers.get(phoneNumberId);
    if (!info) throw new GraphApiError(`Unsupported get request. Object with ID '${phoneNumberId}' does not exist.`, 400, 100, 33);
    return info;
  }

  async registerPhone(phoneNumberId: string, token: string, pin: string): Promise<void> {
    await this.enter('registerPhone', [phoneNumberId, token, pin]);
    this.registered.set(phoneNumberId, pin);
  }

  async subscribeWaba(wabaId: string, token: string): Promise<void> {
    await this.enter('subscribeWaba', [wabaId, token]);
    this.subscribedWabas.add(wabaId);
  }

  async unsubscribeWaba(wabaId: string, token: string): Promise<void> {
    await this.enter('unsubscribeWaba', [wabaId, token]);
    this.subscribedWabas.delete(wabaId);
  }

  async messageTemplates(wabaId: string, token: string): Promise<MessageTemplate[]> {
    await this.enter('messageTemplates', [wabaId, token]);
    return this.templates.get(wabaId) ?? [];
  }

  async createMessageTemplate(wabaId: string, token: string, template: TemplateCreation): Promise<{ id: string; status: string; category: string }> {
    await this.enter('createMessageTemplate', [wabaId, token, template]);
    const id = `tpl-${++this.seq}`;
    const list = this.templates.get(wabaId) ?? [];
    list.push({ id, name: template.name, language: template.language, status: 'PENDING', category: template.category, components: template.components as MessageTemplate['components'] });
    this.templates.set(wabaId, list);
    return { id, status: 'PENDING', category: template.category };
  }

  async editMessageTemplate(templateId: string, token: string, edit: { category?: string; components: unknown[] }): Promise<void> {
    await this.enter('editMessageTemplate', [templateId, token, edit]);
    for (const list of this.templates.values()) {
      const found = list.find((t) => t.id === templateId);
      if (found) Object.assign(found, { components: edit.components, status: 'PENDING', ...(edit.category ? { category: edit.category } : {}) });
    }
  }

  async deleteMessageTemplate(wabaId: string, token: string, name: string, hsmId?: string): Promise<void> {
    await this.enter('deleteMessageTemplate', [wabaId, token, name, hsmId]);
    this.templates.set(wabaId, (this.templates.get(wabaId) ?? []).filter((t) => !(t.name === name && (!hsmId || t.id === hsmId))));
  }

  async sendWhatsApp(phoneNumberId: string, token: string, to: string, content: OutboundContent): Promise<{ messageId: string }> {
    await this.enter('sendWhatsApp', [phoneNumberId, token, to, content]);
    const messageId = `wamid.OUT${++this.seq}`;
    this.sent.push({ via: 'whatsapp', from: phoneNumberId, token, to, content, messageId });
    return { messageId };
  }

  async sendMessenger(pageId: string, pageToken: string, recipientId: string, content: OutboundContent): Promise<{ messageId: string }> {
    await this.enter('sendMessenger', [pageId, pageToken, recipientId, content]);
    const messageId = `m_OUT${++this.seq}`;
    this.sent.push({ via: 'messenger', from: pageId, token: pageToken, to: recipientId, content, messageId });
    return { messageId };
  }

  async downloadMedia(mediaId: string, token: string): Promise<{ bytes: Buffer; mimeType: string }> {
    await this.enter('downloadMedia', [mediaId, token]);
    const media = this.media.get(mediaId);
    if (!media) throw new GraphApiError('Media not found.', 404, 100);
    return media;
  }

  /** Customers' names by PSID / IGSID (the User Profile API); an unknown id is refused as Meta refuses it. */
  readonly profiles = new Map<string, string>();

  async userProfile(userId: string, pageToken: string, platform: 'messenger' | 'instagram'): Promise<{ name: string | null; pictureUrl: string | null }> {
    await this.enter('userProfile', [userId, pageToken, platform]);
    const name = this.profiles.get(userId);
    if (name === undefined) throw new GraphApiError('(#100) No profile available for this user.', 400, 100);
    return { name, pictureUrl: null };
  }

  async uploadTemplateMedia(token: string, file: { fileName: string }): Promise<{ handle: string }> {
    await this.enter('uploadTemplateMedia', [token, file.fileName]);
    return { handle: `4::${Buffer.from(file.fileName).toString('base64url')}` };
  }

  async managedPages(userToken: string): Promise<ManagedPage[]> {
    await this.enter('managedPages', [userToken]);
    const pages = this.pages.get(userToken);
    if (!pages) throw new GraphApiError('The Facebook access token has expired or is invalid; sign in with Facebook again.', 400, 190);
    return pages;
  }

  async subscribePage(pageId: string, pageToken: string): Promise<void> {
    await this.enter('subscribePage', [pageId, pageToken]);
    this.subscribedPages.add(pageId);
  }

  async unsubscribePage(pageId: string, pageToken: string): Promise<void> {
    await this.enter('unsubscribePage', [pageId, pageToken]);
    this.subscribedPages.delete(pageId);
  }

  async debugToken(userToken: string): Promise<TokenInfo> {
    await this.enter('debugToken', [userToken]);
    return { isValid: false, appId: '', userId: '', scopes: [] };
  }

  async profile(userToken: string): Promise<FacebookProfile> {
    await this.enter('profile', [userToken]);
    throw new GraphApiError('Not available in the test double.', 400, 190);
  }
}

/** Posts a webhook payload to /api/webhooks/meta/ signed with the app secret (or a given signature). */
export function postWebhook(t: TestApp, payload: unknown, signature?: string | null): Promise<LightMyRequestResponse> {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const sig = signature === undefined ? signMetaPayload(body, t.config.meta.appSecret) : signature;
  if (sig !== null) headers['x-hub-signature-256'] = sig;
  return t.app.inject({ method: 'POST', url: WEBHOOK_PATH, headers, payload: body });
}

// ---------- webhook payloads as Meta sends them ----------

export function waInbound(phoneNumberId: string, from: string, name: string, message: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'WABA',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550001111', phone_number_id: phoneNumberId },
              contacts: [{ profile: { name }, wa_id: from }],
              messages: [{ from, timestamp: String(Math.floor(Date.now() / 1000)), ...message }],
            },
          },
        ],
      },
    ],
  };
}

export function waStatuses(phoneNumberId: string, statuses: { id: string; status: string; recipient_id?: string; errors?: unknown[] }[]) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'WABA',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550001111', phone_number_id: phoneNumberId },
              statuses: statuses.map((s) => ({ recipient_id: '15551234567', timestamp: String(Math.floor(Date.now() / 1000)), ...s })),
            },
          },
        ],
      },
    ],
  };
}

export function messengerEvent(object: 'page' | 'instagram', recipientId: string, senderId: string, event: Record<string, unknown>) {
  return {
    object,
    entry: [{ id: recipientId, time: Date.now(), messaging: [{ sender: { id: senderId }, recipient: { id: recipientId }, timestamp: Date.now(), ...event }] }],
  };
}

// for the broadcasts and bots plugins: the channels test app and its fixtures, as other plugins' tests use them
export { channelsTestApp, companyFixture, eventually, insertChannel, type ChannelsTestApp, type CompanyFixture } from './testFixtures';
