/** Routes of the companies plugin. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { CompanyCreateBody, CompanyUpdateBody } from '../../../contract/validation';
import { currentUser } from '../../core/auth/requireUser';
import { access } from '../../core/access';
import { companyForbidden, companyHeader } from '../../core/tenancy/requireCompany';
import type { CompanyService } from './service';

type IdParams = { Params: { id: string } };

/** The {id} path segment; an id that cannot exist is answered like a foreign company. */
function pathCompanyId(request: FastifyRequest<IdParams>): number {
  const { id } = request.params;
  if (!/^\d{1,9}$/.test(id)) throw companyForbidden();
  return Number(id);
}

/** When the request also names a company in the header, it must be the one in the path. */
async function headerMatchesPath(request: FastifyRequest<IdParams>): Promise<void> {
  const header = companyHeader(request);
  if (header !== undefined && header !== pathCompanyId(request)) throw companyForbidden();
}

export function companyRoutes(app: FastifyInstance, companies: CompanyService): void {
  // Creating a company needs no Company header: the user may have none yet.
  app.post<{ Body: z.infer<typeof CompanyCreateBody> }>(
    '/api/companies/',
    { schema: { body: CompanyCreateBody }, config: { access: access.user() } },
    async (request, reply) => {
      return reply.code(201).send(await companies.create(currentUser(request).id, request.body));
    },
  );

  app.get<IdParams>('/api/companies/:id/account/', { config: { access: access.user() }, onRequest: headerMatchesPath }, async (request) => {
    return companies.account(currentUser(request).id, pathCompanyId(request));
  });

  app.patch<IdParams & { Body: z.infer<typeof CompanyUpdateBody> }>(
    '/api/companies/:id/',
    {
      schema: { body: CompanyUpdateBody },
      config: { access: access.company('your_account', 'manage') },
      onRequest: headerMatchesPath,
    },
    async (request) => {
      return companies.update(currentUser(request).id, pathCompanyId(request), request.body);
    },
  );

  app.get('/api/roles/', { config: { access: access.company() } }, async () => companies.roles());
}
