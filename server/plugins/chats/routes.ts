/**
 * REST helpers of the inbox: the tag list (spec §7 GET /api/tags/), a room's older messages for
 * non-socket clients and presigned attachment uploads (spec §7 GET /api/chats/presigned_url/).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Paged } from '../../../contract/api';
import { PresignedUploadQuery, type Message, type PresignedUpload, type Tag } from '../../../contract/chats';
import { extensionFor } from '../../providers/storage/types';
import { currentUser } from '../../core/auth/requireUser';
import { access } from '../../core/access';
import { fieldError, forbidden, notFound, validationError } from '../../core/errors';
import { browserOrigin } from '../../core/browserOrigin';
import { ChatError, type ChatActor, type ChatService } from './service';

export function requestActor(request: FastifyRequest): ChatActor {
  const user = currentUser(request);
  return {
    userId: user.id,
    email: user.email,
    name: user.firstName || user.email,
    companyId: request.company!.id,
    role: request.membership!.role,
  };
}

const MessagesQuery = z.object({
  before_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  before: z.string().max(40).optional(),
  /** Issue #22: include private notes (contract/notes.ts); a client that does not ask never gets one. */
  notes: z.enum(['true', 'false'], { error: 'Must be a valid boolean.' }).optional(),
});

/** Attachment MIME types a chat accepts: images, video, audio, PDF and common office documents (never HTML/SVG/scripts). */
const ATTACHMENT_TYPE = /^(image|video|audio)\/|^application\/(pdf|msword|vnd\.ms-excel|vnd\.ms-powerpoint|vnd\.openxmlformats-officedocument\.|vnd\.oasis\.opendocument\.)|^text\/(plain|csv)$/;
export const ATTACHMENT_TYPE_ERROR = 'This file type cannot be sent.';
/** How long a presigned upload URL stays valid. */
export const PRESIGN_EXPIRES_SECONDS = 15 * 60;

/** `Quarterly Report (v2).PDF` → `quarterly-report-v2.pdf`: the key's last segment, with the extension of the type. */
export function attachmentFileName(fileName: string, extension: string): string {
  const base = fileName
    .replace(/\.[^./\\]*$/, '')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return `${base || 'file'}.${extension}`;
}

export function chatRoutes(app: FastifyInstance, chats: ChatService): void {
  const view = { access: access.company('chats', 'view') };

  app.get('/api/tags/', { config: view }, async (request): Promise<Paged<Tag>> => {
    const results = await chats.listTags(requestActor(request));
    return { count: results.length, next: null, previous: null, results };
  });

  app.get<{ Querystring: PresignedUploadQuery }>(
    '/api/chats/presigned_url/',
    { config: { access: access.company('chats', 'manage') }, schema: { querystring: PresignedUploadQuery } },
    async (request): Promise<PresignedUpload> => {
      const { file_name, file_type } = request.query;
      const extension = ATTACHMENT_TYPE.test(file_type) ? extensionFor(file_type) : undefined;
      if (!extension) throw fieldError('file_type', ATTACHMENT_TYPE_ERROR);
      const key = `chats/${request.company!.id}/${randomBytes(16).toString('hex')}/${attachmentFileName(file_name, extension)}`;
      const config = app.services.get('Config');
      return app.services.get('MediaStorage').presignUpload({
        key,
        contentType: file_type,
        maxBytes: config.mediaUploadMaxBytes,
        expiresInSeconds: PRESIGN_EXPIRES_SECONDS,
        // The PUT goes to the origin the console is on (127.0.0.1 as well as PUBLIC_URL's localhost), which its CSP allows.
        origin: browserOrigin(request, config.publicUrl),
      });
    },
  );

  app.get<{ Params: { id: string }; Querystring: z.infer<typeof MessagesQuery> }>(
    '/api/chats/rooms/:id/messages/',
    { config: view, schema: { querystring: MessagesQuery } },
    async (request): Promise<{ messages: Message[]; has_more: boolean }> => {
      if (!/^\d{1,9}$/.test(request.params.id)) throw notFound();
      try {
        const room = await chats.accessibleRoom(requestActor(request), Number(request.params.id));
        return await chats.olderMessages(room.id, { id: request.query.before_id, timestamp: request.query.before }, request.query.notes === 'true');
      } catch (err) {
        if (err instanceof ChatError) {
          if (err.reason === 'forbidden') throw forbidden();
          if (err.errors) throw validationError(err.errors);
          throw notFound();
        }
        throw err;
      }
    },
  );
}
