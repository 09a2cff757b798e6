/**
 * The `contact:{id}` topic: whoever has a contact open (the inbox's contact panel, the contacts page)
 * joins it and receives contact_updated {contact} (without its rooms) and contact_deleted {id}. Joining
 * needs chats view and a contact the member sees (a limited member: one of their rooms).
 */
import { topicAccess } from '../../core/access/topics';
import type { ChannelHandler, RealtimeHub, SocketIdentity } from '../../core/realtime/types';
import type { ContactService } from './service';
import type { ContactActor } from './visibility';

export const actorOfIdentity = (identity: SocketIdentity): ContactActor => ({ companyId: identity.companyId, userId: identity.userId, email: identity.email, role: identity.role });

export const contactTopicAccess = (contacts: ContactService) =>
  topicAccess.companyResource({
    permission: { area: 'chats', access: 'view' },
    belongsTo: (id, identity) => contacts.visible(actorOfIdentity(identity), id),
  });

const contactChannel: ChannelHandler = {
  // The hub checked the join against contactTopicAccess; the channel only listens.
  join: async () => ({ status: 'ok', response: {} }),
  handleIn: async () => ({ status: 'error', response: { reason: 'unknown event' } }),
};

export function registerContactChannel(hub: RealtimeHub, contacts: ContactService): void {
  hub.registerChannel('contact', contactTopicAccess(contacts), contactChannel);
}
