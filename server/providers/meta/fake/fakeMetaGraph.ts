/**
 * The fake's Graph API under {prefix}/graph/:version/…: the calls HttpMetaGraph makes, answered
 * in Meta's formats with Meta's checks — tokens (190), appsecret_proof and parameters (100),
 * what each token may see (business tokens their WABA, page tokens their page), one-time codes.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { appSecretProof } from '../graphClient';
import { FakeGraphError, invalidToken, missingParameter, unsupportedRequest } from './fakeGraphError';
import type { FakeMetaContext } from './fakeMetaContext';
import { fakeMid, fakeNumericId, fakeWamid, type FakePage, type FakeTemplate, type FakePhoneNumber, type FakeTokenGrant, type FakeWaba } from './fakeMetaStore';
import { scheduleReview, templateStatusPayload, validateTemplateBody } from './fakeMetaTemplates';
import { fakeUploadsOf } from './fakeMetaUploads';
import { validateMessengerSend, validateWhatsAppSend } from './fakeSendValidation';
import { pickFields, pageOf } from './graphFields';

type Req = FastifyRequest<{ Params: { version: string; id: string }; Querystring: Record<string, string | undefined>; Body: unknown }>;

function bodyOf(request: Req): Record<string, unknown> {
  const body = request.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** Meta reads the token from the Authorization header, the query or the body. */
