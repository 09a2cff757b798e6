import { mdiConnection } from '@mdi/js';
import { createPlugin, lazyPage, mdiIconComponent } from '../../core';
import { shellTranslations } from './shellTranslations';

const ChannelsIcon = mdiIconComponent(mdiConnection);

/**
 * Channels: the company's WhatsApp numbers, Facebook pages, Instagram accounts and sandbox
 * (/channels), and the WhatsApp embedded signup (/whatsapp-integration, outside the shell).
 */
export const channelsPlugin = createPlugin({
  id: 'channels',
  featureFlag: 'channels',
  resources: [{ name: 'channels', area: 'channels' }],
  routes: [
    { path: '/channels', name: 'channels', area: 'channels', feature: { key: 'channels' }, component: lazyPage(() => import('./ChannelsPage')) },
    {
      path: '/whatsapp-integration/*',
      name: 'whatsapp-integration',
      area: 'channels',
      noLayout: true,
      component: lazyPage(() => import('./whatsappIntegration/WhatsAppIntegrationPage')),
    },
  ],
  menu: [{ to: '/channels', label: 'channels.menu', icon: ChannelsIcon, area: 'channels', order: 20 }],
  translations: shellTranslations,
  lazyTranslations: {
    en: () => Promise.all([import('./translations.en'), import('./whatsappIntegration/translations.en')]).then(([page, signup]) => ({ ...page.default, ...signup.default })),
    fr: () => Promise.all([import('./translations.fr'), import('./whatsappIntegration/translations.fr')]).then(([page, signup]) => ({ ...page.default, ...signup.default })),
  },
});
