/**
 * This plugin's part of the generated tenant-isolation test (server/testing/isolation/areas.ts).
 * The world's rooms, messages and tags are its data: A's calls and sockets name B's room and channels.
 * Issue #22: each company's room also gets a private note by its agent mentioning its admin (so a
 * notification), B's carrying the marker, which A's message search must never find.
 */
import { asc, eq } from 'drizzle-orm';
import type { IsolationArea } from '../../testing/isolation/areas';
import { messages } from '../../core/db/schema';
import { MARKER } from '../../testing/isolation/world';
import { chatServiceRef } from './index';
import { csatChannels, notifications } from './schema';

export const chatsIsolation: IsolationArea = {
  name: 'chats',
  async seed(t, company, mark) {
    const chats = t.app.services.get(chatServiceRef);
    const room = (await chats.roomRecord(company.roomId))!;
    const author = { userId: company.agent.id, email: company.agent.email, name: company.agent.email, companyId: company.id, role: company.agent.role };
    const note = await chats.notes.add(author, room, `Internal note${mark} for @${company.admin.email}`);
    const [notification] = await t.db.select({ id: notifications.id }).from(notifications).where(eq(notifications.messageId, note.id));
    return { noteId: note.id, notificationId: notification.id };
  },
  async snapshot(t, companyId) {
    return {
      notifications: await t.db.select().from(notifications).where(eq(notifications.companyId, companyId)).orderBy(asc(notifications.id)),
      messages: await t.db.select().from(messages).where(eq(messages.companyId, companyId)).orderBy(asc(messages.id)),
      csatChannels: await t.db.select().from(csatChannels).where(eq(csatChannels.companyId, companyId)).orderBy(asc(csatChannels.channelId)),
    };
  },
  routes: {
    'GET /api/tags/': { allowed: [200] },
    'GET /api/chats/presigned_url/': { query: () => ({ file_name: 'a.png', file_type: 'image/png' }), allowed: [200] },
    'GET /api/chats/rooms/:id/messages/': { params: (w) => ({ id: w.B.roomId }), query: (w) => ({ before_id: String(w.B.messageId + 1), notes: 'true' }) },
    // Issue #22: B's member and channels as filters answer none of B's rooms; B's room cannot be changed.
    'GET /api/rooms/': { query: (w) => ({ status: 'all', assignee: String(w.B.agent.id), pages: `${w.B.sandboxChannelId},${w.B.whatsappChannelId}` }), allowed: [200] },
    'GET /api/rooms/counts/': { query: (w) => ({ pages: `${w.B.sandboxChannelId},${w.B.whatsappChannelId}` }), allowed: [200] },
    'PATCH /api/rooms/:id/': { params: (w) => ({ id: w.B.roomId }), body: (w) => ({ status: 'resolved', assignee_id: w.B.agent.id }) },
    // Auto-assignment: B's channel cannot be switched, B's member's capacity cannot be set; the lists answer A's only.
    'GET /api/auto-assignment/': { allowed: [200] },
    'PUT /api/auto-assignment/:channel_id/': { params: (w) => ({ channel_id: w.B.sandboxChannelId }), body: () => ({ enabled: true }) },
    'GET /api/assignment-capacities/': { allowed: [200] },
    // CSAT: B's channel cannot be switched; the list answers A's only.
    'GET /api/csat/': { allowed: [200] },
    'PUT /api/csat/:channel_id/': { params: (w) => ({ channel_id: w.B.sandboxChannelId }), body: () => ({ enabled: true }) },
    'PUT /api/assignment-capacities/:user_id/': { params: (w) => ({ user_id: w.B.agent.id }), body: () => ({ capacity: 3 }) },
    // Issue #22, notes and notifications: no note in B's room, none of B's notifications read, B's messages never found.
    'POST /api/rooms/:id/notes/': { params: (w) => ({ id: w.B.roomId }), body: (w) => ({ text: `Note by A for @${w.B.admin.email}` }) },
    'GET /api/notifications/': { allowed: [200] },
    // A's members only: B's are never listed.
    'GET /api/chats/members/': { allowed: [200] },
    'POST /api/notifications/:id/read/': { params: (w) => ({ id: w.B.areas.chats.notificationId }) },
    'GET /api/messages/search/': { query: () => ({ q: MARKER }), allowed: [200] },
  },
  topics: {
    room: { other: (w) => [`room:${w.B.roomId}`], own: (w) => [`room:${w.A.roomId}`] },
    page: { other: (w) => [`page:${w.B.sandboxChannelId}`, `page:${w.B.whatsappChannelId}`], own: (w) => ['page:lobby', `page:${w.A.sandboxChannelId}`] },
    // A member's own notifications only: B's members' topics are refused to A's sockets.
    notifications: { other: (w) => [`notifications:${w.B.admin.id}`, `notifications:${w.B.agent.id}`], own: (w) => [`notifications:${w.A.manager.id}`] },
  },
};
