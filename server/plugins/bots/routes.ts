/**
 * Routes of the bots plugin (contract/bots.ts lists every call):
 *  - the BOT SERVICE under config.botService.base (default /bot-service), authorised by the
 *    company's key alone (`?access_key=` or `Authorization: Bot`), errors as BotServiceErrorBody;
 *  - the MAIN API's bot calls (bearer + Company header, area `flows`), errors as the main API's.
 * Every bot, step and graph answered goes through BotService.readable*: the company's uploads in
 * step messages as signed URLs (their plain URL answers 403, a broken image in the canvas).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  BOT_MESSAGES,
  BOT_LIMITS,
  BotCreateBody,
  BotUpdateBody,
  BranchFetchQuery,
  BranchGraphBody,
  BulkDeleteBody,
  BulkStepsBody,
  OperationBody,
  OperationExampleBody,
  STEP_ID_PATTERN,
  StepCreateBody,
  StepDeleteBody,
  StepUpdateBody,
  type BotIntegration,
} from '../../../contract/bots';
import { BotDraftBody, BotVersionsQuery } from '../../../contract/botDrafts';
import { canManage } from '../../../contract/permissions';
import { access } from '../../core/access';
import { forbidden, notFound } from '../../core/errors';
import { browserOrigin } from '../../core/browserOrigin';
import { botServiceErrorHandler } from './botServiceErrors';
import type { Database } from '../../core/db/client';
import type { BroadcastOptOuts } from '../broadcasts';
import type { BotKeyService } from './keys';
import type { OperationService } from './operations';
import { optOutCsv } from './optOuts';
import type { BotService } from './service';
import type { BotDraftService } from './drafts';

type IdParams = { Params: { id: string } };
type StepParams = { Params: { id: string; stepId: string } };
type VersionParams = { Params: { id: string; versionId: string } };

function pathId(value: string): number {
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw notFound();
  return Number(value);
}

function pathStepId(value: string): string {
  if (value.length > BOT_LIMITS.stepId || !STEP_ID_PATTERN.test(value)) throw notFound();
  return value;
}

/**
 * The origin the integration's endpoint is built on: the console's own (the Resources page fetches the bot
 * service's document from it, which its CSP allows only there) when that is one of this server's names, else
 * PUBLIC_URL. Never a name a client or a proxy forwarded (`X-Forwarded-Host: evil.test`): the endpoint is
 * handed out next to the key.
 */
function originOf(request: FastifyRequest, publicUrl: string): string {
  return browserOrigin(request, publicUrl);
}

function companyId(request: FastifyRequest): number {
  return request.company!.id;
}

export interface BotRouteDeps {
  db: Database;
  bots: BotService;
  drafts: BotDraftService;
  operations: OperationService;
  keys: BotKeyService;
  /** The broadcasts plugin's keyword opt-outs (null: that plugin is not loaded). */
  keywordOptOuts: BroadcastOptOuts | null;
  base: string;
  /** PUBLIC_URL: the integration's endpoint when the request's host is not one of this server's names. */
  publicUrl: string;
}

