/**
 * POST /api/channels/{id}/templates/media_handle/ (issue #10): the sample of a media header.
 * The console uploads the file through the existing presigned upload (GET /api/chats/presigned_url/,
 * key `chats/<company>/…`) and sends its URL here; the server reads those bytes from our storage
 * (only a file this company uploaded: any other URL is refused, so nothing else is ever fetched)
 * and hands them to Meta's resumable upload. The answer's `handle` is what Meta wants in the
 * header's `example.header_handle`.
 */
import type { FastifyInstance } from 'fastify';
import {
  TEMPLATE_MEDIA_MAX_BYTES,
  TEMPLATE_MEDIA_TYPES,
  TemplateMediaHandleRequest,
  type TemplateMediaHandle,
} from '../../../contract/templates';
import { access } from '../../core/access';
import { fieldError, notFound } from '../../core/errors';
import { graphFailure } from '../channels';
import type { TemplateService } from './service';

const MB = 1024 * 1024;

export function templateMediaRoutes(app: FastifyInstance, service: TemplateService): void {
  app.post<{ Params: { id: string }; Body: TemplateMediaHandleRequest }>(
    '/api/channels/:id/templates/media_handle/',
    { schema: { body: TemplateMediaHandleRequest }, config: { access: access.company('whatsapp_templates', 'manage') } },
    async (request): Promise<TemplateMediaHandle> => {
      if (!/^\d{1,9}$/.test(request.params.id)) throw notFound();
      const companyId = request.company!.id;
      const { token } = await service.connected(companyId, Number(request.params.id));
      const { media_url: mediaUrl, format } = request.body;
      const storage = app.services.get('MediaStorage');
      const key = storage.keyOfUrl(mediaUrl);
      if (!key || !key.startsWith(`chats/${companyId}/`)) throw fieldError('media_url', 'Upload the file here first: this is not a file uploaded to this company.');
      const stored = await storage.get(key);
      if (!stored) throw fieldError('media_url', 'The uploaded file is gone. Upload it again.');
      const allowed: readonly string[] = TEMPLATE_MEDIA_TYPES[format];
      if (!allowed.includes(stored.contentType)) {
        throw fieldError('media_url', `A ${format.toLowerCase()} header takes ${allowed.join(', ')} files.`);
      }
      if (stored.bytes.length > TEMPLATE_MEDIA_MAX_BYTES[format]) {
        throw fieldError('media_url', `Meta takes ${format.toLowerCase()} samples of at most ${TEMPLATE_MEDIA_MAX_BYTES[format] / MB} MB.`);
      }
      const fileName = key.slice(key.lastIndexOf('/') + 1);
      const { handle } = await app.services
        .get('MetaGraph')
        .uploadTemplateMedia(token, { fileName, fileType: stored.contentType, bytes: stored.bytes })
        .catch(graphFailure(request.log, [token]));
      return { handle, media_url: storage.url(key), file_type: stored.contentType };
    },
  );
}
