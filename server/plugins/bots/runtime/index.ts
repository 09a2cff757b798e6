/**
 * The bot runtime's HTTP side: the builder's test chat (POST /api/bots/{id}/test-chat/,
 * contract/botRuntime.ts). The live runtime (./runtime.ts) answers customers from chats' inbound
 * pipeline; the bots plugin (../index.ts) creates it and adds it there.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { TestChatBody } from '../../../../contract/botRuntime';
import { access } from '../../../core/access';
import type { Database } from '../../../core/db/client';
import { notFound } from '../../../core/errors';
import { mediaUrlForCompany } from '../../../providers/storage/privateMedia';
import type { MediaStorage } from '../../../providers/storage/types';
import { botOfCompany, loadDraftBot } from './graph';
import type { BotRuntime } from './runtime';
import { runTestChat } from './testChat';

export { BotRuntime, type OperationRunner, type FlowStarter } from './runtime';

type IdParams = { Params: { id: string } };

function pathId(request: FastifyRequest<IdParams>): number {
  if (!/^\d{1,9}$/.test(request.params.id)) throw notFound();
  return Number(request.params.id);
}

export interface BotTestChatDeps {
  db: Database;
  runtime: BotRuntime;
  storage: MediaStorage;
}

/** The builder's test chat: the live runtime's engine and operation runner, on the bot's draft, in a conversation the client carries. */
export function botTestChatRoutes(app: FastifyInstance, { db, runtime, storage }: BotTestChatDeps): void {
  app.post<IdParams & { Body: z.output<typeof TestChatBody> }>(
    '/api/bots/:id/test-chat/',
    { config: { access: access.company('flows', 'manage') }, schema: { body: TestChatBody } },
    async (request) => {
      const companyId = request.company!.id;
      const row = await botOfCompany(db, companyId, pathId(request));
      if (!row) throw notFound();
      return runTestChat(await loadDraftBot(db, row), request.body, {
        runOperation: runtime.operationRunner,
        signMedia: (url) => mediaUrlForCompany(storage, url, companyId),
      });
    },
  );
}
