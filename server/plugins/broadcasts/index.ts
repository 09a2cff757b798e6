/**
 * Broadcasts plugin (issue #11): one approved WhatsApp template sent to many customers.
 * This folder: the API (./routes.ts, ./service.ts), audiences (./audience: contacts filter, CSV
 * rules, exclusions, messaging limit), the report, the demo (./demo.ts) and the tables
 * (./schema.ts). The sending engine (job queue, pacing, Meta calls, delivery webhooks, opt-outs)
 * lives in ./engine and is reached through ./engineApi.ts. Status and counter changes reach open
 * consoles as `broadcast_update` on the channel's `page:{id}` topic (company-scoped).
 *
 * Needs: the channel service (tokens), the channels' webhook events (statuses, replies, opt-outs),
 * the plan limits (recipients per month), the realtime hub, Meta's Graph API, the media storage.
 * Gives: the broadcast service and engine (tests, the demo), the keyword opt-outs (the bots' CSV)
 * and the messaging-limit usage of a channel (the stats' channel health).
 */
import type { FastifyInstance } from 'fastify';
import { and, count, eq, sql } from 'drizzle-orm';
import type { MessagingLimitUsage } from '../../../contract/broadcasts';
import type { AttributeValue, ContactBroadcast } from '../../../contract/contacts';
import { coreExtensionPoints, coreServices, createExtensionPoint, createServiceRef, defineServerPlugin, offerExtensionPoint } from '../../core/plugins';
import { prepared } from '../../core/db/prepared';
import { channelServiceRef, webhookEventsExtensionPoint } from '../channels';
import type { ChannelRow } from '../chats';
import { messagingLimitUsage } from './engine/limits';
import { createBroadcastEngine, type BroadcastEngineRuntime } from './engine';
import { KeywordOptOutList } from './optOutList';
import { RecipientHistory } from './history';
import { broadcastRoutes } from './routes';
import { BroadcastService } from './service';
import { broadcastRecipients, broadcasts } from './schema';
import { chatKeyOf } from '../../providers/storage/sweeper';
import { seedDemoBroadcasts } from './demo';

// ---- What the broadcasts plugin gives other plugins (issue #20: its contract; the only way in) ----

export const broadcastServiceRef = createServiceRef<BroadcastService>({ id: 'broadcasts.service' });
export const broadcastEngineRef = createServiceRef<BroadcastEngineRuntime>({ id: 'broadcasts.engine' });

/** A keyword opt-out (STOP and configured keywords, Meta's marketing opt-out) as the bots' CSV lists it. */
export interface KeywordOptOut {
  externalId: string;
  channel: string | null;
  platform: string | null;
  reason: string;
  at: Date;
}
export interface BroadcastOptOuts {
  /** The company's keyword opt-outs, newest first, at most `limit`. */
  newestOfCompany(companyId: number, limit: number): Promise<KeywordOptOut[]>;
  /** Which of these customer ids (E.164 phones, a channel's user ids) are on the company's opt-out list (the contacts' opted_out). */
  optedOut(companyId: number, customerIds: string[]): Promise<Set<string>>;
}
export const broadcastOptOutsRef = createServiceRef<BroadcastOptOuts>({ id: 'broadcasts.optOuts' });

/** The broadcasts a phone was sent in a company (the contact panel's list, ./history.ts). */
export interface BroadcastHistory {
  receivedBy(companyId: number, phone: string, limit: number): Promise<ContactBroadcast[]>;
}
export const broadcastHistoryRef = createServiceRef<BroadcastHistory>({ id: 'broadcasts.history' });

/** Meta's messaging limit of a WhatsApp channel's portfolio: unique recipients of the last 24 hours, as the engine counts them (./engine/limits.ts). */
export interface MessagingLimits {
  usage(channel: Pick<ChannelRow, 'id' | 'companyId' | 'externalId' | 'wabaId' | 'settings'>, now: Date): Promise<MessagingLimitUsage>;
}
export const messagingLimitsRef = createServiceRef<MessagingLimits>({ id: 'broadcasts.messagingLimits' });

/** A contact as a broadcast reads it: where to send, and its attributes (template variables of source `attribute`). */
export interface BroadcastContact {
  name: string;
  phone: string | null;
  externalId: string | null;
  platform: string | null;
  attributes: Record<string, AttributeValue>;
}
/** The company's contacts, as the contacts plugin gives them to broadcasts (segment audiences, attribute variables). */
export interface BroadcastContactSource {
  /** A segment's members now; null when the company has no such segment. */
  segmentMembers(companyId: number, segmentId: number): Promise<{ id: number; name: string; members: BroadcastContact[] } | null>;
  /** The attributes of the company's contacts with these E.164 phones. */
  attributesByPhone(companyId: number, phones: string[]): Promise<Map<string, Record<string, AttributeValue>>>;
  /** The keys of the company's defined attributes. */
  attributeKeys(companyId: number): Promise<string[]>;
}
/** Where the contacts plugin registers its source (absent: segments and attribute variables are refused in words). */
export interface BroadcastContactSources {
  register(source: BroadcastContactSource): void;
  current(): BroadcastContactSource | null;
}
export const broadcastContactsExtensionPoint = createExtensionPoint<BroadcastContactSources>({ id: 'broadcasts.contacts' });

