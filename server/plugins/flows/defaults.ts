/**
 * A channel's default flow (issue #13 Runtime: "a flow runs on a channel when a customer starts it:
 * by a keyword, as a channel's default for new conversations, …"). One flow per channel at most
 * (table flow_channel_defaults). The flow runtime (runtime/runtime.ts) starts it on a NEW
 * conversation's first customer message when no keyword matched; keyword flows still win, and a
 * paused room stays silent.
 *
 * Main API (bearer + Company), for the channels page:
 *   GET /api/flows/channel-defaults/              company(flows, view)   → ChannelDefaultsResponse
 *   PUT /api/flows/channel-defaults/{channelId}/  company(flows, manage) { flow_id: number | null } → ChannelDefault
 * A flow_id null clears the channel's default. Another company's channel is a 404; another company's
 * (or a deleted) flow is a 400 on flow_id. Deleting the flow or the channel clears the default.
 */
import { and, asc, eq, lt, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Message } from '../../../contract/chats';
import { access } from '../../core/access';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { channels, messages } from '../../core/db/schema';
import { fieldError, notFound } from '../../core/errors';
import type { RoomRecord } from '../chats';
import { flowChannelDefaults, flows } from './schema';

export const DEFAULT_FLOW_MESSAGES = {
  unknownFlow: 'This flow does not exist in this company.',
} as const;

export const ChannelDefaultBody = z
  .object({
    flow_id: z.number().int().positive().max(2_147_483_647).nullable(),
  })
  .strict();

export interface ChannelDefault {
  channel_id: number;
  /** null: the channel has no default flow. */
  flow_id: number | null;
}

export interface ChannelDefaultsResponse {
  /** The channels of the company that have a default flow. */
  results: (ChannelDefault & { flow_name: string })[];
  /** The company's flows (what the select offers). */
  flows: { id: number; flow_name: string }[];
}

function pathId(value: string): number {
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw notFound();
  return Number(value);
}

export class FlowDefaultsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async list(companyId: number): Promise<ChannelDefaultsResponse> {
    const results = await this.db
      .select({ channel_id: flowChannelDefaults.channelId, flow_id: flowChannelDefaults.flowId, flow_name: flows.flowName })
      .from(flowChannelDefaults)
      .innerJoin(flows, eq(flows.id, flowChannelDefaults.flowId))
      .where(eq(flowChannelDefaults.companyId, companyId))
      .orderBy(asc(flowChannelDefaults.channelId));
    const all = await this.db.select({ id: flows.id, flow_name: flows.flowName }).from(flows).where(eq(flows.companyId, companyId)).orderBy(asc(flows.id));
    return { results, flows: all };
  }

  /** Sets (or with null clears) the channel's default flow. */
  async set(companyId: number, channelId: number, flowId: number | null): Promise<ChannelDefault> {
    const [channel] = await this.db
      .select({ id: channels.id })
      .from(channels)
      .where(and(eq(channels.id, channelId), eq(channels.companyId, companyId), ne(channels.status, 'disconnected')));
    if (!channel) throw notFound();
    if (flowId === null) {
      await this.db.delete(flowChannelDefaults).where(and(eq(flowChannelDefaults.channelId, channelId), eq(flowChannelDefaults.companyId, companyId)));
      return { channel_id: channelId, flow_id: null };
    }
    const [flow] = await this.db.select({ id: flows.id }).from(flows).where(and(eq(flows.id, flowId), eq(flows.companyId, companyId)));
    if (!flow) throw fieldError('flow_id', DEFAULT_FLOW_MESSAGES.unknownFlow);
    const now = this.clock.now();
    await this.db
      .insert(flowChannelDefaults)
      .values({ channelId, companyId, flowId, updatedAt: now })
      .onConflictDoUpdate({ target: flowChannelDefaults.channelId, set: { flowId, updatedAt: now } });
    return { channel_id: channelId, flow_id: flowId };
  }

  /**
   * The flow to start for `message` in `room`: the channel's default, when the message is the
   * conversation's first customer message (a new conversation). Null otherwise.
   */
  async defaultFlowFor(room: RoomRecord, message: Message): Promise<number | null> {
    const [row] = await this.db
      .select({ flowId: flowChannelDefaults.flowId })
      .from(flowChannelDefaults)
      .where(and(eq(flowChannelDefaults.channelId, room.channelId), eq(flowChannelDefaults.companyId, room.companyId)));
    if (!row) return null;
    const [earlier] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(messages)
      .where(and(eq(messages.roomId, room.id), eq(messages.origin, 'user'), lt(messages.id, message.id)));
    return Number(earlier?.n ?? 0) === 0 ? row.flowId : null;
  }
}

export function flowDefaultRoutes(app: FastifyInstance, service: FlowDefaultsService): void {
  const view = { access: access.company('flows', 'view') };
  const manage = { access: access.company('flows', 'manage') };

  app.get('/api/flows/channel-defaults/', { config: view }, async (request) => service.list(request.company!.id));

  app.put<{ Params: { channelId: string }; Body: z.infer<typeof ChannelDefaultBody> }>(
    '/api/flows/channel-defaults/:channelId/',
    { schema: { body: ChannelDefaultBody }, config: manage },
    async (request) => service.set(request.company!.id, pathId(request.params.channelId), request.body.flow_id),
  );
}
