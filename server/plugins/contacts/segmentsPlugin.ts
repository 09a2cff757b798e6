/**
 * The segments' part of the contacts plugin's init (issue #23), kept apart from ./index.ts: the service,
 * its routes (./segmentRoutes.ts), the demo's two segments (./segmentsDemo.ts), and the contacts source
 * the broadcasts plugin reads a segment's members and the contacts' attributes from, when it runs.
 */
import type { FastifyInstance } from 'fastify';
import { and, eq, inArray } from 'drizzle-orm';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import type { DemoDataRegistry } from '../../core/demoData';
import type { BroadcastContactSources } from '../broadcasts';
import { segmentRoutes } from './segmentRoutes';
import { SegmentService } from './segments';
import { seedDemoSegments } from './segmentsDemo';
import { contacts as contactsTable } from './schema';
import type { ContactService } from './service';

export function registerSegments(deps: {
  http: FastifyInstance;
  db: Database;
  clock: Clock;
  demoData: DemoDataRegistry;
  contacts: ContactService;
  broadcastContacts: BroadcastContactSources | undefined;
}): SegmentService {
  const { http, db, clock, demoData, contacts, broadcastContacts } = deps;
  const segments = new SegmentService({ db, now: () => clock.now(), attributes: contacts.attributes, contacts });
  segmentRoutes(http, segments);
  broadcastContacts?.register({
    segmentMembers: (companyId, segmentId) => segments.members(companyId, segmentId),
    attributesByPhone: async (companyId, phones) => {
      const out = new Map<string, Record<string, string | number | boolean>>();
      for (let i = 0; i < phones.length; i += 5000) {
        const rows = await db
          .select({ phone: contactsTable.phone, attributes: contactsTable.attributes })
          .from(contactsTable)
          .where(and(eq(contactsTable.companyId, companyId), inArray(contactsTable.phone, phones.slice(i, i + 5000))));
        for (const r of rows) if (r.phone) out.set(r.phone, r.attributes ?? {});
      }
      return out;
    },
    attributeKeys: async (companyId) => (await contacts.attributes.list(companyId)).map((a) => a.key),
  });
  // After the demo's contacts (120): segments over their attributes and tags.
  demoData.add({ id: 'segments', order: 130, phase: 'withCompanies', seed: ({ tx, companyIds }) => seedDemoSegments(tx, companyIds.demo) });
  return segments;
}
