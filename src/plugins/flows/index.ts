import { mdiTransitConnectionVariant } from '@mdi/js';
import { createPlugin, lazyPage, mdiIconComponent } from '../../core';
import { flowServiceApiFactory } from './api/flowService';
import { shellTranslations } from './shellTranslations';

const FlowsIcon = mdiIconComponent(mdiTransitConnectionVariant);

/**
 * Flows (issue #13): the flow list (/flows), creation (/flows/create) and the editor
 * (/flows/edit/{flowName}). Feature `flows`, permission area `flows`. Calls go to the bot service
 * through the bots plugin's client (company endpoint + access_key).
 */
export const flowsPlugin = createPlugin({
  id: 'flows',
  featureFlag: 'flows',
  apis: [flowServiceApiFactory],
  routes: [
    { path: '/flows', name: 'flows', area: 'flows', feature: { key: 'flows' }, component: lazyPage(() => import('./FlowsPage')) },
    { path: '/flows/create', name: 'flows-create', area: 'flows', feature: { key: 'flows' }, component: lazyPage(() => import('./FlowCreatePage')) },
    { path: '/flows/edit/:flowName', name: 'flows-edit', area: 'flows', feature: { key: 'flows' }, translationsOf: ['templates'], component: lazyPage(() => import('./editor/FlowEditPage')) },
    { path: '/flows/branch/:flowName', name: 'flows-branch', area: 'flows', feature: { key: 'branching_flows' }, component: lazyPage(() => import('./branch/FlowBranchPage')) },
  ],
  menu: [{ to: '/flows', label: 'flows.menu', icon: FlowsIcon, area: 'flows', order: 45 }],
  translations: shellTranslations,
  lazyTranslations: {
    en: () => import('./translations.en').then((m) => m.default),
    fr: () => import('./translations.fr').then((m) => m.default),
  },
});

export { flowServiceApiRef } from './api/flowService';
