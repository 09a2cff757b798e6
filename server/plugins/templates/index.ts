/**
 * Templates plugin (issue #10): WhatsApp message templates — our synced copy, create / edit /
 * delete through Meta, carousel submissions, status history and stats — and Meta's template
 * webhooks (status and quality), which arrive on the channels plugin's webhook route and are
 * handed here. Changes reach open consoles as `template_status` on the channel's `page:{id}` topic.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../core/services';
import { channelsRuntime } from '../channels';
import { templateMediaRoutes } from './mediaHandle';
import { templateRoutes } from './routes';
import { TemplateService } from './service';

const services = new WeakMap<Services, TemplateService>();

/** The app's template service (tests reach it to wait for background syncs). */
export function templateService(app: FastifyInstance): TemplateService {
  const existing = services.get(app.services);
  if (existing) return existing;
  const channels = channelsRuntime(app);
  const service = new TemplateService({
    db: app.services.get('Database'),
    clock: app.services.get('Clock'),
    graph: () => app.services.get('MetaGraph'),
    channels: channels.channels,
    log: app.log,
    // page:{id} is company-scoped (its join checks the channel is the member's company's).
    push: (channelId, event, payload) => app.realtime.broadcast(`page:${channelId}`, event, payload),
  });
  services.set(app.services, service);
  return service;
}

export default async function templatesPlugin(app: FastifyInstance): Promise<void> {
  const service = templateService(app);
  channelsRuntime(app).webhooks.templateEvents = (event) => service.applyWebhook(event);
  templateRoutes(app, service);
  templateMediaRoutes(app, service);
  app.addHook('onClose', async () => service.settled());
}