function tokenOf(request: Req): string | null {
  const header = request.headers.authorization;
  const match = header ? /^(?:Bearer|OAuth)\s+(.+)$/i.exec(header) : null;
  if (match) return match[1].trim();
  const fromQuery = request.query.access_token;
  if (fromQuery) return fromQuery;
  const fromBody = bodyOf(request).access_token;
  return typeof fromBody === 'string' ? fromBody : null;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function fakeMetaGraphRoutes(app: FastifyInstance, ctx: FakeMetaContext): void {
  const { store } = ctx;

  /** The token's grant, with its appsecret_proof checked. */
  function authenticate(request: Req): { token: string; grant: FakeTokenGrant } {
    const token = tokenOf(request);
    if (!token) throw new FakeGraphError(400, 2500, 'An active access token must be used to query information about the current user.');
    const grant = store.grant(token);
    if (!grant) throw invalidToken();
    if (grant.kind === 'user' && grant.expiresAt < Date.now()) throw invalidToken('Error validating access token: Session has expired.', 463);
    const proof = request.query.appsecret_proof ?? (bodyOf(request).appsecret_proof as string | undefined);
    if (!proof && ctx.requireAppSecretProof) {
      throw new FakeGraphError(400, 100, 'API calls from the server require an appsecret_proof argument', 'GraphMethodException');
    }
    if (proof && !sameText(proof, appSecretProof(token, ctx.appSecret))) {
      throw new FakeGraphError(400, 100, 'Invalid appsecret_proof provided in the API argument', 'GraphMethodException');
    }
    return { token, grant };
  }

  function phoneFor(grant: FakeTokenGrant, id: string, method: string): FakePhoneNumber {
    const phone = store.phone(id);
    if (!phone || grant.kind !== 'business' || phone.wabaId !== grant.wabaId) throw unsupportedRequest(method, id);
    return phone;
  }

  function wabaFor(grant: FakeTokenGrant, id: string, method: string): FakeWaba {
    const waba = store.waba(id);
    if (!waba || grant.kind !== 'business' || grant.wabaId !== id) throw unsupportedRequest(method, id);
    return waba;
  }

  function pageFor(grant: FakeTokenGrant, id: string, method: string): { page: FakePage; platform: 'messenger' | 'instagram' } {
    const found = store.pageOfChannel(id);
    if (!found || grant.kind !== 'page' || grant.pageId !== found.page.id) throw unsupportedRequest(method, id);
    return found;
  }

  const graph = '/graph/:version';
  const uploads = fakeUploadsOf(store, ctx.options.appId, ctx.appSecret);
  const header = (request: Req, name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };

  app.addHook('preHandler', async (request) => {
    const version = (request.params as { version?: string }).version;
    if (version !== undefined && !/^v\d{1,2}\.\d$/.test(version)) {
      throw new FakeGraphError(400, 2635, `(#2635) You are calling a deprecated or unknown version of the Graph API (${version}).`);
    }
  });

  // ---------- OAuth ----------

  app.get(`${graph}/oauth/access_token`, async (request: Req) => {
    const { client_id: clientId, client_secret: clientSecret, code } = request.query;
    if (!clientId) throw missingParameter('client_id');
    if (clientId !== ctx.options.appId) throw new FakeGraphError(400, 101, 'Error validating application. Invalid application ID.');
    if (!clientSecret || !sameText(clientSecret, ctx.appSecret)) throw new FakeGraphError(400, 1, 'Error validating client secret.');
    if (!code) throw missingParameter('code');
    const redeemed = store.redeemCode(code);
    if ('error' in redeemed) {
      throw redeemed.error === 'used'
        ? new FakeGraphError(400, 100, 'This authorization code has been used.', 'OAuthException', 36009)
        : new FakeGraphError(400, 100, 'Invalid verification code format.', 'OAuthException', 36007);
    }
    return { access_token: redeemed.token, token_type: 'bearer' };
  });

  app.get(`${graph}/debug_token`, async (request: Req) => {
    const appToken = tokenOf(request);
    if (!appToken || !sameText(appToken, `${ctx.options.appId}|${ctx.appSecret}`)) throw invalidToken('Invalid OAuth access token signature.');
    const input = request.query.input_token;
    if (!input) throw missingParameter('input_token');
    const grant = store.grant(input);
    if (!grant) {
      return { data: { error: { code: 190, message: 'Invalid OAuth access token - Cannot parse access token' }, is_valid: false, scopes: [] } };
    }
    const common = { app_id: grant.appId, application: 'Fake Meta app', data_access_expires_at: Math.floor(Date.now() / 1000) + 90 * 86400 };
    if (grant.kind === 'user') {
      const valid = grant.expiresAt > Date.now();
      return {
        data: {
          ...common,
          type: 'USER',
          expires_at: Math.floor(grant.expiresAt / 1000),
          is_valid: valid,
          ...(valid ? {} : { error: { code: 190, subcode: 463, message: 'Error validating access token: Session has expired.' } }),
          scopes: grant.scopes,
          user_id: grant.userId,
        },
      };
    }
    if (grant.kind === 'page') {
      return { data: { ...common, type: 'PAGE', expires_at: 0, is_valid: true, profile_id: grant.pageId, scopes: ['pages_messaging', 'pages_manage_metadata'] } };
    }
    return {
      data: {
        ...common,
        type: 'SYSTEM_USER',
        expires_at: 0,
        is_valid: true,
        scopes: ['whatsapp_business_management', 'whatsapp_business_messaging'],
        granular_scopes: [
          { scope: 'whatsapp_business_management', target_ids: [grant.wabaId] },
          { scope: 'whatsapp_business_messaging', target_ids: [grant.wabaId] },
        ],
      },
    };
  });

  // ---------- the token's own node ----------

  app.get(`${graph}/me`, async (request: Req) => {
    const { grant } = authenticate(request);
    if (grant.kind === 'user') {
      const user = store.data.users[grant.userId];
      const withEmail = grant.scopes.includes('email') ? { email: user.email } : {};
      return pickFields({ id: user.id, name: `${user.first_name} ${user.last_name}`, first_name: user.first_name, last_name: user.last_name, ...withEmail }, request.query.fields);
    }
    if (grant.kind === 'page') {
      const page = store.data.pages[grant.pageId];
      return pickFields({ id: page.id, name: page.name }, request.query.fields);
    }
    return pickFields({ id: `system-user-${grant.wabaId}`, name: 'Embedded signup system user' }, request.query.fields);
  });

  app.get(`${graph}/me/accounts`, async (request: Req) => {
    const { grant } = authenticate(request);
    if (grant.kind !== 'user') throw unsupportedRequest('GET', 'me/accounts');
    // Without pages_show_list Meta lists nothing.
    const pages = grant.scopes.includes('pages_show_list') ? Object.values(store.data.pages).filter((p) => p.ownerUserId === grant.userId) : [];
    const items = pages.map((p) => ({
      id: p.id,
      name: p.name,
      access_token: p.accessToken,
      category: 'Shopping & retail',
      tasks: ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'],
      ...(p.instagram ? { instagram_business_account: { id: p.instagram.id, username: p.instagram.username } } : {}),
    }));
    return pageOf(request, items, 25, ctx.maxPageSize, (item) => pickFields(item, request.query.fields ?? 'id,name,access_token,category,tasks'));
  });

  // ---------- objects by id ----------

  app.get(`${graph}/:id`, async (request: Req) => {
    const { grant, token } = authenticate(request);
    const id = request.params.id;
    if (id.startsWith('upload:')) return uploads.status(id, request.query.sig, token);
    const phone = store.phone(id);
    if (phone) {
      phoneFor(grant, id, 'GET');
      return pickFields(
        {
          id: phone.id,
          display_phone_number: phone.display_phone_number,
          verified_name: phone.verified_name,
          code_verification_status: 'VERIFIED',
          quality_rating: 'GREEN',
          platform_type: phone.registered ? 'CLOUD_API' : 'NOT_APPLICABLE',
          throughput: { level: 'STANDARD' },
        },
        request.query.fields ?? 'id,display_phone_number,verified_name,quality_rating',
      );
    }
    if (Object.hasOwn(store.data.media, id)) {
      const media = store.data.media[id];
      phoneFor(grant, media.phoneNumberId, 'GET');
      return {
        messaging_product: 'whatsapp',
        url: `${request.protocol}://${request.host}${ctx.prefix}/media/${encodeURIComponent(id)}`,
        mime_type: media.mimeType,
        sha256: media.sha256,
        file_size: Buffer.byteLength(media.base64, 'base64'),
        id,
      };
    }
    if (store.waba(id)) {
      const waba = wabaFor(grant, id, 'GET');
      return pickFields({ id: waba.id, name: waba.name, currency: 'USD', timezone_id: '1', message_template_namespace: `ns_${waba.id}` }, request.query.fields);
    }
    const page = store.pageOfChannel(id);
    if (page && ((grant.kind === 'page' && grant.pageId === page.page.id) || (grant.kind === 'user' && grant.userId === page.page.ownerUserId))) {
      return page.platform === 'messenger'
        ? pickFields({ id: page.page.id, name: page.page.name }, request.query.fields)
        : pickFields({ id, username: page.page.instagram!.username }, request.query.fields);
    }
    // Messenger's and Instagram's User Profile API: a customer who wrote to a page the token manages.
    const profile = customerProfile(id, grant);
    if (profile) return pickFields(profile, request.query.fields);
    throw unsupportedRequest('GET', id);
  });

  /** The customer `id` of one of the grant's pages (PSID or IGSID) as Meta describes them, else null. */
  function customerProfile(id: string, grant: FakeTokenGrant): Record<string, unknown> | null {
    for (const [key, customer] of Object.entries(store.data.customers)) {
      const at = key.lastIndexOf(':');
      if (key.slice(at + 1) !== id) continue;
      const page = store.pageOfChannel(key.slice(0, at));
      if (!page || !((grant.kind === 'page' && grant.pageId === page.page.id) || (grant.kind === 'user' && grant.userId === page.page.ownerUserId))) continue;
      const [first, ...rest] = customer.name.trim().split(/\s+/);
      return page.platform === 'messenger'
        ? { id, first_name: first ?? '', last_name: rest.join(' ') }
        : { id, name: customer.name, username: customer.name.toLowerCase().replace(/[^a-z0-9._]+/g, '.') };
    }
    return null;
  }

  app.get(`${graph}/:id/phone_numbers`, async (request: Req) => {
    const { grant } = authenticate(request);
    const waba = wabaFor(grant, request.params.id, 'GET');
    const phones = Object.values(store.data.phoneNumbers).filter((p) => p.wabaId === waba.id);
    return pageOf(request, phones, 25, ctx.maxPageSize, (p) =>
      pickFields({ id: p.id, display_phone_number: p.display_phone_number, verified_name: p.verified_name, quality_rating: 'GREEN' }, request.query.fields),
    );
  });

  app.post(`${graph}/:id/register`, async (request: Req) => {
    const { grant } = authenticate(request);
    const phone = phoneFor(grant, request.params.id, 'POST');
    const body = bodyOf(request);
    if (!body.messaging_product) throw missingParameter('messaging_product');
    if (body.pin === undefined) throw missingParameter('pin');
    if (!/^\d{6}$/.test(String(body.pin))) throw new FakeGraphError(400, 100, '(#100) Param pin must be 6 characters long.', 'OAuthException', undefined, 'The two-step verification PIN must be 6 digits.');
    phone.registered = true;
    store.save();
    return { success: true };
  });

  // ---------- webhook subscriptions ----------

  app.get(`${graph}/:id/subscribed_apps`, async (request: Req) => {
    const { grant } = authenticate(request);
    const app = { id: ctx.options.appId, name: 'Fake Meta app' };
    if (grant.kind === 'page') {
      const { page } = pageFor(grant, request.params.id, 'GET');
      return { data: page.subscribedFields.length ? [{ ...app, subscribed_fields: page.subscribedFields }] : [] };
    }
    const waba = wabaFor(grant, request.params.id, 'GET');
    return { data: waba.subscribed ? [{ whatsapp_business_api_data: { ...app, link: 'https://www.facebook.com/games/?app_id=' + app.id } }] : [] };
  });

  app.post(`${graph}/:id/subscribed_apps`, async (request: Req) => {
    const { grant } = authenticate(request);
    if (grant.kind === 'page') {
      const { page } = pageFor(grant, request.params.id, 'POST');
      const fields = request.query.subscribed_fields ?? (bodyOf(request).subscribed_fields as string | undefined);
      if (!fields) throw missingParameter('subscribed_fields');
      page.subscribedFields = String(fields).split(',').map((f) => f.trim()).filter(Boolean);
    } else {
      wabaFor(grant, request.params.id, 'POST').subscribed = true;
    }
    store.save();
    return { success: true };
  });

  app.delete(`${graph}/:id/subscribed_apps`, async (request: Req) => {
    const { grant } = authenticate(request);
    if (grant.kind === 'page') pageFor(grant, request.params.id, 'DELETE').page.subscribedFields = [];
    else wabaFor(grant, request.params.id, 'DELETE').subscribed = false;
    store.save();
    return { success: true };
  });

  // ---------- templates ----------

  const listedTemplate = (t: FakeTemplate) => ({
    ...t,
    quality_score: { score: t.quality_score ?? 'UNKNOWN', date: Math.floor(Date.now() / 1000) },
    rejected_reason: t.rejected_reason ?? 'NONE',
  });

  app.get(`${graph}/:id/message_templates`, async (request: Req) => {
    const { grant } = authenticate(request);
    const waba = wabaFor(grant, request.params.id, 'GET');
    const name = request.query.name;
    const listed = name ? waba.templates.filter((t) => t.name === name) : waba.templates;
    return pageOf(request, listed, 25, ctx.maxPageSize, (t) => pickFields(listedTemplate(t), request.query.fields ?? 'id,name,language,status,category,components'));
  });

  app.post(`${graph}/:id/message_templates`, async (request: Req) => {
    const { grant } = authenticate(request);
    const waba = wabaFor(grant, request.params.id, 'POST');
    const body = bodyOf(request);
    for (const field of ['name', 'language', 'category', 'components']) if (body[field] === undefined) throw missingParameter(field);
    const name = String(body.name);
    if (!/^[a-z0-9_]{1,512}$/.test(name)) throw new FakeGraphError(400, 100, 'Invalid parameter', 'OAuthException', 2388042, 'Template name can only contain lowercase letters, numbers and underscores.');
    if (waba.templates.some((t) => t.name === name && t.language === body.language)) {
      throw new FakeGraphError(400, 100, 'Invalid parameter', 'OAuthException', 2388024, `Content in this language already exists for ${name}.`);
    }
    validateTemplateBody(body, 'create');
    const template: FakeTemplate = { id: fakeNumericId(), name, language: String(body.language), status: 'PENDING', category: String(body.category), components: body.components as never, quality_score: 'UNKNOWN' };
    waba.templates.push(template);
    store.save();
    scheduleReview(ctx, waba, template);
    return { id: template.id, status: template.status, category: template.category };
  });

  // ---------- resumable upload (template header samples; see fakeMetaUploads.ts) ----------

  app.post(`${graph}/:id/uploads`, async (request: Req) => {
    const { token } = authenticate(request);
    return uploads.start(request.params.id, token, request.query);
  });

  // Edit: POST /{template-id} with components (and category); the template goes back to review.
  // POST /upload:<session> is the resumable upload's second step (the bytes).
  app.post(`${graph}/:id`, async (request: Req) => {
    const { grant, token } = authenticate(request);
    if (request.params.id.startsWith('upload:')) {
      return uploads.receive(request.params.id, request.query.sig, token, header(request, 'file_offset'), request.body);
    }
    if (grant.kind !== 'business') throw unsupportedRequest('POST', request.params.id);
    const waba = wabaFor(grant, grant.wabaId, 'POST');
    const template = waba.templates.find((t) => t.id === request.params.id);
    if (!template) throw unsupportedRequest('POST', request.params.id);
    const body = bodyOf(request);
    if (body.components === undefined) throw missingParameter('components');
    validateTemplateBody({ category: body.category ?? template.category, components: body.components }, 'edit');
    template.components = body.components as never;
    if (typeof body.category === 'string') template.category = body.category;
    template.status = 'PENDING';
    template.rejected_reason = 'NONE';
    store.save();
    scheduleReview(ctx, waba, template);
    return { success: true };
  });

  // Delete: by name (every language), or one language with hsm_id.
  app.delete(`${graph}/:id/message_templates`, async (request: Req) => {
    const { grant } = authenticate(request);
    const waba = wabaFor(grant, request.params.id, 'DELETE');
    const name = request.query.name;
    if (!name) throw missingParameter('name');
    const hsmId = request.query.hsm_id;
    const doomed = waba.templates.filter((t) => t.name === name && (!hsmId || t.id === hsmId));
    if (doomed.length === 0) throw new FakeGraphError(400, 100, 'Invalid parameter', 'OAuthException', 2593002, `Message template "${name}" not found.`);
    waba.templates = waba.templates.filter((t) => !doomed.includes(t));
    store.save();
    for (const template of doomed) ctx.after(0, () => ctx.webhook(templateStatusPayload(waba.id, template, 'DELETED')));
    return { success: true };
  });

  // ---------- sending ----------

  app.post(`${graph}/:id/messages`, async (request: Req) => {
    const { grant } = authenticate(request);
    const id = request.params.id;
    const body = bodyOf(request);
    if (store.phone(id)) {
      const phone = phoneFor(grant, id, 'POST');
      if (!phone.registered) throw new FakeGraphError(400, 133010, '(#133010) Account not registered', 'OAuthException', undefined, 'The phone number is not registered on the Cloud API.');
      failIfAsked();
      const send = validateWhatsAppSend(body, store.waba(phone.wabaId)?.templates ?? []);
      const wamid = fakeWamid(send.to);
      const message = store.recordOutbound({ id: wamid, platform: 'whatsapp', channel_id: phone.id, customer_id: send.to, payload: body, summary: send.summary });
      if (ctx.autoStatuses) {
        // Like Meta: the request is accepted, and a free-form message outside the window fails in a status webhook.
        if (!send.isTemplate && ctx.enforceCustomerWindow && !ctx.windowOpen(phone.id, send.to)) ctx.later([() => ctx.emitStatus(message, 'failed', 131047)]);
        else ctx.later([() => ctx.emitStatus(message, 'sent'), () => ctx.emitStatus(message, 'delivered')]);
      }
      return {
        messaging_product: 'whatsapp',
        contacts: [{ input: String(body.to), wa_id: send.to }],
        messages: [{ id: wamid, ...(send.isTemplate ? { message_status: 'accepted' } : {}) }],
      };
    }
    // Messenger and Instagram with Facebook Login (Meta's "Send a Message" for Instagram on the Messenger Platform):
    // POST /{page-id}/messages or /me/messages with the page token; the recipient is a PSID of the page's Messenger
    // or an IGSID of the Instagram account linked to the page. Not the Instagram account's own id: that is the
    // Instagram API with Instagram Login (graph.instagram.com, an Instagram user token), which this fake is not.
    const page = sendingPage(grant, id);
    const recipient = body.recipient && typeof body.recipient === 'object' ? (body.recipient as { id?: unknown }).id : undefined;
    const { platform, channelId } = conversationOf(page, typeof recipient === 'string' ? recipient : '');
    failIfAsked();
    const send = validateMessengerSend(body, platform);
    if (!store.customer(channelId, send.recipientId)) throw new FakeGraphError(400, 100, '(#100) No matching user found', 'OAuthException', 2018001);
    if (ctx.enforceCustomerWindow && !ctx.windowOpen(channelId, send.recipientId) && body.messaging_type !== 'MESSAGE_TAG') {
      throw new FakeGraphError(400, 10, '(#10) This message is sent outside of allowed window.', 'OAuthException', 2018278);
    }
    if (send.senderAction) return { recipient_id: send.recipientId };
    const mid = fakeMid();
    const message = store.recordOutbound({ id: mid, platform, channel_id: channelId, customer_id: send.recipientId, payload: body, summary: send.summary });
    if (ctx.autoStatuses && platform === 'messenger') ctx.later([() => ctx.emitStatus(message, 'delivered')]);
    return { recipient_id: send.recipientId, message_id: mid };
  });

  /** The page a Send API call posts as: `/{page-id}` or `/me`, with that page's token. */
  function sendingPage(grant: FakeTokenGrant, id: string): FakePage {
    const page = id === 'me' && grant.kind === 'page' ? store.data.pages[grant.pageId] : Object.hasOwn(store.data.pages, id) ? store.data.pages[id] : undefined;
    if (!page || grant.kind !== 'page' || grant.pageId !== page.id) throw unsupportedRequest('POST', id);
    return page;
  }

  /** Whose customer the recipient is: the page's (a PSID, Messenger) or its linked Instagram account's (an IGSID). */
  function conversationOf(page: FakePage, recipientId: string): { platform: 'messenger' | 'instagram'; channelId: string } {
    if (page.instagram && !store.customer(page.id, recipientId) && store.customer(page.instagram.id, recipientId)) {
      return { platform: 'instagram', channelId: page.instagram.id };
    }
    return { platform: 'messenger', channelId: page.id };
  }

  /** POST control/fail_next: the next sends fail with the asked code (rate limits for retry tests). */
  function failIfAsked(): void {
    const failure = store.takeFailure();
    if (!failure) return;
    const message = failure.message ?? defaultFailureMessage(failure.code);
    throw new FakeGraphError(failure.httpStatus, failure.code, message, 'OAuthException', failure.subcode, message);
  }
}

function defaultFailureMessage(code: number): string {
  switch (code) {
    case 130429:
      return '(#130429) Rate limit hit';
    case 131056:
      return '(#131056) (Business Account, Consumer Account) pair rate limit hit';
    case 80007:
      return '(#80007) Rate limit issues';
    case 4:
      return '(#4) Application request limit reached';
    case 131026:
      return '(#131026) Message undeliverable';
    case 190:
      return 'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.';
    default:
      return `(#${code}) Simulated failure`;
  }
}
