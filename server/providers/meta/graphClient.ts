/**
 * The Graph API over HTTP (WhatsApp Cloud API, Messenger/Instagram Send API, Facebook login).
 * Every token-bearing call carries the token as a Bearer header plus `appsecret_proof`, Meta's
 * recommended hardening: a leaked token alone cannot be used from elsewhere. Sends are retried
 * quickly on rate limits; after that the error is thrown as retryable so the message stays pending.
 */
import { createHmac } from 'node:crypto';
import type { MessageTemplate } from '../../../contract/channels';
import type { MetaConfig } from '../../core/config';
import { graphApiError, networkError, type TokenKind } from './graphErrors';
import { callDeadline } from '../../core/http/deadline';
import { nodeHttpCall, type HttpAnswer, type HttpCall } from '../../core/http/transport';
import { parseJsonSafely, stripNul } from '../../core/input';
import { messengerMessagePayload, whatsAppMessagePayload } from './outboundPayloads';
import {
  GraphApiError,
  type FacebookProfile,
  type ManagedPage,
  type MetaGraph,
  type OutboundContent,
  type PhoneNumberInfo,
  type TemplateCreation,
  type TemplateMediaFile,
  type TokenInfo,
} from './types';

export interface HttpMetaGraphDeps {
  /** The HTTP call (node:http by default; `fetch` or a fake of it in tests). */
  fetch?: HttpCall;
  /** Waits between send retries (tests pass one that returns at once). */
  sleep?: (ms: number) => Promise<void>;
  /** Per-request timeout; media downloads get four times as long. */
  timeoutMs?: number;
}

/** A Retry-After longer than this is not waited for in-process: the message waits for a later attempt instead. */
const MAX_IN_PROCESS_WAIT_MS = 60_000;
const DEFAULT_TIMEOUT_MS = 15_000;
/** Safety net against a paging loop (a `next` that never ends). */
const MAX_PAGES = 50;

interface CallOptions {
  token?: string;
  tokenKind?: TokenKind;
  query?: Record<string, string>;
  body?: unknown;
  /** Bytes sent as they are (application/octet-stream) instead of a JSON body. */
  rawBody?: Buffer;
  headers?: Record<string, string>;
  /** Meta's upload endpoint documents `Authorization: OAuth <token>`; every other call takes Bearer. */
  authScheme?: 'Bearer' | 'OAuth';
  timeoutMs?: number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** HMAC-SHA256 of the access token keyed with the app secret, hex (developers.facebook.com/docs/graph-api/securing-requests). */
export function appSecretProof(token: string, appSecret: string): string {
  return createHmac('sha256', appSecret).update(token).digest('hex');
}

interface Paged<T> {
  data?: T[];
  paging?: { next?: string };
}

interface RawPage {
  id: string;
  name: string;
  access_token: string;
  instagram_business_account?: { id: string; username?: string };
}

export class HttpMetaGraph implements MetaGraph {
  private readonly fetch: HttpCall;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly timeoutMs: number;
  private readonly base: string;

  constructor(
    private readonly config: MetaConfig,
    deps: HttpMetaGraphDeps = {},
  ) {
    this.fetch = deps.fetch ?? nodeHttpCall;
    this.sleep = deps.sleep ?? realSleep;
    this.timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.base = `${config.graphUrl.replace(/\/+$/, '')}/${config.graphVersion}`;
  }

  // ---------- embedded signup ----------

  async exchangeCode(code: string): Promise<{ accessToken: string }> {
    const answer = await this.call<{ access_token?: string }>('GET', '/oauth/access_token', {
      query: { client_id: this.config.appId, client_secret: this.config.appSecret, code },
    });
    if (!answer.access_token) throw new GraphApiError('Meta did not return an access token for the signup code.', 200, null);
    return { accessToken: answer.access_token };
  }

  async phoneNumber(phoneNumberId: string, token: string): Promise<PhoneNumberInfo> {
    const info = await this.call<PhoneNumberInfo>('GET', `/${enc(phoneNumberId)}`, {
      token,
      query: { fields: 'id,display_phone_number,verified_name' },
    });
    return { id: info.id, display_phone_number: info.display_phone_number, verified_name: info.verified_name };
  }

