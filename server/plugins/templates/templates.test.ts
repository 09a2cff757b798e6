/**
 * WhatsApp message templates end to end through the real HTTP adapter and the fake Meta: every
 * component kind accepted, refusals naming the field (before Meta is called), Meta's review
 * arriving as a signed webhook (approval and rejection with its reason), replays and out-of-order
 * events, quality updates, edit, delete, stats from our messages, and tenancy.
 */
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WhatsAppTemplate } from '../../../contract/templates';
import { TEMPLATE_MESSAGES } from '../../../contract/templates';
import { messages, rooms, webhookEvents, whatsappTemplateStatusHistory, whatsappTemplates } from '../../core/db/schema';
import type { StartedFakeMeta } from '../../providers/meta/fake/fakeMeta';
import { templateStatusPayload } from '../../providers/meta/fake/fakeMetaTemplates';
import { connectedNumber, graphFor, metaConfigFor, postJson, startTestFakeMeta } from '../../providers/meta/fake/testSupport';
import { describeEachDatabase } from '../../testing/testApp';
import { channelsTestApp, companyFixture, eventually, insertChannel, type ChannelsTestApp, type CompanyFixture } from '../channels/testing';
import { postWebhook } from '../channels/testing';
import { NotYetError } from '../../core/jobs/backgroundJob';
import { templateService } from './index';

