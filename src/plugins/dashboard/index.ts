import { lazy } from 'react';
import { mdiViewDashboardOutline } from '@mdi/js';
import { createPlugin, mdiIconComponent } from '../../core';
import { translations } from './translations';

const DashboardIcon = mdiIconComponent(mdiViewDashboardOutline);

/** The home page of the shell: greeting, selected company and getting-started steps. */
export const dashboardPlugin = createPlugin({
  id: 'dashboard',
  featureFlag: 'dashboard',
  routes: [{ path: '/dashboard', name: 'dashboard', area: 'dashboard', component: lazy(() => import('./DashboardPage')) }],
  menu: [{ to: '/dashboard', label: 'dashboard.menu', icon: DashboardIcon, area: 'dashboard', order: 0 }],
  translations,
});