  async registerPhone(phoneNumberId: string, token: string, pin: string): Promise<void> {
    await this.call('POST', `/${enc(phoneNumberId)}/register`, { token, body: { messaging_product: 'whatsapp', pin } });
  }

  async subscribeWaba(wabaId: string, token: string): Promise<void> {
    await this.call('POST', `/${enc(wabaId)}/subscribed_apps`, { token });
  }

  async unsubscribeWaba(wabaId: string, token: string): Promise<void> {
    await this.call('DELETE', `/${enc(wabaId)}/subscribed_apps`, { token });
  }

  async messageTemplates(wabaId: string, token: string): Promise<MessageTemplate[]> {
    type Listed = Omit<MessageTemplate, 'quality_score'> & { quality_score?: { score?: string } };
    const templates = await this.allPages<Listed>(`/${enc(wabaId)}/message_templates`, token, 'channel', {
      fields: 'id,name,language,status,category,components,quality_score,rejected_reason',
      limit: '100',
    });
    return templates.map((t) => ({
      id: t.id,
      name: t.name,
      language: t.language,
      status: t.status,
      category: t.category,
      components: t.components ?? [],
      ...(t.quality_score?.score ? { quality_score: t.quality_score.score } : {}),
      ...(t.rejected_reason && t.rejected_reason !== 'NONE' ? { rejected_reason: t.rejected_reason } : {}),
    }));
  }

  async createMessageTemplate(wabaId: string, token: string, template: TemplateCreation): Promise<{ id: string; status: string; category: string }> {
    const answer = await this.call<{ id?: string; status?: string; category?: string }>('POST', `/${enc(wabaId)}/message_templates`, { token, body: template });
    if (!answer.id) throw new GraphApiError('Meta accepted the template but returned no id.', 200, null);
    return { id: answer.id, status: answer.status ?? 'PENDING', category: answer.category ?? template.category };
  }

  async editMessageTemplate(templateId: string, token: string, edit: { category?: string; components: unknown[] }): Promise<void> {
    await this.call('POST', `/${enc(templateId)}`, { token, body: edit });
  }

  async deleteMessageTemplate(wabaId: string, token: string, name: string, hsmId?: string): Promise<void> {
    await this.call('DELETE', `/${enc(wabaId)}/message_templates`, { token, query: { name, ...(hsmId ? { hsm_id: hsmId } : {}) } });
  }

  async uploadTemplateMedia(token: string, file: TemplateMediaFile): Promise<{ handle: string }> {
    const session = await this.call<{ id?: string }>('POST', `/${enc(this.config.appId)}/uploads`, {
      token,
      query: { file_name: file.fileName, file_length: String(file.bytes.length), file_type: file.fileType },
    });
    // Meta's session id is `upload:<id>` and may carry its own query (`?sig=…`): it is the path as given.
    if (!session.id || !/^upload:[A-Za-z0-9_=+/.-]+(\?[A-Za-z0-9_=&%+/.-]*)?$/.test(session.id)) {
      throw new GraphApiError('Meta returned no upload session id.', 200, null);
    }
    const answer = await this.request<{ h?: string }>('POST', new URL(`${this.base}/${session.id}`), {
      token,
      rawBody: file.bytes,
      headers: { file_offset: '0' },
      authScheme: 'OAuth',
      timeoutMs: this.timeoutMs * 4,
    });
    if (!answer.h) throw new GraphApiError('Meta accepted the upload but returned no handle.', 200, null);
    return { handle: answer.h };
  }

  // ---------- messaging ----------

  async sendWhatsApp(phoneNumberId: string, token: string, to: string, content: OutboundContent): Promise<{ messageId: string }> {
    const body = whatsAppMessagePayload(to, content);
    const answer = await this.withSendRetries(() =>
      this.call<{ messages?: { id: string }[] }>('POST', `/${enc(phoneNumberId)}/messages`, { token, body }),
    );
    const messageId = answer.messages?.[0]?.id;
    if (!messageId) throw new GraphApiError('Meta accepted the message but returned no message id.', 200, null);
    return { messageId };
  }

