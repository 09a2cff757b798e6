/** Companies plugin: create, account view, update, and the role list. */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../core/services';
import { CompanyService } from './service';
import { companyRoutes } from './routes';
import { createExtensionPoint } from '../../core/plugins';
import type { CompanyCreatedHook } from './service';

// ---- What the companies plugin gives other plugins (issue #20: its contract; the only way in) ----

/** Hooks run inside the transaction that creates a company (the sandbox plugin adds the company's simulator channel). */
export interface CompanyLifecycle {
  onCompanyCreated(hook: CompanyCreatedHook): void;
}
export const companyLifecycleExtensionPoint = createExtensionPoint<CompanyLifecycle>({ id: 'companies.lifecycle' });

export type { CompanyCreatedHook } from './service';


export function init(services: Services) {
  return { companies: new CompanyService({ db: services.get('Database'), clock: services.get('Clock') }) };
}

export default async function companiesPlugin(app: FastifyInstance): Promise<void> {
  const { companies } = init(app.services);
  companyRoutes(app, companies);
}
