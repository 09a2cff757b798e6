import { lazy } from 'react';
import { mdiTransitConnectionVariant } from '@mdi/js';
import { createPlugin, mdiIconComponent } from '../../core';
import { flowServiceApiFactory } from './api/flowService';
import { translations } from './translations';

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
    { path: '/flows', name: 'flows', area: 'flows', feature: { key: 'flows' }, component: lazy(() => import('./FlowsPage')) },
    { path: '/flows/create', name: 'flows-create', area: 'flows', feature: { key: 'flows' }, component: lazy(() => import('./FlowCreatePage')) },
    { path: '/flows/edit/:flowName', name: 'flows-edit', area: 'flows', feature: { key: 'flows' }, component: lazy(() => import('./editor/FlowEditPage')) },
    { path: '/flows/branch/:flowName', name: 'flows-branch', area: 'flows', feature: { key: 'branching_flows' }, component: lazy(() => import('./branch/FlowBranchPage')) },
  ],
  menu: [{ to: '/flows', label: 'flows.menu', icon: FlowsIcon, area: 'flows', order: 45 }],
  translations,
});

export { flowServiceApiRef } from './api/flowService';
