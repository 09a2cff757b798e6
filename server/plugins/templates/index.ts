/**
 * Templates plugin (issue #10): WhatsApp message templates — our synced copy, create / edit /
 * delete through Meta, carousel submissions, status history and stats — and Meta's template
 * webhooks (status and quality), which arrive on the channels plugin's webhook route and are
 * handed here. Changes reach open consoles as `template_status` on the channel's `page:{id}` topic.
 * Needs the core's database, clock, Graph API and hub, the channels plugin's service and webhook
 * events; gives the template service (templateServiceRef) and the inbox's check of a template message.
 */
import type { FastifyInstance } from 'fastify';
import { createLeases } from '../../core/jobs/leases';
import { coreExtensionPoints, coreServices, createServiceRef, defineServerPlugin } from '../../core/plugins';
import { channelServiceRef, webhookEventsExtensionPoint } from '../channels';
import { templateSendChecksExtensionPoint } from '../chats';
import { templateMediaRoutes } from './mediaHandle';
import { templateRoutes } from './routes';
import { checkTemplateSend } from './sendCheck';
import { TemplateService } from './service';
import { seedDemoWhatsApp } from './demo';

/** WhatsApp message templates of a company's numbers. */
export const templateServiceRef = createServiceRef<TemplateService>({ id: 'templates.service' });
export type { TemplateService } from './service';

/** The app's template service (tests reach it to wait for background syncs). */
export function templateService(app: FastifyInstance): TemplateService {
  return app.services.get(templateServiceRef);
}

export const templatesPlugin = defineServerPlugin({
  id: 'templates',
  deps: {
    demoData: coreExtensionPoints.demoData,
    http: coreServices.http,
    config: coreServices.config,
    db: coreServices.database,
    clock: coreServices.clock,
    graph: coreServices.metaGraph,
    realtime: coreServices.realtime,
    logger: coreServices.logger,
    lifecycle: coreServices.lifecycle,
    channels: channelServiceRef,
    webhookEvents: webhookEventsExtensionPoint,
    templateChecks: templateSendChecksExtensionPoint,
  },
  provides: { templates: templateServiceRef },
  init({ demoData, http, config, db, clock, graph, realtime, logger, lifecycle, channels, webhookEvents, templateChecks }) {
    // The demo's WhatsApp number on the local fake Meta, with its templates (needs the port: the adapter calls the fake over HTTP).
    demoData.add({ id: 'whatsapp', order: 100, phase: 'afterListen', required: true, seed: async ({ app, config, demo }) => {
      if (config.demo.enabled && config.meta.mode === 'local') await seedDemoWhatsApp(app, demo.companies.demo.name);
    } });
    // Shared by the processes through Redis when there is one (a cluster requires it), else in memory.
    const leases = createLeases(config, clock);
    const service = new TemplateService({
      leases,
      db,
      clock,
      graph: () => graph,
      channels,
      log: logger,
      // page:{id} is company-scoped (its join checks the channel is the member's company's).
      push: (channelId, event, payload) => realtime.broadcast(`page:${channelId}`, event, payload),
    });
    webhookEvents.onTemplateEvent((event) => service.applyWebhook(event));
    templateChecks.add((room, template, mediaUrl) => checkTemplateSend(db, room, template, mediaUrl));
    templateRoutes(http, service);
    templateMediaRoutes(http, service);
    lifecycle.addShutdownHook(async () => {
      await service.settled();
      await leases.close();
    });
    return { templates: service };
  },
});
