/**
 * The offline demo's broadcasts (issue #11): on the Demo Company's WhatsApp number (seeded on the
 * local fake Meta by ../templates/demo.ts) with its `welcome_offer` template, one broadcast that
 * finished two days ago, its recipients in every outcome (read, replied, delivered, sent, failed
 * with Meta's reasons, one opted out), and one scheduled for tomorrow 10:00 (Europe/Paris) that
 * the engine sends to the fake Meta when the time comes. Written directly (history cannot be
 * sent again); the counters come from the recipients' states (recountBroadcast). Runs once:
 * nothing happens when the company already has a broadcast, and a failure never stops the start.
 */
import { and, count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { zonedTimeToUtc, type BroadcastVariables, type RecipientState } from '../../../contract/broadcasts';
import { channels, companies, whatsappTemplates } from '../../core/db/schema';
import { resolveVariables, templateOutbound, templateShape } from './audience/variables';
import { FAKE_META_PREFIX } from '../../providers/meta/fake/mountFakes';
import { whatsAppMessagePayload } from '../../providers/meta/outboundPayloads';
import { broadcastRecipients, broadcasts, optOuts } from './schema';
import { recountBroadcast } from './service';

const TEMPLATE = 'welcome_offer';
const HOUR = 3_600_000;

/** welcome_offer: header "Welcome, {{1}}!", body "Hi {{1}}, enjoy {{2}} off…". */
const VARIABLES: BroadcastVariables = {
  header: { '1': { source: 'field', value: 'first_name' } },
  body: { '1': { source: 'field', value: 'first_name' }, '2': { source: 'fixed', value: '15%' } },
};

type Outcome = { state: RecipientState; error?: [number, string]; repliedAfterMin?: number };

/** The finished broadcast's recipients (valid numbers from several countries) and what happened to each. */
export const DEMO_FINISHED: [phone: string, name: string, outcome: Outcome][] = [
  ['+14155550101', 'Maria Lopez', { state: 'replied', repliedAfterMin: 12 }],
  ['+14155550102', 'James Carter', { state: 'read' }],
  ['+14155550103', 'Aiko Tanaka', { state: 'read' }],
  ['+33612345601', 'Louise Martin', { state: 'replied', repliedAfterMin: 45 }],
  ['+33612345602', 'Hugo Bernard', { state: 'delivered' }],
  ['+447911123401', 'Olivia Smith', { state: 'delivered' }],
  ['+447911123402', 'Noah Jones', { state: 'read' }],
  ['+4915112345601', 'Lena Müller', { state: 'sent' }],
  ['+5511987654301', 'Ana Souza', { state: 'failed', error: [131049, 'This message was not delivered to maintain healthy ecosystem engagement.'] }],
  ['+5511987654302', 'Pedro Lima', { state: 'failed', error: [131026, 'Message undeliverable'] }],
  ['+34612345601', 'Lucía García', { state: 'read' }],
  ['+34612345602', 'Javier Ruiz', { state: 'excluded' }],
];

export const DEMO_SCHEDULED: [phone: string, name: string][] = [
  ['+14155550104', 'Ethan Brooks'],
  ['+14155550105', 'Sofia Rossi'],
  ['+33612345603', 'Camille Petit'],
  ['+447911123403', 'Amelia Brown'],
  ['+4915112345602', 'Felix Wagner'],
];

/** Tomorrow's date at 10:00 in `zone`, as the wall-clock string the create payload takes. */
function tomorrowAtTen(now: Date, zone: string): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(now.getTime() + 24 * HOUR));
  return `${day}T10:00`;
}

/**
 * The finished broadcast's messages on the local fake Meta too (issue #25: the demo tells no lies): each accepted
 * message under its wamid, the template body the engine would have sent, with its statuses at their times, so the
 * fake's page lists what the report counts.
 */
async function recordOnFakeMeta(
  app: FastifyInstance,
  phoneNumberId: string,
  broadcastId: number,
  broadcast: { templateName: string; templateLanguage: string; templateComponents: unknown[] },
  start: Date,
): Promise<void> {
  const shape = templateShape(broadcast.templateComponents);
  const messages = DEMO_FINISHED.flatMap(([phone, name, outcome], i) => {
    const reached = (states: RecipientState[]) => states.includes(outcome.state);
    if (!reached(['sent', 'delivered', 'read', 'replied'])) return [];
    const sentAt = new Date(start.getTime() + i * 1_000);
    const at = (minutes: number) => new Date(sentAt.getTime() + minutes * 60_000).toISOString();
    const content = templateOutbound({ ...broadcast, headerMediaUrl: null }, resolveVariables(shape, VARIABLES, { phone, name, values: {} }));
    const statuses = [
      { status: 'sent' as const, at: sentAt.toISOString() },
      ...(reached(['delivered', 'read', 'replied']) ? [{ status: 'delivered' as const, at: at(1) }] : []),
      ...(reached(['read', 'replied']) ? [{ status: 'read' as const, at: at(5 + i) }] : []),
    ];
    const to = phone.replace(/^\+/, '');
    return [{ id: `wamid.demo-${broadcastId}-${i}`, to, payload: whatsAppMessagePayload(to, content), summary: `[template] ${broadcast.templateName}`, created_at: sentAt.toISOString(), statuses }];
  });
  const res = await app.inject({ method: 'POST', url: `${FAKE_META_PREFIX}/control/history`, payload: { phone_number_id: phoneNumberId, messages } });
  if (res.statusCode !== 200) app.log.warn({ status: res.statusCode, body: res.body }, 'demo broadcast history not recorded on the fake Meta');
}

