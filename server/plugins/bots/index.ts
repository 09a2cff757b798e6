/**
 * Bots plugin (issue #12): the bot service (bots, steps, options, the branch graph, operations, the
 * opt-out CSV) under config.botService.base (default /bot-service), authorised by the company's key;
 * the main API's bot calls (integration key, bulk steps, PATCH/DELETE /api/bots/{id}/); and the
 * runtime (./runtime) that answers customers. Every call is listed in contract/bots.ts.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Services } from '../../core/services';
import { SecretBox } from '../../core/crypto/secretBox';
import { BotKeyService } from './keys';
import { OperationService, runOperation, type OperationRunOptions } from './operations';
import { botMainApiRoutes, botServiceRoutes } from './routes';
import { registerBotRuntime } from './runtime';
import { BotService } from './service';
import { botSteps } from './schema';
import { chatKeyOf, mediaReferences } from '../../providers/storage/sweeper';

export { runOperation, type OperationRunOptions, type OperationResult } from './operations';

export interface BotsServices {
  bots: BotService;
  operations: OperationService;
  keys: BotKeyService;
  /** The configured limits of operation calls (timeout, size cap, allowed private addresses). */
  runOptions: OperationRunOptions;
  /** Loads the company's operation and runs it; the variables its response_mapping set ({} on failure or when it does not exist). */
  runCompanyOperation(input: { companyId: number; operationId: number; variables: Record<string, string> }): Promise<Record<string, string>>;
}

const instances = new WeakMap<Services, BotsServices>();

/** The app's bot services (tests, the runtime, the demo seed). */
export function botsServices(app: FastifyInstance): BotsServices {
  const existing = instances.get(app.services);
  if (existing) return existing;
  const config = app.services.get('Config');
  const db = app.services.get('Database');
  const clock = app.services.get('Clock');
  const box = new SecretBox(config.channelSecretKey);
  const operations = new OperationService(db, clock, box);
  const runOptions: OperationRunOptions = {
    timeoutMs: config.botService.operationTimeoutMs,
    maxBytes: config.botService.operationMaxBytes,
    allowIps: config.botService.operationAllowIps,
  };
  const created: BotsServices = {
    // The storage is looked up when used, as the chats and broadcasts services do.
    bots: new BotService(db, clock, () => app.services.get('MediaStorage')),
    operations,
    keys: new BotKeyService({ db, clock, box, base: config.botService.base }),
    runOptions,
    async runCompanyOperation({ companyId, operationId, variables }) {
      const op = await operations.find(companyId, operationId);
      if (!op) {
        app.log.warn({ companyId, operationId }, 'bot operation not found');
        return {};
      }
      const result = await runOperation(op, variables, runOptions);
      if (!result.ok) app.log.warn({ companyId, operationId, status: result.status, error: result.error }, 'bot operation failed');
      return result.variables;
    },
  };
  instances.set(app.services, created);
  return created;
}

export default async function botsPlugin(app: FastifyInstance): Promise<void> {
  const services = botsServices(app);
  const base = app.services.get('Config').botService.base;
  const deps = { ...services, base };
  // The bot service in its own context: its error handler answers in the bot service's error shape.
  await app.register(async (scope) => botServiceRoutes(scope, deps), { prefix: base === '/' ? '' : base });
  botMainApiRoutes(app, deps);
  registerBotRuntime(app, (input) => services.runCompanyOperation(input));
  // The canvas uploads a step message's media through the chat presigned URL: kept while a step's messages name it.
  // (The CASE: jsonb_array_elements fails on anything but an array; the column is always one, but a bad row must not stop every sweep.)
  mediaReferences(app).add(
    'bot_steps.messages',
    sql`SELECT ${chatKeyOf(sql`m.value->>'media_url'`)} AS key
      FROM ${botSteps}, jsonb_array_elements(CASE WHEN jsonb_typeof(${botSteps.messages}) = 'array' THEN ${botSteps.messages} ELSE '[]'::jsonb END) AS m(value)`,
  );
}
