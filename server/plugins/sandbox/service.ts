/**
 * The sandbox channel: a simulated customer channel every company has, so the inbox can be tried
 * without Meta. Agents' messages are "delivered" at once and wait for the simulator; a customer
 * reads them when the simulator fetches them. The simulator plays the customer with the channel's secret key.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Database, Tx } from '../../core/db/client';
import { channels, companies } from '../../core/db/schema';
import type { ChannelProvider, ChannelRow, ChatService } from '../chats';

export const SANDBOX_CHANNEL_NAME = 'Sandbox';


export function newSimulatorKey(): string {
  return randomBytes(18).toString('base64url');
}

export function simulatorUrl(publicUrl: string, key: string): string {
  return `${publicUrl}/sandbox/${key}`;
}

/**
 * The company's sandbox channel, created when missing. Two callers at once (two processes' start-up backfill, a
 * request beside it) may both find none: the insert does nothing where the other's row came first (its unique
 * external id, `sandbox-{companyId}`), and that row is the answer.
 */
export async function ensureSandboxChannel(db: Database | Tx, companyId: number): Promise<ChannelRow> {
  const find = async () => {
    const [row] = await db
      .select()
      .from(channels)
      .where(and(eq(channels.companyId, companyId), eq(channels.platform, 'sandbox')))
      .orderBy(channels.id)
      .limit(1);
    return row;
  };
  const existing = await find();
  if (existing) return existing;
  const [created] = await db
    .insert(channels)
    .values({ companyId, platform: 'sandbox', name: SANDBOX_CHANNEL_NAME, externalId: `sandbox-${companyId}`, simulatorKey: newSimulatorKey() })
    .onConflictDoNothing()
    .returning();
  return created ?? (await find());
}

/** Gives every company without one its sandbox channel (start-up: companies created before this plugin existed). */
export async function backfillSandboxChannels(db: Database): Promise<number> {
  const missing = await db
    .select({ id: companies.id })
    .from(companies)
    .leftJoin(channels, and(eq(channels.companyId, companies.id), eq(channels.platform, 'sandbox')))
    .where(isNull(channels.id));
  for (const { id } of missing) await ensureSandboxChannel(db, id);
  return missing.length;
}

/** The sandbox's outbound side: accepted and delivered at once; the simulator picks the messages up from the room. */
export const sandboxProvider: ChannelProvider = {
  async send(_room, message) {
    return { external_id: `sandbox-${message.id}`, status: 'delivered' };
  },
};

export class SandboxService {
  constructor(
    private readonly db: Database,
    readonly chats: ChatService,
  ) {}

  async channelByKey(key: string): Promise<(ChannelRow & { companyName: string }) | null> {
    if (!/^[A-Za-z0-9_-]{16,64}$/.test(key)) return null;
    const [row] = await this.db
      .select({ channel: channels, companyName: companies.name })
      .from(channels)
      .innerJoin(companies, eq(companies.id, channels.companyId))
      .where(and(eq(channels.simulatorKey, key), eq(channels.platform, 'sandbox')));
    return row ? { ...row.channel, companyName: row.companyName } : null;
  }
}
