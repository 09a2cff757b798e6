/**
 * The segments' part of the generated tenant-isolation test (server/testing/isolation/areas.ts), beside
 * the contacts' (./isolation.ts, whose `city` attribute and contacts it builds on): each company gets one
 * segment; A's calls name B's segment, and B's tag in conditions (refused as a field error).
 */
import { eq } from 'drizzle-orm';
import type { IsolationArea } from '../../testing/isolation/areas';
import type { World } from '../../testing/isolation/world';
import { segments } from './schema';

export const segmentsIsolation: IsolationArea = {
  name: 'segments',
  seed: async (t, company, mark) => {
    const [row] = await t.db
      .insert(segments)
      .values({
        companyId: company.id,
        name: `Segment${mark}`,
        conditions: { tags: [company.tagId], channels: [], attributes: [{ key: 'city', op: 'eq', value: `Lyon${mark}` }], last_message_within_days: null, opted_in_only: false },
      })
      .returning();
    return { segmentId: row.id };
  },
  snapshot: async (t, companyId) => ({ segments: await t.db.select().from(segments).where(eq(segments.companyId, companyId)).orderBy(segments.id) }),
  routes: (() => {
    const segment = (w: World) => ({ id: w.B.areas.segments.segmentId });
    const bTag = (w: World) => ({ conditions: { tags: [w.B.tagId], channels: [w.B.sandboxChannelId] } });
    return {
      'GET /api/segments/': { allowed: [200] },
      // B's tag and channel in the conditions: a field error, nothing stored.
      'POST /api/segments/': { body: (w) => ({ name: 'By A', ...bTag(w) }), allowed: [400] },
      'POST /api/segments/count/': { body: bTag, allowed: [400] },
      'GET /api/segments/:id/': { params: segment },
      'PATCH /api/segments/:id/': { params: segment, body: () => ({ name: 'Taken over' }) },
      'DELETE /api/segments/:id/': { params: segment },
      'GET /api/segments/:id/count/': { params: segment },
    };
  })(),
};
