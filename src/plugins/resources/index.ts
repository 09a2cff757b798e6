import { mdiBookOpenPageVariantOutline } from '@mdi/js';
import { createPlugin, lazyPage, mdiIconComponent } from '../../core';
import { shellTranslations } from './shellTranslations';

const ResourcesIcon = mdiIconComponent(mdiBookOpenPageVariantOutline);

/**
 * Resources (issue #14): /resources, searchable help for each area of the console (MiniSearch over
 * the articles in ./articles.ts), the integration reference (API base, bot-service endpoint and key,
 * Meta webhook URL, the generated OpenAPI documents of server/plugins/resources/openapi.ts and a
 * readable view of them) and downloads (the bot service's opt-out CSV).
 */
export const resourcesPlugin = createPlugin({
  id: 'resources',
  featureFlag: 'resources',
  routes: [{ path: '/resources', name: 'resources', area: 'resources', feature: { key: 'resources' }, component: lazyPage(() => import('./ResourcesPage')) }],
  menu: [{ to: '/resources', label: 'resources.menu', icon: ResourcesIcon, area: 'resources', order: 85 }],
  translations: shellTranslations,
  lazyTranslations: {
    en: () => import('./translations').then((m) => m.translations.en),
    fr: () => import('./translations').then((m) => m.translations.fr),
  },
});
