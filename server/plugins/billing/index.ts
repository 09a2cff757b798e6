/** Billing plugin: see its issue; routes, services and schema live in this folder. */
import type { FastifyInstance } from 'fastify';

export default async function billingPlugin(app: FastifyInstance): Promise<void> {
  void app;
}
