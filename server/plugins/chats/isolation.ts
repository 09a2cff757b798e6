/**
 * This plugin's part of the generated tenant-isolation test (server/testing/isolation/areas.ts).
 * The world's rooms, messages and tags are its data: A's calls and sockets name B's room and channels.
 */
import type { IsolationArea } from '../../testing/isolation/areas';

export const chatsIsolation: IsolationArea = {
  name: 'chats',
  routes: {
    'GET /api/tags/': { allowed: [200] },
    'GET /api/chats/presigned_url/': { query: () => ({ file_name: 'a.png', file_type: 'image/png' }), allowed: [200] },
    'GET /api/chats/rooms/:id/messages/': { params: (w) => ({ id: w.B.roomId }), query: (w) => ({ before_id: String(w.B.messageId + 1) }) },
    // Issue #22: B's member and channels as filters answer none of B's rooms; B's room cannot be changed.
    'GET /api/rooms/': { query: (w) => ({ status: 'all', assignee: String(w.B.agent.id), pages: `${w.B.sandboxChannelId},${w.B.whatsappChannelId}` }), allowed: [200] },
    'GET /api/rooms/counts/': { query: (w) => ({ pages: `${w.B.sandboxChannelId},${w.B.whatsappChannelId}` }), allowed: [200] },
    'PATCH /api/rooms/:id/': { params: (w) => ({ id: w.B.roomId }), body: (w) => ({ status: 'resolved', assignee_id: w.B.agent.id }) },
  },
  topics: {
    room: { other: (w) => [`room:${w.B.roomId}`], own: (w) => [`room:${w.A.roomId}`] },
    page: { other: (w) => [`page:${w.B.sandboxChannelId}`, `page:${w.B.whatsappChannelId}`], own: (w) => ['page:lobby', `page:${w.A.sandboxChannelId}`] },
  },
};
