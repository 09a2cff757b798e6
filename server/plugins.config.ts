/**
 * The server's composition root: which feature plugins the server runs (the twin of the console's
 * plugins.config.ts). Each plugin's index.ts declares what it needs and gives (defineServerPlugin);
 * the core starts them in dependency order, otherwise in this order (the generated isolation test
 * walks the routes in it). To add a plugin: server/plugins/<id>/index.ts, then one line below.
 */
import type { ServerPlugin } from './core/plugins/defineServerPlugin';
import { accountsPlugin } from './plugins/accounts';
import { companiesPlugin } from './plugins/companies';
import { chatsPlugin } from './plugins/chats';
import { channelsPlugin } from './plugins/channels';
import { sandboxPlugin } from './plugins/sandbox';
import { teamPlugin } from './plugins/team';
import { agentTemplatesPlugin } from './plugins/agentTemplates';
import { templatesPlugin } from './plugins/templates';
import { broadcastsPlugin } from './plugins/broadcasts';
import { botsPlugin } from './plugins/bots';
import { flowsPlugin } from './plugins/flows';
import { billingPlugin } from './plugins/billing';
import { statsPlugin } from './plugins/stats';
import { contactsPlugin } from './plugins/contacts';
import { assistantPlugin } from './plugins/assistant';
import { hoursPlugin } from './plugins/hours';

export const serverPlugins: readonly ServerPlugin[] = [
  accountsPlugin,
  companiesPlugin,
  chatsPlugin,
  channelsPlugin,
  sandboxPlugin,
  teamPlugin,
  agentTemplatesPlugin,
  templatesPlugin,
  broadcastsPlugin,
  botsPlugin,
  // After the bots plugin, whose key resolver and start_flow extension point it uses.
  flowsPlugin,
  billingPlugin,
  statsPlugin,
  contactsPlugin,
  // After the flows plugin, whose service it reads the flows' extra context through.
  assistantPlugin,
  // The away message: the inbound pipeline's last handler (order 300).
  hoursPlugin,
];
