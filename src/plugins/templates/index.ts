import { mdiMessageTextOutline } from '@mdi/js';
import { createPlugin, lazyPage, mdiIconComponent } from '../../core';
import { templatesApiFactory } from './api';
import { shellTranslations } from './shellTranslations';

const TemplatesIcon = mdiIconComponent(mdiMessageTextOutline);

const feature = { key: 'whatsapp_templates' };

/**
 * WhatsApp message templates (issue #10): the list with live review status (/templates), the setup
 * (/templates/template-setup), a template's detail with its status history and stats, the editor
 * with live preview and the carousel builder (whatsapp_carousel).
 */
export const templatesPlugin = createPlugin({
  id: 'templates',
  featureFlag: 'whatsapp_templates',
  apis: [templatesApiFactory],
  resources: [{ name: 'templates', area: 'whatsapp_templates' }],
  routes: [
    { path: '/templates', name: 'templates', area: 'whatsapp_templates', feature, component: lazyPage(() => import('./list/TemplatesPage')) },
    { path: '/templates/template-setup', name: 'template-setup', area: 'whatsapp_templates', feature, component: lazyPage(() => import('./setup/TemplateSetupPage')) },
    {
      path: '/templates/create-whatsapp-template/:category/:type',
      name: 'create-whatsapp-template',
      area: 'whatsapp_templates',
      feature,
      component: lazyPage(() => import('./editor/TemplateEditorPage')),
    },
    {
      path: '/templates/create-whatsapp-carousel',
      name: 'create-whatsapp-carousel',
      area: 'whatsapp_templates',
      feature: { key: 'whatsapp_carousel', redirect: '/templates' },
      component: lazyPage(() => import('./carousel/CarouselBuilderPage')),
    },
    { path: '/templates/:channelId/:templateId', name: 'template-detail', area: 'whatsapp_templates', feature, component: lazyPage(() => import('./detail/TemplateDetailPage')) },
  ],
  menu: [{ to: '/templates', label: 'templates.menu', icon: TemplatesIcon, area: 'whatsapp_templates', feature, order: 30 }],
  translations: shellTranslations,
  lazyTranslations: {
    en: () => import('./lazyTranslations').then((m) => m.lazyTranslations.en),
    fr: () => import('./lazyTranslations').then((m) => m.lazyTranslations.fr),
  },
});

export { templatesApiRef } from './api';
