/** Sandbox plugin: the simulated customer channel (one per company), its provider and the simulator API. */
import { coreServices, defineServerPlugin } from '../../core/plugins';
import { channelProvidersExtensionPoint, chatServiceRef } from '../chats';
import { companyLifecycleExtensionPoint } from '../companies';
import { backfillSandboxChannels, ensureSandboxChannel, sandboxProvider, SandboxService } from './service';
import { sandboxRoutes } from './routes';

export const sandboxPlugin = defineServerPlugin({
  id: 'sandbox',
  deps: {
    http: coreServices.http,
    db: coreServices.database,
    lifecycle: coreServices.lifecycle,
    chats: chatServiceRef,
    providers: channelProvidersExtensionPoint,
    companies: companyLifecycleExtensionPoint,
  },
  init({ http, db, lifecycle, chats, providers, companies }) {
    providers.register('sandbox', sandboxProvider);
    // Every company has its simulator channel from the start; companies made before the sandbox existed get theirs at start-up.
    companies.onCompanyCreated(async (tx, companyId) => void (await ensureSandboxChannel(tx, companyId)));
    lifecycle.addStartHook(async () => void (await backfillSandboxChannels(db)));
    sandboxRoutes(http, new SandboxService(db, chats));
  },
});

/** A company's simulator channel, made when missing (other plugins' tests start from it). */
export { ensureSandboxChannel } from './service';
