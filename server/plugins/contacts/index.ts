/**
 * Contacts plugin (issue #23): the customer record the inbox, broadcasts and segments stand on. Needs the
 * database, clock and realtime hub of the core, the chat service (who sees which rooms, the company's
 * tags) and its inbound pipeline (a customer who writes gets their contact), and the broadcasts' opt-out
 * list when that plugin runs (a contact's opted_out). Gives the contact service (contactServiceRef), the
 * REST routes of ./routes.ts and the `contact:{id}` topic.
 *
 * The CSV import (./imports.ts, ./importRoutes.ts) creates and updates contacts in time-sliced batches.
 * Seams left for what comes next: segments (saved ContactFilter plus attribute conditions: the
 * list's conditions() is where they join) and Messenger/Instagram profile names (the inbound handler).
 */
import type { FastifyInstance } from 'fastify';
import { coreExtensionPoints, coreServices, createServiceRef, defineServerPlugin } from '../../core/plugins';
import { broadcastContactsExtensionPoint, broadcastHistoryRef, broadcastOptOutsRef } from '../broadcasts';
import { ChatError, chatServiceRef, inboundPipelineExtensionPoint, type ChatService } from '../chats';
import { registerContactChannel } from './channel';
import { seedDemoContacts } from './demo';
import { importRoutes } from './importRoutes';
import { ContactImports } from './imports';
import { contactRoutes } from './routes';
import { registerSegments } from './segmentsPlugin';
import { ContactService } from './service';
import type { ContactActor } from './visibility';

export const contactServiceRef = createServiceRef<ContactService>({ id: 'contacts.service' });
export const contactImportsRef = createServiceRef<ContactImports>({ id: 'contacts.imports' });
export type { ContactService, ContactImports };
export type { ContactActor };

/** The app's contact service (tests reach it this way). */
export function contactService(app: FastifyInstance): ContactService {
  return app.services.get(contactServiceRef);
}

/** The chat service's actor for a contacts actor (its name is only used for messages sent, never here). */
const chatActor = (actor: ContactActor) => ({ ...actor, name: actor.email });

async function accessibleRoom(chats: ChatService, actor: ContactActor, roomId: number): Promise<{ id: number } | null> {
  try {
    return await chats.accessibleRoom(chatActor(actor), roomId);
  } catch (err) {
    if (err instanceof ChatError) return null;
    throw err;
  }
}

export const contactsPlugin = defineServerPlugin({
  id: 'contacts',
  deps: {
    http: coreServices.http,
    db: coreServices.database,
    clock: coreServices.clock,
    realtime: coreServices.realtime,
    lifecycle: coreServices.lifecycle,
    logger: coreServices.logger,
    demoData: coreExtensionPoints.demoData,
    chats: chatServiceRef,
    pipeline: inboundPipelineExtensionPoint,
  },
  optionalDeps: { optOuts: broadcastOptOutsRef, broadcastHistory: broadcastHistoryRef, broadcastContacts: broadcastContactsExtensionPoint },
  provides: { contacts: contactServiceRef, imports: contactImportsRef },
  init({ http, db, clock, realtime, lifecycle, logger, demoData, chats, pipeline, optOuts, broadcastHistory, broadcastContacts }) {
    const contacts = new ContactService({
      db,
      now: () => clock.now(),
      restrictedEmail: (actor) => chats.restrictedEmail(actor),
      ensureTag: (companyId, name) => chats.ensureTag(companyId, name),
      optedOut: (companyId, ids) => (optOuts ? optOuts.optedOut(companyId, ids) : Promise.resolve(new Set<string>())),
      broadcastsOf: (companyId, phone, limit) => (broadcastHistory ? broadcastHistory.receivedBy(companyId, phone, limit) : Promise.resolve([])),
      accessibleRoom: (actor, roomId) => accessibleRoom(chats, actor, roomId),
      push: (contactId, event, payload) => realtime.broadcast(`contact:${contactId}`, event, payload),
    });
    // Segments (./segmentsPlugin.ts): their routes, the list's segment filter, broadcasts' segment audiences and demo.
    const segments = registerSegments({ http, db, clock, demoData, contacts, broadcastContacts });
    contactRoutes(http, contacts, (companyId, segmentId, url) => segments.listFilters(companyId, segmentId, url));
    const imports = new ContactImports({
      db,
      now: () => clock.now(),
      restrictedEmail: (actor) => chats.restrictedEmail(actor),
      attributes: contacts.attributes,
      ensureTag: (companyId, name) => chats.ensureTag(companyId, name),
      log: logger,
    });
    importRoutes(http, imports);
    lifecycle.addShutdownHook(() => imports.stop());
    registerContactChannel(realtime, contacts);
    // First in the pipeline, and never the one that answers: the customer's contact exists before flows, the assistant or bots run.
    pipeline.add({
      id: 'contacts',
      order: 10,
      handle: async (room) => {
        await contacts.onInbound(room.id);
        return 'passed';
      },
    });
    // After the sandbox (100) stored the demo's conversations and chats (110) gave them their statuses.
    demoData.add({ id: 'contacts', order: 120, phase: 'withCompanies', seed: ({ tx, companyIds }) => seedDemoContacts(tx, companyIds.demo) });
    return { contacts, imports };
  },
});
