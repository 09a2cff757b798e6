import { lazy } from 'react';
import { mdiMessageTextOutline } from '@mdi/js';
import { createPlugin, mdiIconComponent } from '../../core';
import { templatesApiFactory } from './api';
import { editorTranslations } from './editor/translations';
import { templatesTranslations } from './translations';

const TemplatesIcon = mdiIconComponent(mdiMessageTextOutline);

/** Merges the list/setup/detail pages' and the editor's translations per locale. */
function merged(...parts: Record<string, Record<string, unknown>>[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const part of parts) {
    for (const [locale, keys] of Object.entries(part)) {
      const target = (out[locale] ??= {});
      for (const [key, value] of Object.entries(keys)) {
        const existing = target[key];
        target[key] = existing && typeof existing === 'object' && value && typeof value === 'object' ? { ...existing, ...value } : value;
      }
    }
  }
  return out;
}

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
    { path: '/templates', name: 'templates', area: 'whatsapp_templates', feature, component: lazy(() => import('./list/TemplatesPage')) },
    { path: '/templates/template-setup', name: 'template-setup', area: 'whatsapp_templates', feature, component: lazy(() => import('./setup/TemplateSetupPage')) },
    {
      path: '/templates/create-whatsapp-template/:category/:type',
      name: 'create-whatsapp-template',
      area: 'whatsapp_templates',
      feature,
      component: lazy(() => import('./editor/TemplateEditorPage')),
    },
    {
      path: '/templates/create-whatsapp-carousel',
      name: 'create-whatsapp-carousel',
      area: 'whatsapp_templates',
      feature: { key: 'whatsapp_carousel', redirect: '/templates' },
      component: lazy(() => import('./carousel/CarouselBuilderPage')),
    },
    { path: '/templates/:channelId/:templateId', name: 'template-detail', area: 'whatsapp_templates', feature, component: lazy(() => import('./detail/TemplateDetailPage')) },
  ],
  menu: [{ to: '/templates', label: 'templates.menu', icon: TemplatesIcon, area: 'whatsapp_templates', feature, order: 30 }],
  translations: merged(templatesTranslations, editorTranslations),
});

export { templatesApiRef } from './api';