  async sendMessenger(pageId: string, pageToken: string, recipientId: string, content: OutboundContent, platform: 'messenger' | 'instagram' = 'messenger'): Promise<{ messageId: string }> {
    const body = messengerMessagePayload(recipientId, content, platform);
    const answer = await this.withSendRetries(() =>
      this.call<{ message_id?: string }>('POST', `/${enc(pageId)}/messages`, { token: pageToken, body }),
    );
    if (!answer.message_id) throw new GraphApiError('Meta accepted the message but returned no message id.', 200, null);
    return { messageId: answer.message_id };
  }

  async downloadMedia(mediaId: string, token: string): Promise<{ bytes: Buffer; mimeType: string }> {
    const media = await this.call<{ url?: string; mime_type?: string }>('GET', `/${enc(mediaId)}`, { token });
    if (!media.url) throw new GraphApiError(`Meta returned no download URL for media ${mediaId}.`, 200, null);
    // The media URL (lookaside.fbsbx.com in production) wants the same Bearer token, without the proof.
    let response: HttpAnswer;
    try {
      response = await this.fetch(media.url, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(this.timeoutMs * 4),
      });
    } catch (err) {
      throw networkError(err, [token]);
    }
    if (!response.ok) throw graphApiError(response.status, await readJson(response), response.headers.get('retry-after'), 'channel');
    const bytes = Buffer.from(await response.arrayBuffer());
    return { bytes, mimeType: media.mime_type ?? response.headers.get('content-type') ?? 'application/octet-stream' };
  }

  /**
   * A Messenger or Instagram customer's name (issue #23), which their webhooks do not carry: Messenger's User
   * Profile API (`GET /{PSID}?fields=first_name,last_name,profile_pic`) and Instagram's (`GET /{IGSID}?fields=
   * name,username,profile_pic`), with the page's token. Null fields when Meta withholds them.
   */
  async userProfile(userId: string, pageToken: string, platform: 'messenger' | 'instagram'): Promise<{ name: string | null; pictureUrl: string | null }> {
    if (platform === 'instagram') {
      const ig = await this.call<{ name?: string; username?: string; profile_pic?: string }>('GET', `/${enc(userId)}`, { token: pageToken, query: { fields: 'name,username,profile_pic' } });
      return { name: ig.name?.trim() || ig.username?.trim() || null, pictureUrl: ig.profile_pic ?? null };
    }
    const fb = await this.call<{ first_name?: string; last_name?: string; profile_pic?: string }>('GET', `/${enc(userId)}`, { token: pageToken, query: { fields: 'first_name,last_name,profile_pic' } });
    const name = [fb.first_name, fb.last_name].map((part) => part?.trim()).filter(Boolean).join(' ');
    return { name: name || null, pictureUrl: fb.profile_pic ?? null };
  }

  // ---------- pages ----------

  async managedPages(userToken: string): Promise<ManagedPage[]> {
    const pages = await this.allPages<RawPage>('/me/accounts', userToken, 'user', {
      fields: 'id,name,access_token,instagram_business_account{id,username}',
    });
    return pages.map((p) => ({
      id: p.id,
      name: p.name,
      access_token: p.access_token,
      instagram: p.instagram_business_account
        ? { id: p.instagram_business_account.id, username: p.instagram_business_account.username ?? '' }
        : null,
    }));
  }

  async subscribePage(pageId: string, pageToken: string): Promise<void> {
    await this.call('POST', `/${enc(pageId)}/subscribed_apps`, {
      token: pageToken,
      query: { subscribed_fields: 'messages,message_deliveries,message_reads,messaging_postbacks' },
    });
  }

  async unsubscribePage(pageId: string, pageToken: string): Promise<void> {
    await this.call('DELETE', `/${enc(pageId)}/subscribed_apps`, { token: pageToken });
  }

  // ---------- Facebook login ----------

  async debugToken(userToken: string): Promise<TokenInfo> {
    const answer = await this.call<{ data?: { is_valid?: boolean; app_id?: string; user_id?: string; scopes?: string[] } }>('GET', '/debug_token', {
      // The app token (id|secret) inspects the user token; no appsecret_proof with an app token.
      query: { input_token: userToken, access_token: `${this.config.appId}|${this.config.appSecret}` },
      tokenKind: 'user',
    });
    const data = answer.data ?? {};
    const appId = String(data.app_id ?? '');
    return {
      // A valid token issued to another app must not sign anyone in here.
      isValid: data.is_valid === true && appId === this.config.appId,
      appId,
      userId: String(data.user_id ?? ''),
      scopes: data.scopes ?? [],
    };
  }

