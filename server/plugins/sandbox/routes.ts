/**
 * The customer simulator's API (no login: the channel's simulator key is the secret) and the
 * console's way to get the simulator link.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isAllowedMediaUrl, type Message } from '../../../contract/chats';
import { access } from '../../core/access';
import type { RateRule } from '../../core/auth/rateLimiter';
import { ApiError, notFound, throttled } from '../../core/errors';
import { ChatError } from '../chats';
import { ensureSandboxChannel, simulatorUrl, type SandboxService } from './service';

/** Per simulator key: the page polls every second per open conversation; sends are far rarer. */
export const SANDBOX_RATE_RULES = {
  read: { limit: 600, windowSeconds: 60 },
  write: { limit: 60, windowSeconds: 60 },
} as const satisfies Record<string, RateRule>;

const CUSTOMER_ID = /^[A-Za-z0-9._+@-]{1,100}$/;

/** The customer's media: https only (the console renders it; contract/chats.ts isAllowedMediaUrl). */
const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => /^https:\/\//i.test(v) && isAllowedMediaUrl(v), 'Enter a valid URL.');

export const SimulatorMessageBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    text: z.string().max(4096).nullable().optional(),
    media_url: httpUrl.nullable().optional(),
    media_type: z.string().trim().max(100).nullable().optional(),
    button_reply: z.object({ id: z.string().trim().min(1).max(200), title: z.string().trim().min(1).max(200) }).nullable().optional(),
    client_id: z.string().min(1).max(64),
  })
  .refine((b) => !!(b.text?.trim() || b.media_url || b.button_reply), { message: 'A text, a media_url or a button_reply is required.', path: ['text'] });

// Bounded to the id column's range: a larger id would fail the query rather than match nothing.
const MessagesQuery = z.object({ after_id: z.coerce.number().int().min(0).max(2_147_483_647).default(0) });

type KeyParams = { Params: { key: string } };
type ConversationParams = { Params: { key: string; customerId: string } };

export function sandboxRoutes(app: FastifyInstance, sandbox: SandboxService): void {
  const limiter = () => app.services.get('RateLimiter');

  async function limit(request: FastifyRequest<KeyParams>, rule: RateRule, kind: string): Promise<void> {
    const status = await limiter().hit(`sandbox:${kind}:${request.params.key}`, rule);
    if (status.limited) throw throttled(status.retryAfterSeconds);
  }

  async function channelOf(request: FastifyRequest<KeyParams>) {
    const channel = await sandbox.channelByKey(request.params.key);
    if (!channel) throw notFound();
    return channel;
  }

  function customerId(request: FastifyRequest<ConversationParams>): string {
    if (!CUSTOMER_ID.test(request.params.customerId)) throw notFound();
    return request.params.customerId;
  }

  app.get('/api/sandbox/', { config: { access: access.company('chats', 'view') } }, async (request) => {
    const channel = await ensureSandboxChannel(app.services.get('Database'), request.company!.id);
    return { channel_id: channel.id, simulator_url: simulatorUrl(app.services.get('Config').publicUrl, channel.simulatorKey!) };
  });

  app.get<KeyParams>('/api/sandbox/:key/', { config: { access: access.signedUrl('the simulator key in the path is the secret') } }, async (request) => {
    await limit(request, SANDBOX_RATE_RULES.read, 'read');
    const channel = await channelOf(request);
    return { channel_id: channel.id, channel_name: channel.name, company_name: channel.companyName };
  });

  app.get<ConversationParams & { Querystring: z.infer<typeof MessagesQuery> }>(
    '/api/sandbox/:key/conversations/:customerId/messages/',
    { config: { access: access.signedUrl('the simulator key in the path is the secret') }, schema: { querystring: MessagesQuery } },
    async (request): Promise<{ messages: Message[]; blocked: boolean }> => {
      await limit(request, SANDBOX_RATE_RULES.read, 'read');
      const channel = await channelOf(request);
      const room = await sandbox.chats.roomByCustomer(channel.id, customerId(request));
      if (!room) return { messages: [], blocked: false };
      // The customer has the conversation open: whatever the agents sent is now read.
      await sandbox.chats.markReadByCustomer(room.id);
      return { messages: await sandbox.chats.messagesAfter(room.id, request.query.after_id), blocked: room.blockedAt !== null };
    },
  );

  app.post<ConversationParams & { Body: z.infer<typeof SimulatorMessageBody> }>(
    '/api/sandbox/:key/conversations/:customerId/messages/',
    { config: { access: access.signedUrl('the simulator key in the path is the secret') }, schema: { body: SimulatorMessageBody } },
    async (request, reply) => {
      await limit(request, SANDBOX_RATE_RULES.write, 'write');
      const channel = await channelOf(request);
      const body = request.body;
      const media = body.media_url ?? null;
      const type = body.button_reply ? 'button_reply' : media ? ((body.media_type ?? 'image').split('/')[0] as 'image' | 'video' | 'audio') : 'text';
      try {
        const result = await sandbox.chats.receiveInbound(channel, {
          externalUserId: customerId(request),
          name: body.name,
          type: ['text', 'button_reply', 'image', 'video', 'audio'].includes(type) ? type : 'document',
          text: body.button_reply ? body.button_reply.title : body.text?.trim() || null,
          mediaUrl: media,
          mediaType: media ? (body.media_type ?? 'image') : null,
          data: body.button_reply ? { button_reply: body.button_reply } : null,
          clientId: body.client_id,
        });
        return reply.code(result.created ? 201 : 200).send({ message: result.message });
      } catch (err) {
        if (err instanceof ChatError && err.reason === 'blocked') throw new ApiError(403, { detail: 'This conversation is blocked.', code: 'blocked' });
        throw err;
      }
    },
  );
}
