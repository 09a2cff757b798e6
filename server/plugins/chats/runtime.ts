/**
 * One ChatService per app, shared by the chats and sandbox plugins (Fastify encapsulates plugin
 * decorations, so they meet here, keyed by the app's service container).
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../core/services';
import type { RealtimeHub } from '../../core/realtime/types';
import { ChatService, type Broadcaster } from './service';

interface Runtime {
  service: ChatService;
  /** Set by tests that drive the service without the real hub. */
  hubOverride: Broadcaster | null;
}

const runtimes = new WeakMap<Services, Runtime>();
const silentHub: Broadcaster = { broadcast: async () => {} };

/** The app's realtime hub (`app.realtime`, set up by server/core/realtime before the feature plugins), if any. */
export function findHub(app: FastifyInstance): RealtimeHub | null {
  return app.hasDecorator('realtime') ? ((app as unknown as { realtime: RealtimeHub }).realtime ?? null) : null;
}

function runtime(app: FastifyInstance): Runtime {
  let rt = runtimes.get(app.services);
  if (!rt) {
    const created: Runtime = {
      hubOverride: null,
      service: null as unknown as ChatService,
    };
    created.service = new ChatService({
      db: app.services.get('Database'),
      clock: app.services.get('Clock'),
      hub: () => created.hubOverride ?? findHub(app) ?? silentHub,
      storage: () => app.services.get('MediaStorage'),
      log: app.log,
    });
    rt = created;
    runtimes.set(app.services, rt);
  }
  return rt;
}

export function chatService(app: FastifyInstance): ChatService {
  return runtime(app).service;
}

/** Tests: route the service's broadcasts to a fake hub. */
export function useHubForTests(app: FastifyInstance, hub: Broadcaster | null): void {
  runtime(app).hubOverride = hub;
}
