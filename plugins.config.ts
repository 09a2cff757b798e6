/**
 * Which plugins the console loads and which feature keys are enabled at start-up (spec §6).
 * To add a plugin: create src/plugins/<id>/index.ts exporting a `createPlugin({...})`, then add one line below.
 */
import type { ConsolePlugin } from './src/core/plugins/types';
import { dashboardPlugin } from './src/plugins/dashboard';
import { accountPlugin } from './src/plugins/account';
import { chatsPlugin } from './src/plugins/chats';
import { channelsPlugin } from './src/plugins/channels';
import { teamPlugin } from './src/plugins/team';
import { templatesPlugin } from './src/plugins/templates';
import { broadcastsPlugin } from './src/plugins/broadcasts';
import { botsPlugin } from './src/plugins/bots';
import { flowsPlugin } from './src/plugins/flows';
import { billingPlugin } from './src/plugins/billing';
import { statsPlugin } from './src/plugins/stats';
import { resourcesPlugin } from './src/plugins/resources';
import { contactsPlugin } from './src/plugins/contacts';
import { knowledgePlugin } from './src/plugins/knowledge';

/** Every feature key the product knows. `branching_flows` is defined but not enabled. */
export const definedFeatures = [
  'flows',
  'dashboard',
  'channels',
  'members',
  'resources',
  'your_account',
  'chats',
  'triggers',
  'whatsapp_templates',
  'whatsapp_carousel',
  'pauseBot',
  'stats',
  'broadcast_engagement',
  'branching_flows',
  'contacts',
  'assistant',
] as const;

export type FeatureKey = (typeof definedFeatures)[number];

/** The keys enabled at start-up. */
export const enabledFeatures: FeatureKey[] = [
  'flows',
  'dashboard',
  'channels',
  'members',
  'resources',
  'your_account',
  'chats',
  'triggers',
  'whatsapp_templates',
  'whatsapp_carousel',
  'pauseBot',
  'stats',
  'broadcast_engagement',
  'contacts',
  'assistant',
];

export const plugins: ConsolePlugin[] = [
  dashboardPlugin,
  chatsPlugin,
  channelsPlugin,
  accountPlugin,
  teamPlugin,
  templatesPlugin,
  broadcastsPlugin,
  botsPlugin,
  flowsPlugin,
  billingPlugin,
  statsPlugin,
  resourcesPlugin,
  contactsPlugin,
  knowledgePlugin,
];
