/**
 * The assistant's routes (issue #24). Bearer token plus the `Company` header; the `assistant` area:
 * view reads the knowledge and the settings and asks, manage writes them. Ids are looked up inside
 * the header's company only, so another company's ids answer 404.
 *   GET, POST /api/knowledge/ · GET, PATCH, DELETE /api/knowledge/{id}/ · POST /api/knowledge/upload/
 *   GET, PATCH /api/assistant/settings/ · POST /api/assistant/ask/
 *   POST /api/rooms/{id}/suggest-reply/ · POST /api/rooms/{id}/summary/ (the copilot: the `chats` area's manage, on a room the member may open)
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  AskBody,
  AssistantSettingsPatch,
  KNOWLEDGE_LIMITS,
  KnowledgeArticleBody,
  KnowledgeListQuery,
  KnowledgePatchBody,
} from '../../../contract/assistant';
import { access } from '../../core/access';
import { notFound } from '../../core/errors';
import type { AssistantService } from './assistantService';
import type { Copilot } from './copilot';
import type { ChatActor } from '../chats';
import type { KnowledgeService } from './knowledgeService';
import { readUpload } from './upload';

type IdParams = { Params: { id: string } };

function pathId(request: FastifyRequest<IdParams>): number {
  const { id } = request.params;
  if (!/^\d{1,9}$/.test(id)) throw notFound();
  return Number(id);
}

const companyId = (request: FastifyRequest): number => request.company!.id;

export function assistantRoutes(app: FastifyInstance, knowledge: KnowledgeService, assistant: AssistantService, copilot: Copilot, actorOf: (request: FastifyRequest) => ChatActor): void {
  const view = { access: access.company('assistant', 'view') };
  const manage = { access: access.company('assistant', 'manage') };

  app.get<{ Querystring: z.infer<typeof KnowledgeListQuery> }>('/api/knowledge/', { schema: { querystring: KnowledgeListQuery }, config: view }, async (request) => {
    const { page, page_size, search, kind } = request.query;
    return knowledge.list(request.url, companyId(request), { page, pageSize: page_size, search, kind });
  });

  app.post<{ Body: z.infer<typeof KnowledgeArticleBody> }>('/api/knowledge/', { schema: { body: KnowledgeArticleBody }, config: manage }, async (request, reply) =>
    reply.code(201).send(await knowledge.createArticle(companyId(request), request.body)),
  );

  uploadRoute(app, knowledge, manage);

  app.get<IdParams>('/api/knowledge/:id/', { config: view }, async (request) => knowledge.get(companyId(request), pathId(request)));

  app.patch<IdParams & { Body: z.infer<typeof KnowledgePatchBody> }>('/api/knowledge/:id/', { schema: { body: KnowledgePatchBody }, config: manage }, async (request) =>
    knowledge.update(companyId(request), pathId(request), request.body),
  );

  app.delete<IdParams>('/api/knowledge/:id/', { config: manage }, async (request, reply) => {
    await knowledge.remove(companyId(request), pathId(request));
    return reply.code(204).send();
  });

  app.get('/api/assistant/settings/', { config: view }, async (request) => assistant.settings(companyId(request)));

  app.patch<{ Body: z.infer<typeof AssistantSettingsPatch> }>('/api/assistant/settings/', { schema: { body: AssistantSettingsPatch }, config: manage }, async (request) =>
    assistant.updateSettings(companyId(request), request.body),
  );

  app.post<{ Body: z.infer<typeof AskBody> }>('/api/assistant/ask/', { schema: { body: AskBody }, config: view }, async (request) =>
    assistant.ask(companyId(request), request.body.question),
  );

  const manageChats = { access: access.company('chats', 'manage') };
  app.post<IdParams>('/api/rooms/:id/suggest-reply/', { config: manageChats }, async (request) => copilot.suggest(actorOf(request), pathId(request)));
  app.post<IdParams>('/api/rooms/:id/summary/', { config: manageChats }, async (request, reply) => reply.code(201).send(await copilot.summarise(actorOf(request), pathId(request))));
}

/** POST /api/knowledge/upload/: multipart/form-data with `file` (and an optional `title`), at most KNOWLEDGE_LIMITS.uploadBytes. */
function uploadRoute(app: FastifyInstance, knowledge: KnowledgeService, manage: { access: ReturnType<typeof access.company> }): void {
  app.register(async (scope) => {
    // Multipart bodies are buffered whole (a few megabytes at most) and parsed by the platform's FormData (undici);
    // the file's own limit is checked on the part (a plain-words 400), the body limit only stops what is far beyond it.
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: 2 * KNOWLEDGE_LIMITS.uploadBytes }, (_request, body, done) => done(null, body));
    scope.post('/api/knowledge/upload/', { config: manage }, async (request, reply) => {
      const upload = await readUpload(request.headers['content-type'], request.body);
      return reply.code(201).send(await knowledge.createDocument(companyId(request), upload));
    });
  });
}
