/** Companies plugin: create, account view, update, and the role list. */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../core/services';
import { CompanyService } from './service';
import { companyRoutes } from './routes';

export function init(services: Services) {
  return { companies: new CompanyService({ db: services.get('Database'), clock: services.get('Clock') }) };
}

export default async function companiesPlugin(app: FastifyInstance): Promise<void> {
  const { companies } = init(app.services);
  companyRoutes(app, companies);
}