const body = (text = 'Hi {{1}}, your order is ready.', examples = ['Ana']) => ({ type: 'BODY', text, example: { body_text: [examples] } });
const imageHeader = { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW1hZ2U='] } };
const card = (label: string) => ({ components: [imageHeader, { type: 'BODY', text: `Card ${label}` }, { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Buy' }, { type: 'URL', text: 'See', url: 'https://shop.test/item' }] }] });

describeEachDatabase('WhatsApp message templates with the fake Meta', (database) => {
  let fake: StartedFakeMeta;
  let t: ChannelsTestApp;
  let acme: CompanyFixture;
  let globex: CompanyFixture;
  let base = '';
  let channelId = 0;
  let wabaId = '';
  let phone = '';
  const pushes: { topic: string; event: string; payload: any }[] = [];
  let graph: ReturnType<typeof graphFor>;

  beforeAll(async () => {
    fake = await startTestFakeMeta({ webhookUrl: () => (base ? `${base}/api/webhooks/meta/` : null), templateReviewDelayMs: 30 });
    const meta = metaConfigFor(fake);
    graph = graphFor(fake);
    t = await channelsTestApp(database, { config: { meta }, overrides: { MetaGraph: graph } });
    base = await t.listen();
    acme = await companyFixture(t, 'Acme', 'acme.test');
    globex = await companyFixture(t, 'Globex', 'globex.test');
    const number = await connectedNumber(fake, graph, '+1 555 0199');
    wabaId = number.wabaId;
    phone = number.phoneNumberId;
    const channel = await insertChannel(t, acme.company, { platform: 'whatsapp', externalId: number.phoneNumberId, wabaId: number.wabaId, token: number.token });
    channelId = channel.id;
    // Record what reaches open consoles (the hub itself is the real one).
    const broadcast = t.app.realtime.broadcast.bind(t.app.realtime);
    t.app.realtime.broadcast = async (topic, event, payload) => {
      pushes.push({ topic, event, payload });
      return broadcast(topic, event, payload);
    };
  });
  afterAll(async () => {
    await templateService(t.app).settled();
    await t?.close();
    await fake?.close();
  });

  const create = (payload: unknown, who = acme.admin) => acme.call(who, 'POST', `/api/channels/${channelId}/create_template/`, payload);
  const template = (name: string, components: unknown[], category = 'MARKETING') => ({ name, language: 'en_US', category, components });
  const stored = async (name: string) => (await t.db.select().from(whatsappTemplates).where(eq(whatsappTemplates.name, name)))[0];
  const fakeTemplate = (name: string) => fake.state.waba(wabaId)!.templates.find((x) => x.name === name);

  describe('create: every component kind', () => {
    const kinds: [string, unknown][] = [
      ['text header, body, footer, quick replies', template('kind_text', [{ type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}', example: { header_text: ['Ana'] } }, body(), { type: 'FOOTER', text: 'Reply STOP to opt out' }, { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Yes' }, { type: 'QUICK_REPLY', text: 'No' }] }])],
      ['image header, URL with a variable, phone, copy code', template('kind_image', [imageHeader, body(), { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.test/t/{{1}}', example: ['https://shop.test/t/42'] }, { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+15550001234' }, { type: 'COPY_CODE', example: 'SAVE10' }] }])],
      ['video header', template('kind_video', [{ type: 'HEADER', format: 'VIDEO', example: { header_handle: ['4::dmlkZW8='] } }, body()])],
      ['document header', template('kind_document', [{ type: 'HEADER', format: 'DOCUMENT', example: { header_handle: ['4::ZG9j'] } }, body()], 'UTILITY')],
      ['location header', template('kind_location', [{ type: 'HEADER', format: 'LOCATION' }, body()], 'UTILITY')],
      [
        "authentication with a one-tap OTP and Meta's own URL-encoded signature hash",
        template('kind_one_tap', [{ type: 'BODY' }, { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'ONE_TAP', text: 'Copy code', autofill_text: 'Autofill', package_name: 'com.example.luckyshrub', signature_hash: 'K8a%2FAINcGX7' }] }], 'AUTHENTICATION'),
      ],
      ['authentication with a copy-code OTP', template('kind_auth', [{ type: 'BODY', add_security_recommendation: true }, { type: 'FOOTER', code_expiration_minutes: 5 }, { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] }], 'AUTHENTICATION')],
    ];
    it.each(kinds)('%s: 201, stored PENDING with Meta’s id, then APPROVED by the signed webhook', async (_label, payload) => {
      const res = await create(payload);
      expect(res.statusCode).toBe(201);
      const answer = res.json() as { detail: string; template: WhatsAppTemplate };
      expect(answer.detail).toBe(TEMPLATE_MESSAGES.created);
      const name = (payload as { name: string }).name;
      expect(answer.template).toMatchObject({ name, status: 'PENDING', meta_template_id: fakeTemplate(name)!.id, channel_id: channelId });
      const row = await eventually(async () => {
        await t.settled();
        const r = await stored(name);
        expect(r.status).toBe('APPROVED');
        return r;
      });
      const history = await t.db.select().from(whatsappTemplateStatusHistory).where(eq(whatsappTemplateStatusHistory.templateId, row.id));
      expect(history.map((h) => h.status)).toEqual(['PENDING', 'APPROVED']);
    });

    it('a carousel through submit_carousel_template (channel by phone number), approved by the review', async () => {
      const res = await acme.call(acme.admin, 'POST', '/api/whatsapp-template/submit_carousel_template/', {
        ...template('kind_carousel', [body('Our picks for {{1}} today', ['Ana']), { type: 'CAROUSEL', cards: [card('1'), card('2'), card('3')] }]),
        phone_number: phone,
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().template.components[1].cards).toHaveLength(3);
      await eventually(async () => {
        await t.settled();
        expect((await stored('kind_carousel')).status).toBe('APPROVED');
      });
    });

    it('a name containing "reject" is REJECTED with its reason, pushed to the channel’s page topic', async () => {
      expect((await create(template('please_reject_me', [body()]))).statusCode).toBe(201);
      const row = await eventually(async () => {
        await t.settled();
        const r = await stored('please_reject_me');
        expect(r.status).toBe('REJECTED');
        return r;
      });
      expect(row.rejectedReason).toBe('INVALID_FORMAT');
      const pushed = pushes.filter((b) => b.topic === `page:${channelId}` && b.event === 'template_status' && b.payload.name === 'please_reject_me');
      expect(pushed.at(-1)!.payload).toMatchObject({ status: 'REJECTED', rejected_reason: 'INVALID_FORMAT' });
    });
  });

  describe('refusals before Meta', () => {
    it('an invalid template is a 400 naming the dotted field, and Meta never sees it', async () => {
      const before = fake.state.waba(wabaId)!.templates.length;
      const res = await create(template('bad_footer', [body(), { type: 'FOOTER', text: 'Bye {{1}}' }]));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ 'components.1.text': ['The footer may not contain variables.'] });
      expect(fake.state.waba(wabaId)!.templates.length).toBe(before);
    });

    it('the same name and language in the account is refused on the name', async () => {
      const res = await create(template('kind_text', [body()]));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ name: [TEMPLATE_MESSAGES.duplicate] });
    });

    it('Meta’s own refusal (a duplicate it knows and we did not) stores nothing', async () => {
      // hello_world is seeded in the fake's account but not yet in our copy (never synced here).
      await t.db.delete(whatsappTemplates).where(eq(whatsappTemplates.name, 'hello_world'));
      const res = await create(template('hello_world', [body()], 'UTILITY'));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ name: [TEMPLATE_MESSAGES.duplicate] });
      expect(await stored('hello_world')).toBeUndefined();
    });

    it('Meta’s hourly creation limit is refused with a clear message before calling', async () => {
      const other = await insertChannel(t, acme.company, { platform: 'whatsapp', externalId: 'limit-pn', wabaId: 'waba-limit' });
      const { whatsappTemplateCreations } = await import('../../core/db/schema');
      await t.db.insert(whatsappTemplateCreations).values(Array.from({ length: 100 }, () => ({ wabaId: 'waba-limit' })));
      const res = await acme.call(acme.admin, 'POST', `/api/channels/${other.id}/create_template/`, template('one_more', [body()]));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: TEMPLATE_MESSAGES.hourlyLimit, code: 'template_hourly_limit' });
    });

    it('Messenger and Instagram channels have no templates: a clear 400', async () => {
      const page = await insertChannel(t, acme.company, { platform: 'messenger', externalId: 'page-1' });
      const res = await acme.call(acme.agent, 'GET', `/api/channels/${page.id}/templates/`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: TEMPLATE_MESSAGES.notSupported, code: 'templates_not_supported' });
    });

    it('agents may list but not create (whatsapp_templates manage)', async () => {
      expect((await acme.call(acme.agent, 'GET', `/api/channels/${channelId}/templates/`)).statusCode).toBe(200);
      expect((await create(template('by_agent', [body()]), acme.agent)).statusCode).toBe(403);
    });
  });

  describe('list, sync, edit, delete', () => {
    it('lists our copy with filters and paging; refresh=true syncs Meta’s list (seeded templates appear)', async () => {
      const synced = await acme.call(acme.agent, 'GET', `/api/channels/${channelId}/templates/?refresh=true&page_size=100`);
      expect(synced.statusCode).toBe(200);
      const names = (synced.json().results as WhatsAppTemplate[]).map((x) => x.name);
      expect(names).toEqual(expect.arrayContaining(['hello_world', 'order_update', 'kind_carousel']));
      // Meta's limits and their use, so the console warns before they are hit (unverified: 250 templates).
      const { limits, count } = synced.json() as { limits: Record<string, number | null>; count: number };
      expect(limits).toMatchObject({ creations_per_hour: 100, templates: count, templates_max: 250 });
      expect(limits.creations_last_hour).toBeGreaterThanOrEqual(6);
      const filtered = await acme.call(acme.agent, 'GET', `/api/channels/${channelId}/templates/?status=REJECTED&category=MARKETING&search=reject`);
      expect(filtered.json()).toMatchObject({ count: 1, results: [{ name: 'please_reject_me' }] });
      const paged = await acme.call(acme.agent, 'GET', `/api/channels/${channelId}/templates/?page=2&page_size=2`);
      expect(paged.json()).toMatchObject({ previous: 1, next: 3 });
      expect(paged.json().results).toHaveLength(2);
    });

    it('edits a template (back to review, approved again) and deletes one (spec §8 strings)', async () => {
      const row = await stored('kind_video');
      // Meta's webhook times are whole seconds: let the first approval's second pass, so the second
      // review's webhook is not byte-identical to it (identical bytes are a replay, stored once).
      const approvedAt = Math.floor(Date.now() / 1000);
      await eventually(async () => expect(Math.floor(Date.now() / 1000)).toBeGreaterThan(approvedAt), 3000);
      const edit = await t.app.inject({
        method: 'PATCH',
        url: `/api/channels/${channelId}/templates/${row.id}/`,
        headers: t.headers(acme.admin.access, acme.company),
        payload: { category: 'MARKETING', components: [body('Hello {{1}}, new video inside.', ['Ana'])] },
      });
      expect(edit.statusCode).toBe(200);
      expect(edit.json()).toMatchObject({ detail: TEMPLATE_MESSAGES.updated, template: { status: 'PENDING' } });
      expect(fakeTemplate('kind_video')!.components).toEqual([body('Hello {{1}}, new video inside.', ['Ana'])]);
      await eventually(async () => {
        await t.settled();
        expect((await stored('kind_video')).status).toBe('APPROVED');
      });
      const del = await acme.call(acme.admin, 'DELETE', `/api/channels/${channelId}/templates/${row.id}/`);
      expect(del.json()).toEqual({ detail: TEMPLATE_MESSAGES.deleted });
      expect(fakeTemplate('kind_video')).toBeUndefined();
      expect(await stored('kind_video')).toBeUndefined();
    });

    it('another company’s channel and template ids are 404', async () => {
      const row = await stored('kind_text');
      expect((await globex.call(globex.admin, 'GET', `/api/channels/${channelId}/templates/`)).statusCode).toBe(404);
      expect((await globex.call(globex.admin, 'DELETE', `/api/channels/${channelId}/templates/${row.id}/`)).statusCode).toBe(404);
      expect((await globex.call(globex.admin, 'GET', `/api/pages/${channelId}/templates/${row.id}/stats`)).statusCode).toBe(404);
      expect(await stored('kind_text')).toBeDefined();
    });
  });

  describe('status webhooks', () => {
    it('a replayed delivery changes nothing; an older status never overwrites a newer one', async () => {
      const row = await stored('kind_text');
      const fakeRow = fakeTemplate('kind_text')!;
      const paused = templateStatusPayload(wabaId, fakeRow, 'PAUSED', 'NONE') as { entry: { time: number }[] };
      paused.entry[0].time = Math.floor(Date.now() / 1000) + 100;
      expect((await postWebhook(t, paused)).statusCode).toBe(200);
      expect((await postWebhook(t, paused)).statusCode).toBe(200); // Meta's retry, same bytes
      const older = templateStatusPayload(wabaId, fakeRow, 'APPROVED') as { entry: { time: number }[] };
      older.entry[0].time = Math.floor(Date.now() / 1000) + 50;
      expect((await postWebhook(t, older)).statusCode).toBe(200);
      await t.settled();
      expect((await stored('kind_text')).status).toBe('PAUSED');
      const history = await t.db.select().from(whatsappTemplateStatusHistory).where(eq(whatsappTemplateStatusHistory.templateId, row.id));
      expect(history.filter((h) => h.status === 'PAUSED')).toHaveLength(1);
      expect(history.at(-1)!.status).toBe('PAUSED');
    });

    it('an approval processed before our create has stored the template is applied once it is; an old event for a template we never had is dropped', async () => {
      // Meta's answer to the create and its review webhook race: here the webhook is stored and handed to the
      // processor before the service has stored the template (it waits for that create, then applies it).
      const createAtMeta = graph.createMessageTemplate.bind(graph);
      graph.createMessageTemplate = async (...args: Parameters<typeof createAtMeta>) => {
        const created = await createAtMeta(...args);
        const approval = templateStatusPayload(wabaId, { id: created.id, name: args[2].name, language: args[2].language } as Parameters<typeof templateStatusPayload>[1], 'APPROVED');
        expect((await postWebhook(t, approval)).statusCode).toBe(200);
        // Processed at once without the fix (the template unknown, dropped); waiting on this create with it.
        await Promise.race([t.settled(), new Promise((resolve) => setTimeout(resolve, 1_000))]);
        return created;
      };
      try {
        expect((await create(template('racing_review', [body()], 'UTILITY'))).statusCode).toBe(201);
      } finally {
        graph.createMessageTemplate = createAtMeta;
      }
      await t.settled();
      expect((await stored('racing_review')).status).toBe('APPROVED');

      const foreign = templateStatusPayload(wabaId, { id: '990002', name: 'made_in_meta_manager', language: 'en_US' } as Parameters<typeof templateStatusPayload>[1], 'APPROVED') as { entry: { time: number }[] };
      foreign.entry[0].time = Math.floor(t.clock.now().getTime() / 1000) - 600;
      expect((await postWebhook(t, foreign)).statusCode).toBe(200);
      await t.settled();
      const [event] = await t.db.select().from(webhookEvents).orderBy(desc(webhookEvents.id)).limit(1);
      expect(event).toMatchObject({ error: null });
      expect(event.processedAt).not.toBeNull();
      expect(await stored('made_in_meta_manager')).toBeUndefined();
    });

    it('a fresh event for a template not stored yet (created by another process) is "not yet": tried again shortly, not backed off', async () => {
      // Another process's create: this one has no create under way to wait for. A failure's back-off (5 s, then 10)
      // left an end-to-end carousel "Pending" past its 20-s wait; NotYetError is tried again within a second.
      const event = { kind: 'template_status', wabaId, templateId: '990003', name: 'made_by_another_process', language: 'en_US', at: t.clock.now().toISOString(), status: 'APPROVED', reason: null } as const;
      await expect(templateService(t.app).applyWebhook(event)).rejects.toBeInstanceOf(NotYetError);
    });

    it('an unsigned template webhook is refused', async () => {
      const res = await postWebhook(t, templateStatusPayload(wabaId, fakeTemplate('kind_image')!, 'DISABLED'), 'sha256=bad');
      expect(res.statusCode).toBe(401);
      await t.settled();
      expect((await stored('kind_image')).status).toBe('APPROVED');
    });

    it('the fake’s quality control posts message_template_quality_update: our copy follows', async () => {
      const res = await postJson(`${fake.url}/control/template_quality`, { template_id: fakeTemplate('kind_image')!.id, quality: 'YELLOW' });
      expect(res.json.webhook_status).toBe(200);
      await eventually(async () => {
        await t.settled();
        expect((await stored('kind_image')).qualityScore).toBe('YELLOW');
      });
    });
  });

  describe('a sync racing our own changes (Meta lists, then we store, then the sync writes)', () => {
    /** Runs a sync whose list is read from Meta before `meanwhile` and returned after it. */
    async function syncListingBefore(meanwhile: () => Promise<void>) {
      const list = graph.messageTemplates.bind(graph);
      graph.messageTemplates = async (...args: Parameters<typeof list>) => {
        const listed = await list(...args);
        await meanwhile();
        return listed;
      };
      try {
        await templateService(t.app).sync(acme.company, channelId);
      } finally {
        graph.messageTemplates = list;
      }
    }

    it('a template created after the list was read is kept (not taken for one deleted at Meta)', async () => {
      await syncListingBefore(async () => {
        expect((await create(template('made_during_sync', [body()], 'UTILITY'))).statusCode).toBe(201);
      });
      expect(await stored('made_during_sync')).toBeDefined();
      // Its approval then finds it.
      await eventually(async () => {
        await t.settled();
        expect((await stored('made_during_sync')).status).toBe('APPROVED');
      });
    });

    it('a status a webhook moved after the list was read is not put back to the listed one', async () => {
      expect((await create(template('paused_during_sync', [body()], 'UTILITY'))).statusCode).toBe(201);
      await eventually(async () => {
        await t.settled();
        expect((await stored('paused_during_sync')).status).toBe('APPROVED');
      });
      await syncListingBefore(async () => {
        const paused = templateStatusPayload(wabaId, fakeTemplate('paused_during_sync')!, 'PAUSED', 'LOW_QUALITY') as { entry: { time: number }[] };
        paused.entry[0].time = Math.floor(Date.now() / 1000) + 5;
        expect((await postWebhook(t, paused)).statusCode).toBe(200);
        await t.settled();
        expect((await stored('paused_during_sync')).status).toBe('PAUSED');
      });
      // Meta listed it APPROVED before the webhook: the newer PAUSED stays.
      expect((await stored('paused_during_sync')).status).toBe('PAUSED');
    });
  });

  it('stats count our own template messages: sent, delivered, read, replied, failed', async () => {
    const row = await stored('kind_image');
    const [room] = await t.db.insert(rooms).values({ companyId: acme.company, channelId, externalId: '15550009999', name: 'Customer' }).returning();
    const data = { template: { name: 'kind_image', language: 'en_US', parameters: ['Ana'] } };
    const sent = (status: string) => ({ companyId: acme.company, roomId: room.id, origin: 'agent', type: 'template', text: 'x', data, status });
    await t.db.insert(messages).values([sent('sent'), sent('delivered'), sent('read'), sent('failed')]);
    await t.db.insert(messages).values({ companyId: acme.company, roomId: room.id, origin: 'user', type: 'text', text: 'Thanks!' });
    // Another template's message does not count.
    await t.db.insert(messages).values({ ...sent('read'), data: { template: { name: 'other', language: 'en_US', parameters: [] } } });
    const res = await acme.call(acme.agent, 'GET', `/api/pages/${channelId}/templates/${row.id}/stats`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sent: 3, delivered: 2, read: 1, replied: 4, failed: 1 });
    const counted = await t.db.select().from(messages).where(and(eq(messages.roomId, room.id), eq(messages.type, 'template')));
    expect(counted).toHaveLength(5);
  });
});
