import { mdiViewDashboardOutline } from '@mdi/js';
import { createPlugin, lazyPage, mdiIconComponent } from '../../core';
import { shellTranslations } from './shellTranslations';

const DashboardIcon = mdiIconComponent(mdiViewDashboardOutline);

/** The home page of the shell: greeting, selected company and getting-started steps. */
export const dashboardPlugin = createPlugin({
  id: 'dashboard',
  featureFlag: 'dashboard',
  routes: [{ path: '/dashboard', name: 'dashboard', area: 'dashboard', translationsOf: ['stats'], component: lazyPage(() => import('./DashboardPage')) }],
  menu: [{ to: '/dashboard', label: 'dashboard.menu', icon: DashboardIcon, area: 'dashboard', order: 0 }],
  translations: shellTranslations,
  lazyTranslations: {
    en: () => import('./translations.en').then((m) => m.default),
    fr: () => import('./translations.fr').then((m) => m.default),
  },
});
