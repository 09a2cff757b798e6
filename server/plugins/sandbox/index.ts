/** Sandbox plugin: the simulated customer channel (one per company), its provider and the simulator API. */
import { coreExtensionPoints, coreServices, defineServerPlugin } from '../../core/plugins';
import { channelProvidersExtensionPoint, chatServiceRef } from '../chats';
import { companyLifecycleExtensionPoint } from '../companies';
import { backfillSandboxChannels, ensureSandboxChannel, sandboxProvider, SandboxService } from './service';
import { sandboxRoutes } from './routes';
import { seedDemoInbox } from './demo';

export const sandboxPlugin = defineServerPlugin({
  id: 'sandbox',
  deps: {
    demoData: coreExtensionPoints.demoData,
    http: coreServices.http,
    db: coreServices.database,
    lifecycle: coreServices.lifecycle,
    chats: chatServiceRef,
    providers: channelProvidersExtensionPoint,
    companies: companyLifecycleExtensionPoint,
  },
  init({ demoData, http, db, lifecycle, chats, providers, companies }) {
    // The demo's live inbox: the Demo Company's sandbox conversations; Northwind's sandbox starts empty.
    demoData.add({ id: 'sandbox', order: 100, phase: 'withCompanies', seed: async ({ tx, companyIds, storage, demo }) => {
      await seedDemoInbox(tx, companyIds.demo, demo.agent.email, storage);
      await ensureSandboxChannel(tx, companyIds.northwind);
    } });
    providers.register('sandbox', sandboxProvider);
    // Every company has its simulator channel from the start; companies made before the sandbox existed get theirs at start-up.
    companies.onCompanyCreated(async (tx, companyId) => void (await ensureSandboxChannel(tx, companyId)));
    lifecycle.addStartHook(async () => void (await backfillSandboxChannels(db)));
    sandboxRoutes(http, new SandboxService(db, chats));
  },
});

/** A company's simulator channel, made when missing (other plugins' tests start from it). */
export { ensureSandboxChannel } from './service';

/** The customer simulator's link of a company (the start-up banner names the demo's). */
export { sandboxLinkOf } from './demo';
