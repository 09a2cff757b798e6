/**
 * The demo's segments (issue #23): over the demo contacts of ./demo.ts, one by attribute (city = Lyon)
 * and one by tag (vip, who also receive broadcasts). Deterministic; safe on a database that has them.
 */
import { and, eq } from 'drizzle-orm';
import type { SegmentConditions } from '../../../contract/segments';
import type { Tx } from '../../core/db/client';
import { tags } from '../../core/db/schema';
import { segments } from './schema';


export const DEMO_SEGMENTS = { lyon: 'Customers in Lyon', vip: 'VIP customers' } as const;

export async function seedDemoSegments(tx: Tx, companyId: number): Promise<void> {
  const [vip] = await tx
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.companyId, companyId), eq(tags.name, 'vip')));
  const none: SegmentConditions = { tags: [], channels: [], attributes: [], last_message_within_days: null, opted_in_only: false };
  const rows: { name: string; conditions: SegmentConditions }[] = [{ name: DEMO_SEGMENTS.lyon, conditions: { ...none, attributes: [{ key: 'city', op: 'eq', value: 'Lyon' }] } }];
  if (vip) rows.push({ name: DEMO_SEGMENTS.vip, conditions: { ...none, tags: [vip.id], opted_in_only: true } });
  await tx
    .insert(segments)
    .values(rows.map((r) => ({ companyId, ...r })))
    .onConflictDoNothing();
}
