/**
 * This plugin's part of the generated tenant-isolation test (server/testing/isolation/areas.ts).
 * Each company gets a REAL bot-service key (stored hashed and sealed like any other): the seed
 * replaces the world's placeholder `botKey` with it, so the generator's botKey checks go through the
 * real resolver. One bot (two steps, an option; on no channel, so the runtime stays out of the world's rooms), one
 * operation and one opt-out per company, B's names and texts carrying the marker.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import type { IsolationArea } from '../../testing/isolation/areas';
import { SecretBox } from '../../core/crypto/secretBox';
import { PlanLimitsHub } from '../../core/planLimits';
import { BotKeyService, newBotKey } from './keys';
import { BotService } from './service';
import { BotDraftService } from './drafts';
import { botChannels, botDrafts, botIntegrations, botOperations, botOptOuts, bots, botSteps, botVersions, stepOptions } from './schema';

const BASE = '/bot-service';

export const botsIsolation: IsolationArea = {
  name: 'bots',
  async seed(t, company, mark) {
    const keys = new BotKeyService({ db: t.db, clock: t.clock, box: new SecretBox(t.config.channelSecretKey), base: BASE });
    const key = newBotKey();
    await keys.install(company.id, key);
    // The world's botKey is what the generator sends (`Authorization: Bot <key>`): make it the real one.
    (company as { botKey: string }).botKey = key;

    // No plan policy: the seed's bot is not the generator's business (the routes check the plan themselves).
    const service = new BotService(t.db, t.clock, new PlanLimitsHub());
    // Not assigned to a channel: the runtime would answer the world's customer messages in the background.
    const bot = await service.create(company.id, { name: `Bot${mark}`, channels: [] });
    await service.saveGraph(company.id, {
      bot: bot.id,
      steps: [
        {
          id: 's1',
          messages: [{ text: `Hello${mark}`, media_url: null, type: 'text' }],
          options: [{ id: 'o1', text: `Go${mark}`, next_step: 's2' }],
          next_step_id: null,
          layout: { x: 300, y: 300 },
          actions: [],
          input: null,
        },
        { id: 's2', messages: [{ text: `Bye${mark}`, media_url: null, type: 'text' }], options: [], next_step_id: null, layout: null, actions: [{ type: 'add_tag', tag: `tag${mark}` }], input: null },
      ],
    });
    // The graph above is version 1; a draft with an image not uploaded yet waits to be published.
    const drafts = new BotDraftService(t.db, t.clock, service);
    await drafts.save(
      company.id,
      bot.id,
      { step: 's1', fallback_step_id: null, steps: [{ id: 's1', messages: [{ text: `Draft${mark}`, media_url: null, type: 'image' }], options: [], next_step_id: null, layout: null, actions: [], input: null }] },
      'seed',
    );
    const [version] = await t.db.select({ id: botVersions.id }).from(botVersions).where(eq(botVersions.botId, bot.id));
    const [operation] = await t.db
      .insert(botOperations)
      .values({ companyId: company.id, name: `Operation${mark}`, method: 'GET', url: `https://example.com/${encodeURIComponent(`op${mark}`)}` })
      .returning();
    await t.db.insert(botOptOuts).values({ companyId: company.id, channelId: company.sandboxChannelId, roomId: company.roomId, externalId: `customer${mark}`, name: `Customer${mark}`, reason: 'action', botId: bot.id });
    return { botId: bot.id, operationId: operation.id, botVersionId: version.id };
  },

  async snapshot(t, companyId) {
    const botRows = await t.db.select().from(bots).where(eq(bots.companyId, companyId)).orderBy(asc(bots.id));
    const ids = botRows.map((b) => b.id);
    return {
      bots: botRows,
      steps: ids.length ? await t.db.select().from(botSteps).where(inArray(botSteps.botId, ids)).orderBy(asc(botSteps.botId), asc(botSteps.id)) : [],
      options: ids.length ? await t.db.select().from(stepOptions).where(inArray(stepOptions.botId, ids)).orderBy(asc(stepOptions.botId), asc(stepOptions.id)) : [],
      drafts: ids.length ? await t.db.select().from(botDrafts).where(inArray(botDrafts.botId, ids)).orderBy(asc(botDrafts.botId)) : [],
      versions: await t.db.select().from(botVersions).where(eq(botVersions.companyId, companyId)).orderBy(asc(botVersions.id)),
      channels: await t.db.select().from(botChannels).where(eq(botChannels.companyId, companyId)).orderBy(asc(botChannels.channelId)),
      operations: await t.db.select().from(botOperations).where(eq(botOperations.companyId, companyId)).orderBy(asc(botOperations.id)),
      optOuts: await t.db.select().from(botOptOuts).where(eq(botOptOuts.companyId, companyId)).orderBy(asc(botOptOuts.id)),
      key: await t.db.select({ hash: botIntegrations.keyHash, rotatedAt: botIntegrations.rotatedAt }).from(botIntegrations).where(eq(botIntegrations.companyId, companyId)),
    };
  },

  routes: {
    // ---------- the bot service: A's key with B's ids (the generator checks bot-key routes before login routes such as the rotation below) ----------
    [`GET ${BASE}/api/bots/`]: { allowed: [200] },
    // A's own bot, but on B's channel: refused as a field error, nothing created.
    [`POST ${BASE}/api/bots/`]: { body: (w) => ({ name: 'Created by A', channels: [w.B.sandboxChannelId] }), allowed: [400] },
    [`GET ${BASE}/api/bots/:id/`]: { params: (w) => ({ id: w.B.areas.bots.botId }) },
    [`PATCH ${BASE}/api/bots/:id/`]: { params: (w) => ({ id: w.B.areas.bots.botId }), body: () => ({ name: 'Renamed by A' }) },
    [`DELETE ${BASE}/api/bots/:id/`]: { params: (w) => ({ id: w.B.areas.bots.botId }) },
    [`POST ${BASE}/api/bots/:id/steps/`]: { params: (w) => ({ id: w.B.areas.bots.botId }), body: () => ({ id: 'by_a', messages: [{ text: 'Added by A' }], options: [], next_step_id: null }) },
    [`PATCH ${BASE}/api/bots/:id/steps/:stepId/`]: { params: (w) => ({ id: w.B.areas.bots.botId, stepId: 's1' }), body: () => ({ messages: [{ text: 'Changed by A' }] }) },
    [`DELETE ${BASE}/api/bots/:id/steps/:stepId/`]: { params: (w) => ({ id: w.B.areas.bots.botId, stepId: 's2' }), body: () => ({ steps: [] }) },
    [`GET ${BASE}/branch/fetch/`]: { query: (w) => ({ bot: String(w.B.areas.bots.botId) }) },
    [`POST ${BASE}/branch/update_or_create/`]: { body: (w) => ({ bot: w.B.areas.bots.botId, steps: [] }) },
    [`GET ${BASE}/api/operations/`]: { allowed: [200] },
    [`POST ${BASE}/api/operations/`]: { body: () => ({ name: 'Operation by A', url: 'https://example.com/a' }), allowed: [201] },
    [`POST ${BASE}/api/operations/example/`]: { body: () => ({ curl: 'curl https://example.com/generated-by-a' }), allowed: [201] },
    [`DELETE ${BASE}/api/operations/:id/`]: { params: (w) => ({ id: w.B.areas.bots.operationId }) },
    [`GET ${BASE}/api/opt-out-csv/`]: { allowed: [200] },

    // ---------- the main API ----------
    'GET /api/bots/integration/': { allowed: [200] },
    'GET /api/bot-integrations/': { allowed: [200] },
    'GET /api/bots/:id/steps/': { params: (w) => ({ id: w.B.areas.bots.botId }) },
    'POST /api/bots/:id/steps/': { params: (w) => ({ id: w.B.areas.bots.botId }), body: () => ({ data: { steps: [{ id: 'by_a', messages: [{ text: 'Added by A' }] }], options: [] } }) },
    'PATCH /api/bots/:id/': { params: (w) => ({ id: w.B.areas.bots.botId }), body: (w) => ({ name: 'Renamed by A', channels: [w.B.sandboxChannelId] }) },
    // (The generator sends no body with a DELETE: the bot is looked up (404) before an empty body is refused.)
    'DELETE /api/bots/:id/': { params: (w) => ({ id: w.B.areas.bots.botId }), body: () => ({ steps: ['s2'], options: ['o1'] }) },
    // The draft, its publication and the versions (drafts.ts).
    'GET /api/bots/:id/draft/': { params: (w) => ({ id: w.B.areas.bots.botId }) },
    'PUT /api/bots/:id/draft/': { params: (w) => ({ id: w.B.areas.bots.botId }), body: () => ({ steps: [{ id: 'by_a', messages: [{ text: 'Drafted by A' }] }] }) },
    'POST /api/bots/:id/publish/': { params: (w) => ({ id: w.B.areas.bots.botId }) },
    'GET /api/bots/:id/versions/': { params: (w) => ({ id: w.B.areas.bots.botId }) },
    'POST /api/bots/:id/versions/:versionId/restore/': { params: (w) => ({ id: w.B.areas.bots.botId, versionId: w.B.areas.bots.botVersionId }) },
    // The runtime's test chat (server/plugins/bots/runtime): B's bot with A's header.
    'POST /api/bots/:id/test-chat/': { params: (w) => ({ id: w.B.areas.bots.botId }), body: () => ({ text: 'hi' }) },
    // Rotates A's own key (checked after every bot-key route, see generator.checkRoutes).
    'POST /api/bots/integration/rotate/': { allowed: [200] },
  },
};
