/** Chats plugin: the live inbox's realtime topics (page:*, room:*) and its REST helpers. */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { messages } from '../../core/db/schema';
import { chatKeyOf, mediaReferences } from '../../providers/storage/sweeper';
import { registerChatChannels } from './handlers';
import { ownMediaBases } from './mediaBases';
import { chatRoutes } from './routes';
import { chatService, findHub } from './runtime';

export default async function chatsPlugin(app: FastifyInstance): Promise<void> {
  const chats = chatService(app);
  const hub = findHub(app);
  if (hub) registerChatChannels(hub, chats, ownMediaBases(app.services.get('Config')));
  else app.log.warn('chats: no realtime hub, the page and room topics are not served');
  app.addHook('onClose', async () => chats.settled());
  chatRoutes(app, chats);
  // A message's attachment (an agent's upload, media received from Meta) stays while the message names it; the LIKE is a cheap pre-filter.
  mediaReferences(app).add('messages', sql`SELECT ${chatKeyOf(messages.mediaUrl)} AS key FROM ${messages} WHERE ${messages.mediaUrl} LIKE '%/chats/%'`);
}
