import { mdiChartBar } from '@mdi/js';
import { createPlugin, lazyPage, mdiIconComponent } from '../../core';
import { shellTranslations } from './shellTranslations';

const StatsIcon = mdiIconComponent(mdiChartBar);

/**
 * Stats (issue #14): /stats, the team's and bots' figures over a date range and per channel
 * (server/plugins/stats; vocabulary in contract/stats.ts). The dashboard's "today at a glance"
 * reads the same API (src/plugins/dashboard/TodayCard.tsx).
 */
export const statsPlugin = createPlugin({
  id: 'stats',
  featureFlag: 'stats',
  routes: [{ path: '/stats', name: 'stats', area: 'stats', feature: { key: 'stats' }, component: lazyPage(() => import('./StatsPage')) }],
  menu: [{ to: '/stats', label: 'stats.menu', icon: StatsIcon, area: 'stats', order: 15 }],
  translations: shellTranslations,
  lazyTranslations: {
    en: () => import('./translations.en').then((m) => m.default),
    fr: () => import('./translations.fr').then((m) => m.default),
  },
});
