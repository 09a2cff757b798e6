/**
 * The bot runtime, wired into an app by the bots plugin (`registerBotRuntime(app)`): it answers
 * customers after each inbound message (ChatService.afterInbound) and serves the builder's test
 * chat (POST /api/bots/{id}/test-chat/, contract/botRuntime.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { TestChatBody } from '../../../../contract/botRuntime';
import { access } from '../../../core/access';
import { notFound } from '../../../core/errors';
import type { Services } from '../../../core/services';
import { mediaUrlForCompany } from '../../../providers/storage/privateMedia';
import { chatService } from '../../chats/runtime';
import { flowRuntime } from '../../flows/runtime';
import { botOfCompany, loadBot } from './graph';
import { BotRuntime, type OperationRunner } from './runtime';
import { runTestChat } from './testChat';

export { BotRuntime, type OperationRunner } from './runtime';

const runtimes = new WeakMap<Services, BotRuntime>();

/** The app's bot runtime (tests reach it to wait for answers). */
export function botRuntime(app: FastifyInstance): BotRuntime | null {
  return runtimes.get(app.services) ?? null;
}

type IdParams = { Params: { id: string } };

function pathId(request: FastifyRequest<IdParams>): number {
  if (!/^\d{1,9}$/.test(request.params.id)) throw notFound();
  return Number(request.params.id);
}

/**
 * Starts the runtime for this app: answers inbound messages and serves the test chat.
 * `runOperation`: the bot service's operation runner (null: run_operation actions are skipped).
 */
export function registerBotRuntime(app: FastifyInstance, runOperation: OperationRunner | null = null): BotRuntime {
  const chats = chatService(app);
  const db = app.services.get('Database');
  const runtime = new BotRuntime({
    db,
    clock: app.services.get('Clock'),
    chats,
    runOperation,
    // The flows plugin's runtime, looked up when the action runs (absent when flows are not loaded).
    startFlow: async (room, flow, inbound) => (await flowRuntime(app)?.startByRef(room, flow, inbound)) ?? false,
    log: app.log,
  });
  runtimes.set(app.services, runtime);
  chats.afterInbound = (room, message) => runtime.onInbound(room, message);

  app.post<IdParams & { Body: z.output<typeof TestChatBody> }>(
    '/api/bots/:id/test-chat/',
    { config: { access: access.company('flows', 'manage') }, schema: { body: TestChatBody } },
    async (request) => {
      const companyId = request.company!.id;
      const row = await botOfCompany(db, companyId, pathId(request));
      if (!row) throw notFound();
      const storage = app.services.get('MediaStorage');
      return runTestChat(await loadBot(db, row), request.body, {
        runOperation: runtime.operationRunner,
        signMedia: (url) => mediaUrlForCompany(storage, url, companyId),
      });
    },
  );
  return runtime;
}
