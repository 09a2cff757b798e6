/** Sandbox plugin: the simulated customer channel (one per company), its provider and the simulator API. */
import type { FastifyInstance } from 'fastify';
import { onCompanyCreated } from '../companies/service';
import { chatService } from '../chats/runtime';
import { backfillSandboxChannels, ensureSandboxChannel, sandboxProvider, SandboxService } from './service';
import { sandboxRoutes } from './routes';

onCompanyCreated(async (tx, companyId) => {
  await ensureSandboxChannel(tx, companyId);
});

export default async function sandboxPlugin(app: FastifyInstance): Promise<void> {
  const chats = chatService(app);
  chats.registerProvider('sandbox', sandboxProvider);
  const db = app.services.get('Database');
  app.addHook('onReady', async () => {
    await backfillSandboxChannels(db);
  });
  sandboxRoutes(app, new SandboxService(db, chats));
}
