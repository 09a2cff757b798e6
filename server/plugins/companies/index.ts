/** Companies plugin: create, account view, update, and the role list. */
import { CompanyService } from './service';
import { companyRoutes } from './routes';
import { coreServices, createExtensionPoint, defineServerPlugin, offerExtensionPoint } from '../../core/plugins';
import type { CompanyCreatedHook } from './service';

// ---- What the companies plugin gives other plugins (issue #20: its contract; the only way in) ----

/** Hooks run inside the transaction that creates a company (the sandbox plugin adds the company's simulator channel). */
export interface CompanyLifecycle {
  onCompanyCreated(hook: CompanyCreatedHook): void;
}
export const companyLifecycleExtensionPoint = createExtensionPoint<CompanyLifecycle>({ id: 'companies.lifecycle' });

export type { CompanyCreatedHook } from './service';


export const companiesPlugin = defineServerPlugin({
  id: 'companies',
  deps: { http: coreServices.http, db: coreServices.database, clock: coreServices.clock, lifecycle: companyLifecycleExtensionPoint },
  extensionPoints: [offerExtensionPoint(companyLifecycleExtensionPoint, () => new CompanyLifecycleHooks())],
  init({ http, db, clock, lifecycle }) {
    companyRoutes(http, new CompanyService({ db, clock, createdHooks: (lifecycle as CompanyLifecycleHooks).hooks }));
  },
});

class CompanyLifecycleHooks implements CompanyLifecycle {
  readonly hooks: CompanyCreatedHook[] = [];
  onCompanyCreated(hook: CompanyCreatedHook): void {
    this.hooks.push(hook);
  }
}