export async function seedDemoBroadcasts(app: FastifyInstance, companyName: string): Promise<void> {
  try {
    const db = app.services.get('Database');
    const now = app.services.get('Clock').now();
    const [company] = await db.select().from(companies).where(eq(companies.name, companyName));
    if (!company) return;
    const [{ n }] = await db.select({ n: count() }).from(broadcasts).where(eq(broadcasts.companyId, company.id));
    if (Number(n) > 0) return;
    const [channel] = await db.select().from(channels).where(and(eq(channels.companyId, company.id), eq(channels.platform, 'whatsapp')));
    if (!channel) return;
    const [template] = await db
      .select()
      .from(whatsappTemplates)
      .where(and(eq(whatsappTemplates.channelId, channel.id), eq(whatsappTemplates.name, TEMPLATE)));
    if (!template) return;
    const shape = templateShape(template.components);
    const common = {
      companyId: company.id,
      channelId: channel.id,
      templateName: template.name,
      templateLanguage: template.language,
      templateId: template.id,
      templateComponents: template.components,
      templateCategory: template.category,
      variables: VARIABLES,
      audienceType: 'csv' as const,
    };

    // ---- finished two days ago ----
    const start = new Date(now.getTime() - 48 * HOUR);
    const [finished] = await db
      .insert(broadcasts)
      .values({
        ...common,
        name: 'Autumn welcome offer',
        csvFileName: 'autumn-customers.csv',
        status: 'completed',
        startedAt: start,
        completedAt: new Date(start.getTime() + 2 * 60_000),
        exclusions: { opted_out: 1 },
        nUsers: DEMO_FINISHED.filter(([, , o]) => o.state !== 'excluded').length,
        createdAt: new Date(start.getTime() - 10 * 60_000),
        updatedAt: now,
      })
      .returning();
    await db.insert(broadcastRecipients).values(
      DEMO_FINISHED.map(([phone, name, outcome], i) => {
        const sentAt = new Date(start.getTime() + i * 1_000);
        const at = (minutes: number) => new Date(sentAt.getTime() + minutes * 60_000);
        const reached = (s: RecipientState[]) => s.includes(outcome.state);
        return {
          broadcastId: finished.id,
          companyId: company.id,
          phone,
          name,
          rowNumber: i + 2,
          variables: resolveVariables(shape, VARIABLES, { phone, name, values: {} }),
          state: outcome.state,
          exclusionReason: outcome.state === 'excluded' ? ('opted_out' as const) : null,
          attempts: outcome.state === 'excluded' ? 0 : 1,
          waMessageId: reached(['sent', 'delivered', 'read', 'replied']) ? `wamid.demo-${finished.id}-${i}` : null,
          errorCode: outcome.error?.[0] ?? null,
          errorTitle: outcome.error?.[1] ?? null,
          queuedAt: outcome.state === 'excluded' ? null : start,
          sendingAt: outcome.state === 'excluded' ? null : sentAt,
          sentAt: reached(['sent', 'delivered', 'read', 'replied']) ? sentAt : null,
          deliveredAt: reached(['delivered', 'read', 'replied']) ? at(1) : null,
          readAt: reached(['read', 'replied']) ? at(5 + i) : null,
          repliedAt: outcome.repliedAfterMin ? at(outcome.repliedAfterMin) : null,
          failedAt: outcome.state === 'failed' ? at(0) : null,
          createdAt: start,
        };
      }),
    );
    const optedOut = DEMO_FINISHED.find(([, , o]) => o.state === 'excluded');
    if (optedOut) {
      await db
        .insert(optOuts)
        .values({ companyId: company.id, phone: optedOut[0], reason: 'stop_keyword', source: 'message', detail: 'STOP', createdAt: new Date(start.getTime() - 24 * HOUR) })
        .onConflictDoNothing();
    }
    await recountBroadcast(db, finished.id);
    await recordOnFakeMeta(app, channel.externalId, finished.id, common, start);

    // ---- scheduled for tomorrow 10:00, Paris time ----
    const zone = 'Europe/Paris';
    const scheduledAt = zonedTimeToUtc(tomorrowAtTen(now, zone), zone)!;
    const [scheduled] = await db
      .insert(broadcasts)
      .values({
        ...common,
        name: 'Weekend flash sale',
        csvFileName: 'weekend-sale.csv',
        status: 'scheduled',
        scheduledAt,
        timeZone: zone,
        nUsers: DEMO_SCHEDULED.length,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await db.insert(broadcastRecipients).values(
      DEMO_SCHEDULED.map(([phone, name], i) => ({
        broadcastId: scheduled.id,
        companyId: company.id,
        phone,
        name,
        rowNumber: i + 2,
        variables: resolveVariables(shape, VARIABLES, { phone, name, values: {} }),
        state: 'queued' as const,
        queuedAt: now,
        createdAt: now,
      })),
    );
    await recountBroadcast(db, scheduled.id);
    app.log.info({ finished: finished.id, scheduled: scheduled.id }, 'demo broadcasts seeded');
  } catch (err) {
    app.log.warn({ err }, 'demo broadcasts not seeded');
  }
}
