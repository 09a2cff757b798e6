/**
 * GET and PUT /api/business-hours/ (contract/businessHours.ts): every member reads them; changing
 * them is a company setting (manage access to your_account, like the company's name and logo).
 */
import type { FastifyInstance } from 'fastify';
import { BusinessHoursBody, type BusinessHours } from '../../../contract/businessHours';
import { access } from '../../core/access';
import type { HoursService } from './service';

export function hoursRoutes(app: FastifyInstance, hours: HoursService): void {
  app.get('/api/business-hours/', { config: { access: access.company() } }, async (request): Promise<BusinessHours> => hours.get(request.company!.id));

  app.put<{ Body: BusinessHoursBody }>(
    '/api/business-hours/',
    { config: { access: access.company('your_account', 'manage') }, schema: { body: BusinessHoursBody } },
    async (request): Promise<BusinessHours> => hours.save(request.company!.id, request.body),
  );
}
