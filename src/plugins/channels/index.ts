import { lazy } from 'react';
import { mdiConnection } from '@mdi/js';
import { createPlugin, mdiIconComponent } from '../../core';
import { translations } from './translations';
import { whatsappIntegrationTranslations } from './whatsappIntegration/translations';

const ChannelsIcon = mdiIconComponent(mdiConnection);

/** Merges the channels page's and the WhatsApp onboarding's translations per locale. */
function merged(...parts: Record<string, Record<string, unknown>>[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const part of parts) for (const [locale, keys] of Object.entries(part)) out[locale] = { ...out[locale], ...keys };
  return out;
}

/**
 * Channels: the company's WhatsApp numbers, Facebook pages, Instagram accounts and sandbox
 * (/channels), and the WhatsApp embedded signup (/whatsapp-integration, outside the shell).
 */
export const channelsPlugin = createPlugin({
  id: 'channels',
  featureFlag: 'channels',
  resources: [{ name: 'channels', area: 'channels' }],
  routes: [
    { path: '/channels', name: 'channels', area: 'channels', feature: { key: 'channels' }, component: lazy(() => import('./ChannelsPage')) },
    {
      path: '/whatsapp-integration/*',
      name: 'whatsapp-integration',
      area: 'channels',
      noLayout: true,
      component: lazy(() => import('./whatsappIntegration/WhatsAppIntegrationPage')),
    },
  ],
  menu: [{ to: '/channels', label: 'channels.menu', icon: ChannelsIcon, area: 'channels', order: 20 }],
  translations: merged(translations, whatsappIntegrationTranslations),
});