function contactSources(): BroadcastContactSources {
  let source: BroadcastContactSource | null = null;
  return {
    register: (s) => {
      if (source) throw new Error('A broadcast contact source is already registered');
      source = s;
    },
    current: () => source,
  };
}

export type { BroadcastService } from './service';
export type { BroadcastEngineRuntime } from './engine';

/** The app's broadcast service (tests and the demo reach it). */
export function broadcastService(app: FastifyInstance): BroadcastService {
  return app.services.get(broadcastServiceRef);
}

/** The app's broadcast engine (tests tune its timings and wait for it). */
export function broadcastEngineRuntime(app: FastifyInstance): BroadcastEngineRuntime {
  return app.services.get(broadcastEngineRef);
}

export const broadcastsPlugin = defineServerPlugin({
  id: 'broadcasts',
  deps: {
    demoData: coreExtensionPoints.demoData,
    http: coreServices.http,
    config: coreServices.config,
    db: coreServices.database,
    clock: coreServices.clock,
    realtime: coreServices.realtime,
    metaGraph: coreServices.metaGraph,
    storage: coreServices.mediaStorage,
    lifecycle: coreServices.lifecycle,
    logger: coreServices.logger,
    planLimits: coreServices.planLimits,
    planLimitsRegistry: coreExtensionPoints.planLimits,
    mediaReferences: coreExtensionPoints.mediaReferences,
    channels: channelServiceRef,
    webhookEvents: webhookEventsExtensionPoint,
    contactSources: broadcastContactsExtensionPoint,
  },
  provides: { service: broadcastServiceRef, engine: broadcastEngineRef, optOuts: broadcastOptOutsRef, history: broadcastHistoryRef, messagingLimits: messagingLimitsRef },
  extensionPoints: [offerExtensionPoint(broadcastContactsExtensionPoint, contactSources)],
  init({ demoData, http, config, db, clock, realtime, metaGraph, storage, lifecycle, logger, planLimits, planLimitsRegistry, mediaReferences, channels, webhookEvents, contactSources }) {
    // Then its broadcasts on that number (one finished, one scheduled for tomorrow).
    demoData.add({ id: 'broadcasts', order: 200, phase: 'afterListen', required: true, seed: async ({ app, config, demo }) => {
      if (config.demo.enabled && config.meta.mode === 'local') await seedDemoBroadcasts(app, demo.companies.demo.name);
    } });
    const engine = createBroadcastEngine({ config, db, clock, metaGraph, realtime, storage, channels, webhookEvents, lifecycle, log: logger });
    const service = new BroadcastService({
      db,
      clock,
      engine: () => engine,
      planLimits,
      push: (channelId, event, payload) => realtime.broadcast(`page:${channelId}`, event, payload),
      storage: () => storage,
      contacts: () => contactSources.current(),
    });
    broadcastRoutes(http, service);
    // The form uploads a media header through the chat presigned URL; a broadcast may be scheduled days ahead
    // and its report shows the header afterwards: kept while a broadcast names it.
    mediaReferences.add('broadcasts.header_media_url', sql`SELECT ${chatKeyOf(broadcasts.headerMediaUrl)} AS key FROM ${broadcasts}`);
    // What the plan's recipients-per-month limit counts: recipients queued since the month began, excluded ones
    // (opted out, duplicates…) not counted.
    planLimitsRegistry.addUsageCounter('broadcast_recipients_per_month', async (companyId, { monthStart }) => {
      const statement = prepared(db, 'broadcasts_usage', (db, name) =>
        db
          .select({ n: count() })
          .from(broadcastRecipients)
          .where(
            and(
              eq(broadcastRecipients.companyId, sql.placeholder('companyId')),
              sql`${broadcastRecipients.createdAt} >= ${sql.placeholder('monthStart')}`,
              sql`${broadcastRecipients.state} <> 'excluded'`,
            ),
          )
          .prepare(name),
      );
      const [row] = await statement.execute({ companyId, monthStart: monthStart.toISOString() });
      return Number(row.n);
    });
    return {
      service,
      engine,
      optOuts: new KeywordOptOutList(db),
      history: new RecipientHistory(db),
      messagingLimits: { usage: (channel, now) => messagingLimitUsage(db, channel, now) },
    };
  },
});
