/**
 * The flow calls of the bot service (contract/flows.ts lists them), under config.botService.base,
 * authorised by the company's bot-service key through the bots plugin's resolver. Every flow (and
 * version snapshot) answered goes through FlowService.readable: the key's company's uploads as
 * signed URLs (their plain URL answers 403).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { FlowCreateBody, FlowSaveBody } from '../../../contract/flows';
import { access, BOT_KEY_SCHEME } from '../../core/access';
import { memberOfToken } from '../../core/auth/requireUser';
import { notFound } from '../../core/errors';
import type { BotKeyResolver } from '../bots';
import { flowErrorHandler } from './errors';
import type { FlowRuntime } from './runtime';
import type { FlowService } from './service';

type IdParams = { Params: { id: string } };
type VersionParams = { Params: { id: string; versionId: string } };

function pathId(value: string): number {
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw notFound();
  return Number(value);
}

function companyId(request: FastifyRequest): number {
  return request.company!.id;
}

/** The console's header carrying its member's access token beside the bot-service key (src/plugins/flows/api/flowService.ts). */
export const CONSOLE_TOKEN_HEADER = 'x-console-token';

/**
 * Who made a change: the console's member when it sent a valid access token of a member of the key's company
 * (the version history then names the person), else the bot-service key's shown prefix (an integration).
 */
export async function editorOf(request: FastifyRequest): Promise<string> {
  const token = request.headers[CONSOLE_TOKEN_HEADER];
  if (typeof token === 'string' && token.length > 0 && token.length < 4096) {
    const member = await memberOfToken(request, token, request.company!.id);
    if (member) return member.name;
  }
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.access_key;
  const key = BOT_KEY_SCHEME.exec(request.headers.authorization ?? '')?.[1] ?? (typeof fromQuery === 'string' ? fromQuery : '');
  return `key ${key.slice(0, 8)}…`;
}

export interface FlowRouteDeps {
  flows: FlowService;
  keys: BotKeyResolver;
  runtime: FlowRuntime;
}

export async function flowServiceRoutes(app: FastifyInstance, deps: FlowRouteDeps): Promise<void> {
  const { flows, keys, runtime } = deps;
  app.setErrorHandler(flowErrorHandler);
  const rule = { access: access.botKey((key) => keys.resolve(key)) };

  app.get('/api/flows/', { config: rule }, async (request) => (await flows.list(companyId(request))).map((flow) => flows.readable(companyId(request), flow)));

  app.post<{ Body: z.infer<typeof FlowCreateBody> }>('/api/flows/', { schema: { body: FlowCreateBody }, config: rule }, async (request, reply) =>
    reply.code(201).send(flows.readable(companyId(request), await flows.create(companyId(request), request.body, await editorOf(request)))),
  );

  app.get<IdParams>('/api/flows/:id/', { config: rule }, async (request) => flows.readable(companyId(request), await flows.get(companyId(request), pathId(request.params.id))));

  app.post<IdParams & { Body: z.infer<typeof FlowSaveBody> }>('/api/flows/:id/save/', { schema: { body: FlowSaveBody }, config: rule }, async (request) =>
    flows.readable(companyId(request), await flows.save(companyId(request), pathId(request.params.id), request.body, await editorOf(request))),
  );

  // Spec §7 writes DELETE /api/flows/{id} (no trailing slash); the slashed form is accepted too.
  const remove = async (request: FastifyRequest<IdParams>, reply: import('fastify').FastifyReply) => {
    await flows.remove(companyId(request), pathId(request.params.id));
    return reply.code(204).send();
  };
  app.delete<IdParams>('/api/flows/:id', { config: rule }, remove);
  app.delete<IdParams>('/api/flows/:id/', { config: rule }, remove);

  // Per step: customers who reached it and runs that stopped there (the editor's counts).
  app.get<IdParams>('/api/flows/:id/stats/', { config: rule }, async (request) => {
    const flow = await flows.get(companyId(request), pathId(request.params.id));
    return { steps: await runtime.stepStats(flow.id) };
  });

  app.get<IdParams>('/api/flows/:id/versions/', { config: rule }, async (request) => flows.versions(companyId(request), pathId(request.params.id)));

  app.get<VersionParams>('/api/flows/:id/versions/:versionId/', { config: rule }, async (request) =>
    flows.readableVersion(companyId(request), await flows.version(companyId(request), pathId(request.params.id), pathId(request.params.versionId))),
  );

  app.post<VersionParams>('/api/flows/:id/versions/:versionId/restore/', { config: rule }, async (request) =>
    flows.readable(companyId(request), await flows.restore(companyId(request), pathId(request.params.id), pathId(request.params.versionId), await editorOf(request))),
  );
}
