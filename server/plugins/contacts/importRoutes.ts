/**
 * The import's routes (issue #23), in the `chats` area with manage access (the rule of creating a contact):
 *   POST /api/contacts/import/        the CSV as a `text/csv` body (mapping, country and file_name in the query)
 *                                     or multipart/form-data (`file`, and `mapping`, `country` fields) → 202 {id}
 *   GET /api/contacts/import/{id}/    the import's status (another company's id answers 404)
 * The mapping is a JSON object of column names to targets (contract/contactImports.ts); without it, it is guessed
 * from the header.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CONTACT_IMPORT_LIMITS, CONTACT_IMPORT_MESSAGES, type ImportMapping } from '../../../contract/contactImports';
import { access } from '../../core/access';
import { badRequest, fieldError, notFound } from '../../core/errors';
import type { ContactImports, ImportUpload } from './imports';
import { actorOf } from './routes';

export const ImportQuery = z.object({
  mapping: z.string().max(20_000).optional(),
  country: z.string().trim().max(2, CONTACT_IMPORT_MESSAGES.country).optional(),
  file_name: z.string().trim().max(200, 'Ensure this field has no more than 200 characters.').optional(),
});
type ImportQuery = z.infer<typeof ImportQuery>;

function parseMapping(text: string | undefined): ImportMapping | null {
  if (text === undefined || text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw fieldError('mapping', CONTACT_IMPORT_MESSAGES.mappingInvalid);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw fieldError('mapping', CONTACT_IMPORT_MESSAGES.mappingInvalid);
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > CONTACT_IMPORT_LIMITS.columns || entries.some(([k, v]) => typeof v !== 'string' || k.length > 200 || v.length > 80)) throw fieldError('mapping', CONTACT_IMPORT_MESSAGES.mappingInvalid);
  return Object.fromEntries(entries) as ImportMapping;
}

// eslint-disable-next-line no-control-regex -- a file name's control characters (NUL among them) are dropped before it is stored
const cleanName = (name: string) => name.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(-200);

async function readUpload(request: FastifyRequest<{ Querystring: ImportQuery }>): Promise<ImportUpload> {
  const type = (request.headers['content-type'] ?? '').toLowerCase();
  const query = request.query;
  if (type.startsWith('multipart/form-data') && Buffer.isBuffer(request.body)) {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(request.body), { headers: { 'content-type': request.headers['content-type']! } }).formData();
    } catch {
      throw badRequest('The upload is not a valid multipart/form-data body.', 'malformed_upload');
    }
    const file = form.get('file');
    if (!file || typeof file === 'string') throw fieldError('file', CONTACT_IMPORT_MESSAGES.fileMissing);
    if (file.size > CONTACT_IMPORT_LIMITS.bytes) throw fieldError('file', CONTACT_IMPORT_MESSAGES.tooLarge);
    const mapping = form.get('mapping');
    const country = form.get('country');
    return {
      text: await file.text(),
      fileName: cleanName(file.name) || 'contacts.csv',
      mapping: parseMapping(typeof mapping === 'string' ? mapping : query.mapping),
      country: ((typeof country === 'string' ? country : query.country) ?? '').trim().toUpperCase() || null,
    };
  }
  if ((type.startsWith('text/csv') || type.startsWith('text/plain')) && typeof request.body === 'string') {
    if (Buffer.byteLength(request.body) > CONTACT_IMPORT_LIMITS.bytes) throw fieldError('file', CONTACT_IMPORT_MESSAGES.tooLarge);
    return { text: request.body, fileName: cleanName(query.file_name ?? '') || 'contacts.csv', mapping: parseMapping(query.mapping), country: query.country?.toUpperCase() || null };
  }
  throw fieldError('file', CONTACT_IMPORT_MESSAGES.fileMissing);
}

export function importRoutes(app: FastifyInstance, imports: ContactImports): void {
  const manage = { access: access.company('chats', 'manage') };
  app.register(async (scope) => {
    // The whole file is buffered (16 MB at most); a body far beyond it is cut by the limit, one a little beyond gets the plain-words 400.
    const bodyLimit = CONTACT_IMPORT_LIMITS.bytes + 1024 * 1024;
    scope.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'string', bodyLimit }, (_request, body, done) => done(null, body));
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => done(null, body));
    scope.post<{ Querystring: ImportQuery }>('/api/contacts/import/', { schema: { querystring: ImportQuery }, config: manage }, async (request, reply) =>
      reply.code(202).send(await imports.start(actorOf(request), await readUpload(request))),
    );
  });
  app.get<{ Params: { id: string } }>('/api/contacts/import/:id/', { config: manage }, async (request) => {
    if (!/^\d{1,9}$/.test(request.params.id)) throw notFound();
    return imports.status(request.company!.id, Number(request.params.id));
  });
}
