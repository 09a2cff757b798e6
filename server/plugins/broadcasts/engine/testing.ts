/** Test and bench helpers: a broadcast with its recipients written the way the API writes them (state queued). */
import { eq, sql } from 'drizzle-orm';
import type { BroadcastStatus, RecipientState } from '../../../../contract/broadcasts';
import type { Database } from '../../../core/db/client';
import { broadcastRecipients, broadcasts } from '../schema';
import { systemClock } from '../../../core/clock';
import { testConfig } from '../../../core/config';
import { HttpMetaGraph } from '../../../providers/meta/graphClient';
import { startFakeMeta, type StartedFakeMeta } from '../../../providers/meta/fake/fakeMeta';
import type { DatabaseKind } from '../../../testing/testApp';
import { channelsTestApp, type ChannelsTestApp } from '../../channels/testing';
import { broadcastEngineRuntime, type BroadcastEngineRuntime } from '../index';
import { rowsOf } from '../../../core/db/rows';

export interface SeedBroadcast {
  companyId: number;
  channelId: number;
  phones: string[];
  status?: BroadcastStatus;
  scheduledAt?: Date | null;
  templateName?: string;
  templateLanguage?: string;
  /** Body parameters each recipient gets. */
  body?: (phone: string, index: number) => string[];
}

/**
 * Inserts the broadcast and its recipients (in chunks) in one transaction, as the API does; returns
 * the broadcast id. (Written apart, a running engine could see a `sending` broadcast with no
 * recipient yet and complete it: that happened on a loaded PostgreSQL.)
 */
export async function seedBroadcast(db: Database, input: SeedBroadcast): Promise<number> {
  return db.transaction((tx) => insertBroadcast(tx as unknown as Database, input));
}

async function insertBroadcast(db: Database, input: SeedBroadcast): Promise<number> {
  const n = input.phones.length;
  const [row] = await db
    .insert(broadcasts)
    .values({
      companyId: input.companyId,
      channelId: input.channelId,
      name: `Broadcast of ${n}`,
      templateName: input.templateName ?? 'order_update',
      templateLanguage: input.templateLanguage ?? 'en_US',
      variables: { body: { '1': { source: 'field', value: 'name' }, '2': { source: 'fixed', value: 'A-1' } } },
      audienceType: 'csv',
      status: input.status ?? 'sending',
      scheduledAt: input.scheduledAt ?? null,
      nUsers: n,
      queuedCount: n,
    })
    .returning({ id: broadcasts.id });
  const body = input.body ?? ((_phone: string, i: number) => [`Customer ${i}`, `A-${i}`]);
  for (let start = 0; start < n; start += 2000) {
    await db.insert(broadcastRecipients).values(
      input.phones.slice(start, start + 2000).map((phone, k) => ({
        broadcastId: row.id,
        companyId: input.companyId,
        phone,
        name: `Customer ${start + k}`,
        variables: { body: body(phone, start + k) },
        state: 'queued' as const,
        queuedAt: new Date(),
      })),
    );
  }
  return row.id;
}

/** E.164 test numbers +1555 2xx xxxx. */
export function testPhones(n: number, offset = 0): string[] {
  return Array.from({ length: n }, (_, i) => `+1555${String(2_000_000 + offset + i).padStart(7, '0')}`);
}

export interface StateCounts {
  states: Partial<Record<RecipientState, number>>;
  counters: { queued: number; sent: number; delivered: number; read: number; replied: number; failed: number; unknown: number };
  status: BroadcastStatus;
}

/** The recipients' states and the broadcast's counters, to compare. */
export async function stateCounts(db: Database, broadcastId: number): Promise<StateCounts> {
  const rows = rowsOf<{ state: RecipientState; n: number }>(
    await db.execute(sql`select state, count(*)::int as n from broadcast_recipients where broadcast_id = ${broadcastId} group by state`),
  );
  const states: Partial<Record<RecipientState, number>> = {};
  for (const r of rows) states[r.state] = Number(r.n);
  const [b] = await db.select().from(broadcasts).where(eq(broadcasts.id, broadcastId));
  return {
    states,
    counters: { queued: b.queuedCount, sent: b.sentCount, delivered: b.deliveredCount, read: b.readCount, replied: b.repliedCount, failed: b.failedCount, unknown: b.unknownCount },
    status: b.status,
  };
}

/** What the counters should be, from the states (cumulative funnel). */
export function countersFromStates(states: Partial<Record<RecipientState, number>>): StateCounts['counters'] {
  const s = (k: RecipientState) => states[k] ?? 0;
  return {
    queued: s('queued') + s('sending'),
    sent: s('sent') + s('delivered') + s('read') + s('replied'),
    delivered: s('delivered') + s('read') + s('replied'),
    read: s('read') + s('replied'),
    replied: s('replied'),
    failed: s('failed'),
    unknown: s('unknown'),
  };
}

/**
 * The app with its broadcast engine (fast timings) against a fake Meta of its own, through the real
 * Graph adapter, listening so the fake's signed webhooks reach it. `hub`: the engine's progress events
 * go to the test app's hub, where tests read them.
 */
export async function startEngineTestApp(database: DatabaseKind, options: { hub?: boolean } = {}): Promise<{ fake: StartedFakeMeta; t: ChannelsTestApp; engine: BroadcastEngineRuntime }> {
  const defaults = testConfig();
  let base = '';
  const fake = await startFakeMeta({
    appId: defaults.meta.appId,
    appSecret: defaults.meta.appSecret,
    graphVersion: defaults.meta.graphVersion,
    webhookUrl: () => (base ? `${base}/api/webhooks/meta/` : null),
    statusDelayMs: 20,
    // Statuses are posted by the tests (control/status): a webhook per message would only add load.
    autoStatuses: false,
  });
  const meta = { ...defaults.meta, graphUrl: fake.graphUrl, sendRetryDelaysMs: [] };
  let engine: BroadcastEngineRuntime | null = null;
  const t = await channelsTestApp(database, {
    config: { meta },
    overrides: { MetaGraph: new HttpMetaGraph(meta, { sleep: async () => {} }), Clock: systemClock },
    onBuild: (app) => {
      engine = broadcastEngineRuntime(app);
      engine.worker.timing = { ...engine.worker.timing, tickMs: 100, idleTickMs: 100, flushMs: 20 };
    },
  });
  if (options.hub) engine!.progress.hubOverride = t.hub;
  base = await t.listen();
  return { fake, t, engine: engine! };
}
