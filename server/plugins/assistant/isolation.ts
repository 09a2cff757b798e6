/**
 * This plugin's part of the generated tenant-isolation test (server/testing/isolation/areas.ts).
 * One article per company whose words carry the marker (B's), the settings with B's sandbox channel.
 * A's question names B's words exactly: A's ask must not retrieve B's passage (the marker would
 * show in the answer), and A's calls on B's item are 404 with B's rows unchanged. The copilot's
 * routes on B's room are 404 (no suggestion from B's messages, no note in B's room).
 */
import { asc, eq } from 'drizzle-orm';
import type { IsolationArea } from '../../testing/isolation/areas';
import { MARKER } from '../../testing/isolation/world';
import { assistantServices } from './index';
import { assistantSettings, assistantUsage, knowledgeItems, knowledgePassages } from './schema';

export const assistantIsolation: IsolationArea = {
  name: 'assistant',
  async seed(t, company, mark) {
    const { knowledge, assistant } = assistantServices(t.app);
    const item = await knowledge.createArticle(company.id, { title: `Delivery${mark}`, body: `# Parcels${mark}\n\nParcels travel by zeppelin ${mark} within three days.` });
    await assistant.updateSettings(company.id, { provider: 'local', threshold: 0.1, channels: [company.sandboxChannelId], api_key: `key${mark}` });
    return { itemId: item.id };
  },

  async snapshot(t, companyId) {
    return {
      items: await t.db.select().from(knowledgeItems).where(eq(knowledgeItems.companyId, companyId)).orderBy(asc(knowledgeItems.id)),
      passages: await t.db
        .select({ id: knowledgePassages.id, itemId: knowledgePassages.itemId, text: knowledgePassages.text })
        .from(knowledgePassages)
        .where(eq(knowledgePassages.companyId, companyId))
        .orderBy(asc(knowledgePassages.id)),
      settings: await t.db.select().from(assistantSettings).where(eq(assistantSettings.companyId, companyId)),
      usage: await t.db.select().from(assistantUsage).where(eq(assistantUsage.companyId, companyId)).orderBy(asc(assistantUsage.id)),
    };
  },

  routes: {
    'GET /api/knowledge/': { query: () => ({ search: MARKER }), allowed: [200] },
    // A creates its own article (B's data untouched).
    'POST /api/knowledge/': { body: () => ({ title: 'Created by A', body: 'A text' }), allowed: [201] },
    // Not multipart: a plain-words 400, nothing stored anywhere.
    'POST /api/knowledge/upload/': { allowed: [400] },
    'GET /api/knowledge/:id/': { params: (w) => ({ id: w.B.areas.assistant.itemId }) },
    'PATCH /api/knowledge/:id/': { params: (w) => ({ id: w.B.areas.assistant.itemId }), body: () => ({ title: 'Taken over by A' }) },
    'DELETE /api/knowledge/:id/': { params: (w) => ({ id: w.B.areas.assistant.itemId }) },
    'GET /api/assistant/settings/': { allowed: [200] },
    // A naming B's channel in its own settings: refused (400), B's settings untouched.
    'PATCH /api/assistant/settings/': { body: (w) => ({ channels: [w.B.sandboxChannelId] }), allowed: [400] },
    // A's question in B's own words: A's knowledge has nothing of B's, so A's assistant hands over.
    'POST /api/assistant/ask/': { body: () => ({ question: `How do parcels travel by zeppelin ${MARKER}?` }), allowed: [200] },
    // The copilot on B's room: 404, nothing suggested from B's messages, no note stored in B's room.
    'POST /api/rooms/:id/suggest-reply/': { params: (w) => ({ id: w.B.roomId }) },
    'POST /api/rooms/:id/summary/': { params: (w) => ({ id: w.B.roomId }) },
  },
};
