/**
 * Wires the flow runtime into an app (flows plugin): once every plugin is registered, it takes its
 * place in front of the bot runtime on ChatService.afterInbound.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../../core/services';
import { chatService } from '../../chats/runtime';
import type { FlowService } from '../service';
import { FlowRuntime } from './runtime';
import { registerFlowTestChat } from './testChat';

export { FlowRuntime } from './runtime';

const runtimes = new WeakMap<Services, FlowRuntime>();

/** The app's flow runtime (tests; the bots' start_flow action can call `start`). */
export function flowRuntime(app: FastifyInstance): FlowRuntime | null {
  return runtimes.get(app.services) ?? null;
}

export function registerFlowRuntime(app: FastifyInstance, flows: FlowService): FlowRuntime {
  const chats = chatService(app);
  const runtime = new FlowRuntime({ db: app.services.get('Database'), clock: app.services.get('Clock'), chats, flows, log: app.log });
  runtimes.set(app.services, runtime);
  registerFlowTestChat(app, flows);
  app.addHook('onReady', async () => {
    const next = chats.afterInbound;
    chats.afterInbound = (room, message) => runtime.onInbound(room, message, next);
  });
  return runtime;
}