  async profile(userToken: string): Promise<FacebookProfile> {
    const me = await this.call<{ id: string; email?: string; first_name?: string; last_name?: string }>('GET', '/me', {
      token: userToken,
      tokenKind: 'user',
      query: { fields: 'id,email,first_name,last_name' },
    });
    return { id: me.id, email: me.email ?? null, first_name: me.first_name ?? '', last_name: me.last_name ?? '' };
  }

  // ---------- plumbing ----------

  private url(path: string, query: Record<string, string> = {}): URL {
    const url = new URL(this.base + path);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    return url;
  }

  private async call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
    return this.request<T>(method, this.url(path, options.query), options);
  }

  /** One HTTP request; the token (if any) goes as a Bearer header with its appsecret_proof in the query. */
  private async request<T>(method: string, url: URL, { token, tokenKind = 'channel', body, rawBody, headers: extra, authScheme = 'Bearer', timeoutMs }: CallOptions): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', ...extra };
    if (token) {
      headers.authorization = `${authScheme} ${token}`;
      url.searchParams.set('appsecret_proof', appSecretProof(token, this.config.appSecret));
    }
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (rawBody !== undefined) headers['content-type'] = 'application/octet-stream';

    // The deadline covers the answer's body too, and is cleared once it is read (server/core/http/deadline.ts).
    const deadline = callDeadline(timeoutMs ?? this.timeoutMs);
    try {
      let response: HttpAnswer;
      try {
        response = await this.fetch(url, {
          method,
          headers,
          body: rawBody !== undefined ? new Uint8Array(rawBody) : body === undefined ? undefined : JSON.stringify(body),
          signal: deadline.signal,
        });
      } catch (err) {
        throw networkError(err, [token, this.config.appSecret]);
      }
      const json = await readJson(response);
      if (!response.ok || (json as { error?: unknown } | null)?.error) {
        throw graphApiError(response.status, json, response.headers.get('retry-after'), tokenKind);
      }
      return (json ?? {}) as T;
    } finally {
      deadline.done();
    }
  }

  /** Every page of a Graph list, following `paging.next` (only to the Graph API's own origin: the token goes with it). */
  private async allPages<T>(path: string, token: string, tokenKind: TokenKind, query: Record<string, string>): Promise<T[]> {
    const items: T[] = [];
    let url: URL | null = this.url(path, query);
    for (let page = 0; url && page < MAX_PAGES; page++) {
      const answer: Paged<T> = await this.request<Paged<T>>('GET', url, { token, tokenKind });
      items.push(...(answer.data ?? []));
      const next = answer.paging?.next ? new URL(answer.paging.next) : null;
      url = next && next.origin === new URL(this.base).origin ? next : null;
    }
    return items;
  }

  /**
   * Retries a send after each of config.sendRetryDelaysMs on retryable errors (rate limits, 5xx,
   * timeouts). A timed-out send may have reached Meta: the Cloud API has no idempotency key, so a
   * rare duplicate is accepted over a lost message. Non-retryable errors are thrown at once.
   */
  private async withSendRetries<T>(send: () => Promise<T>): Promise<T> {
    const delays = this.config.sendRetryDelaysMs;
    for (let attempt = 0; ; attempt++) {
      try {
        return await send();
      } catch (err) {
        if (!(err instanceof GraphApiError) || !err.retryable || attempt >= delays.length) throw err;
        const wait = Math.max(delays[attempt], err.retryAfterMs ?? 0);
        if (wait > MAX_IN_PROCESS_WAIT_MS) throw err;
        await this.sleep(wait);
      }
    }
  }
}

function enc(id: string): string {
  return encodeURIComponent(id);
}

async function readJson(response: HttpAnswer): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    // Whatever Meta sends ends up in our tables (names, texts): never with NULs, never nested without bound.
    return stripNul(parseJsonSafely(text));
  } catch {
    return null;
  }
}