/** The bot service: every route under `base`, its own error shape. */
export async function botServiceRoutes(app: FastifyInstance, deps: BotRouteDeps): Promise<void> {
  const { bots, operations, keys } = deps;
  app.setErrorHandler(botServiceErrorHandler);
  const rule = { access: access.botKey((key) => keys.resolve(key)) };

  app.get('/api/bots/', { config: rule }, async (request) => bots.list(companyId(request)));

  app.post<{ Body: z.infer<typeof BotCreateBody> }>('/api/bots/', { schema: { body: BotCreateBody }, config: rule }, async (request, reply) =>
    reply.code(201).send(bots.readableBot(companyId(request), await bots.create(companyId(request), request.body))),
  );

  app.get<IdParams>('/api/bots/:id/', { config: rule }, async (request) => bots.readableBot(companyId(request), await bots.get(companyId(request), pathId(request.params.id))));

  app.patch<IdParams & { Body: z.infer<typeof BotUpdateBody> }>('/api/bots/:id/', { schema: { body: BotUpdateBody }, config: rule }, async (request) =>
    bots.readableBot(companyId(request), await bots.update(companyId(request), pathId(request.params.id), request.body)),
  );

  app.delete<IdParams>('/api/bots/:id/', { config: rule }, async (request, reply) => {
    await bots.remove(companyId(request), pathId(request.params.id));
    return reply.code(204).send();
  });

  app.post<IdParams & { Body: z.infer<typeof StepCreateBody> }>('/api/bots/:id/steps/', { schema: { body: StepCreateBody }, config: rule }, async (request, reply) =>
    reply.code(201).send(bots.readableStep(companyId(request), await bots.createStep(companyId(request), pathId(request.params.id), request.body))),
  );

  app.patch<StepParams & { Body: z.infer<typeof StepUpdateBody> }>('/api/bots/:id/steps/:stepId/', { schema: { body: StepUpdateBody }, config: rule }, async (request) =>
    bots.readableStep(companyId(request), await bots.updateStep(companyId(request), pathId(request.params.id), pathStepId(request.params.stepId), request.body)),
  );

  app.delete<StepParams & { Body: z.infer<typeof StepDeleteBody> }>('/api/bots/:id/steps/:stepId/', { schema: { body: StepDeleteBody }, config: rule }, async (request) => {
    const first = pathStepId(request.params.stepId);
    const steps = await bots.deleteSteps(companyId(request), pathId(request.params.id), [first, ...(request.body?.steps ?? []).filter((s) => s !== first)]);
    return { detail: BOT_MESSAGES.stepDeleted, steps };
  });

  app.get<{ Querystring: z.infer<typeof BranchFetchQuery> }>('/branch/fetch/', { schema: { querystring: BranchFetchQuery }, config: rule }, async (request) =>
    bots.readableGraph(companyId(request), await bots.fetchGraph(companyId(request), request.query.bot)),
  );

  app.post<{ Body: z.infer<typeof BranchGraphBody> }>('/branch/update_or_create/', { schema: { body: BranchGraphBody }, config: rule }, async (request) =>
    bots.readableGraph(companyId(request), await bots.saveGraph(companyId(request), request.body)),
  );

  app.get('/api/operations/', { config: rule }, async (request) => operations.list(companyId(request)));

  app.post<{ Body: z.infer<typeof OperationBody> }>('/api/operations/', { schema: { body: OperationBody }, config: rule }, async (request, reply) =>
    reply.code(201).send(await operations.create(companyId(request), request.body)),
  );

  app.post<{ Body: z.infer<typeof OperationExampleBody> }>('/api/operations/example/', { schema: { body: OperationExampleBody }, config: rule }, async (request, reply) =>
    reply.code(201).send(await operations.generate(companyId(request), request.body)),
  );

  app.delete<IdParams>('/api/operations/:id/', { config: rule }, async (request, reply) => {
    await operations.remove(companyId(request), pathId(request.params.id));
    return reply.code(204).send();
  });

  app.get('/api/opt-out-csv/', { config: rule }, async (request) => optOutCsv(deps.db, deps.keywordOptOuts, companyId(request)));

  // Anything else under the base is a 404 in the bot service's shape (not the console's SPA fallback).
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/*',
    config: { access: access.public('unknown bot-service paths answer 404; nothing is read') },
    handler: async () => {
      throw notFound();
    },
  });
}

/** The main API's bot calls (spec §7, authenticated). */
export function botMainApiRoutes(app: FastifyInstance, deps: BotRouteDeps): void {
  const { bots, keys } = deps;
  const view = { access: access.company('flows', 'view') };
  const manage = { access: access.company('flows', 'manage') };

  const integration = async (request: FastifyRequest, key: string | null): Promise<BotIntegration> => {
    const mayManage = canManage(request.membership?.permissions, 'flows');
    return { endpoint: keys.endpointFor(originOf(request, deps.publicUrl)), access_key: mayManage ? (key ?? (await keys.getOrCreate(companyId(request)))) : null };
  };

  app.get('/api/bots/integration/', { config: view }, async (request) => integration(request, null));

  app.post('/api/bots/integration/rotate/', { config: manage }, async (request) => {
    if (request.membership?.role !== 'admin') throw forbidden('Only an admin can rotate the bot service key.');
    return integration(request, await keys.rotate(companyId(request)));
  });

  app.get('/api/bot-integrations/', { config: view }, async (request) => ({ results: await keys.list(companyId(request), originOf(request, deps.publicUrl)) }));

  app.get<IdParams>('/api/bots/:id/steps/', { config: view }, async (request) => ({
    results: bots.readableSteps(companyId(request), await bots.listSteps(companyId(request), pathId(request.params.id))),
  }));

  app.post<IdParams & { Body: z.infer<typeof BulkStepsBody> }>('/api/bots/:id/steps/', { schema: { body: BulkStepsBody }, config: manage }, async (request, reply) => {
    const steps = bots.readableSteps(companyId(request), await bots.bulkCreate(companyId(request), pathId(request.params.id), request.body.data));
    return reply.code(201).send({ detail: BOT_MESSAGES.stepsCreated, steps });
  });

  app.patch<IdParams & { Body: z.infer<typeof BotUpdateBody> }>('/api/bots/:id/', { schema: { body: BotUpdateBody }, config: manage }, async (request) =>
    bots.readableBot(companyId(request), await bots.update(companyId(request), pathId(request.params.id), request.body)),
  );

  app.delete<IdParams & { Body: z.infer<typeof BulkDeleteBody> }>('/api/bots/:id/', { schema: { body: BulkDeleteBody }, config: manage }, async (request) => {
    const body = request.body;
    const steps = await bots.deleteSteps(companyId(request), pathId(request.params.id), body.steps, body.options);
    return { detail: BOT_MESSAGES.stepDeleted, steps, options: body.options };
  });

  // ---- The draft the canvas builds, its publication and the versions (issue #25, contract/botDrafts.ts) ----
  const { drafts } = deps;

  app.get<IdParams>('/api/bots/:id/draft/', { config: view }, async (request) => drafts.get(companyId(request), pathId(request.params.id)));

  app.put<IdParams & { Body: z.output<typeof BotDraftBody> }>('/api/bots/:id/draft/', { schema: { body: BotDraftBody }, config: manage }, async (request) =>
    drafts.save(companyId(request), pathId(request.params.id), request.body, editorName(request)),
  );

  app.post<IdParams>('/api/bots/:id/publish/', { config: manage }, async (request) => drafts.publish(companyId(request), pathId(request.params.id), editorName(request)));

  app.get<IdParams & { Querystring: z.output<typeof BotVersionsQuery> }>('/api/bots/:id/versions/', { schema: { querystring: BotVersionsQuery }, config: view }, async (request) =>
    drafts.versions(companyId(request), pathId(request.params.id), request.query.page, request.query.page_size),
  );

  app.post<VersionParams>('/api/bots/:id/versions/:versionId/restore/', { config: manage }, async (request) =>
    drafts.restore(companyId(request), pathId(request.params.id), pathId(request.params.versionId), editorName(request)),
  );
}

/** Who publishes or restores: the member's name, else their e-mail (a version names the person, not a key). */
function editorName(request: FastifyRequest): string {
  const user = request.user;
  if (!user) return 'API';
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}
