/**
 * This plugin's part of the generated tenant-isolation test (server/testing/isolation/areas.ts):
 * each company gets one broadcast on its WhatsApp number (its approved-template row from the world)
 * with one recipient and one opt-out; A's calls name B's broadcast, channel and template.
 */
import { eq, inArray } from 'drizzle-orm';
import type { IsolationArea } from '../../testing/isolation/areas';
import type { World } from '../../testing/isolation/world';
import { broadcastRecipients, broadcasts, optOuts } from './schema';

const csvOf = (phone: string) => `phone,name\n${phone},Customer\n`;

export const broadcastsIsolation: IsolationArea = {
  name: 'broadcasts',
  seed: async (t, company, mark) => {
    const [row] = await t.db
      .insert(broadcasts)
      .values({
        companyId: company.id,
        channelId: company.whatsappChannelId,
        name: `Broadcast${mark}`,
        templateName: `template_${mark ? 'b' : 'a'}`,
        templateLanguage: 'en_US',
        templateId: company.whatsappTemplateId,
        variables: { body: {} },
        audienceType: 'csv',
        csvFileName: `list${mark}.csv`,
        // Paused, not sending: the engine would finish a 'sending' broadcast with nothing queued in the
        // background, and B's rows would change under a call that has nothing to do with it.
        status: 'paused',
        nUsers: 1,
        queuedCount: 0,
        sentCount: 1,
      })
      .returning();
    const [recipient] = await t.db
      .insert(broadcastRecipients)
      .values({ broadcastId: row.id, companyId: company.id, phone: mark ? '+14155550199' : '+14155550198', name: `Recipient${mark}`, variables: { body: [] }, state: 'failed', errorCode: 131026, errorTitle: `Undeliverable${mark}`, attempts: 1 })
      .returning();
    await t.db.insert(optOuts).values({ companyId: company.id, phone: mark ? '+14155550197' : '+14155550196', reason: 'stop_keyword', source: 'message', detail: `STOP${mark}` });
    return { broadcastId: row.id, recipientId: recipient.id };
  },
  snapshot: async (t, companyId) => {
    const rows = await t.db.select().from(broadcasts).where(eq(broadcasts.companyId, companyId)).orderBy(broadcasts.id);
    const ids = rows.map((r) => r.id);
    return {
      broadcasts: rows,
      recipients: ids.length ? await t.db.select().from(broadcastRecipients).where(inArray(broadcastRecipients.broadcastId, ids)).orderBy(broadcastRecipients.id) : [],
      optOuts: await t.db.select().from(optOuts).where(eq(optOuts.companyId, companyId)).orderBy(optOuts.id),
    };
  },
  routes: (() => {
    const id = (w: World) => ({ id: w.B.areas.broadcasts.broadcastId });
    // A valid create naming B's number and template: refused as a field error (400), nothing stored for B.
    const create = {
      body: (w: World) => ({
        name: 'By A',
        page_id: w.B.whatsappChannelId,
        template: { id: w.B.whatsappTemplateId, name: 'template_b', language: 'en_US' },
        audience: { type: 'csv', csv: csvOf('+14155550195') },
      }),
      allowed: [400],
    };
    return {
      'GET /api/broadcasts/': { allowed: [200] },
      'POST /api/broadcasts': create,
      'POST /api/broadcasts/': create,
      'POST /api/broadcasts/audience/preview/': { body: (w) => ({ page_id: w.B.whatsappChannelId, audience: { type: 'csv', csv: csvOf('+14155550195') } }), allowed: [400] },
      'GET /api/broadcasts/:id/': { params: id },
      'GET /api/broadcasts/:id/recipients/': { params: id },
      'GET /api/broadcasts/:id/report/': { params: id },
      'POST /api/broadcasts/:id/pause/': { params: id },
      'POST /api/broadcasts/:id/resume/': { params: id },
      'POST /api/broadcasts/:id/cancel/': { params: id },
      'POST /api/broadcasts/:id/retry/': { params: id, body: (w) => ({ recipient_ids: [w.B.areas.broadcasts.recipientId] }) },
      'DELETE /api/broadcasts/:id/': { params: id, body: (w) => ({ broadcast_id: w.B.areas.broadcasts.broadcastId }) },
    };
  })(),
};
