import { mdiRobotOutline } from '@mdi/js';
import { createPlugin, lazyPage, mdiIconComponent } from '../../core';
import { botServiceApiFactory } from './api/botService';
import { shellTranslations } from './shellTranslations';

const BotsIcon = mdiIconComponent(mdiRobotOutline);

/**
 * Bots (issue #12): the bot list (/bots), the bot flow canvas (/flows/generic-flow/{botId}) and the
 * bot's two views (/bots/{id}). Bots are part of the flows feature (spec §6 `flows`), permission area `flows`.
 */
export const botsPlugin = createPlugin({
  id: 'bots',
  featureFlag: 'flows',
  apis: [botServiceApiFactory],
  resources: [{ name: 'bots', area: 'flows' }],
  routes: [
    { path: '/bots', name: 'bots', area: 'flows', feature: { key: 'flows' }, component: lazyPage(() => import('./BotsPage')) },
    { path: '/bots/:id', name: 'bot', area: 'flows', feature: { key: 'flows' }, translationsOf: ['channels'], component: lazyPage(() => import('./BotPage')) },
    { path: '/flows/generic-flow/:botId', name: 'generic-flow', area: 'flows', feature: { key: 'flows' }, component: lazyPage(() => import('./canvas/BotCanvasPage')) },
  ],
  menu: [{ to: '/bots', label: 'bots.menu', icon: BotsIcon, area: 'flows', order: 50, activeFor: ['/flows/generic-flow/:botId'] }],
  translations: shellTranslations,
  lazyTranslations: {
    en: () => import('./translations.en').then((m) => m.default),
    fr: () => import('./translations.fr').then((m) => m.default),
  },
});

export { botServiceApiRef, NoBotAccessError, type BotServiceApi } from './api/botService';
