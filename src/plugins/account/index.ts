import { mdiAccountCircleOutline } from '@mdi/js';
import { createPlugin, lazyPage, mdiIconComponent } from '../../core';
import { accountSectionsApiFactory } from './sections';
import { shellTranslations } from './shellTranslations';

const AccountIcon = mdiIconComponent(mdiAccountCircleOutline);

/** The user's own account: profile, password, company settings, sign-out; other plugins add sections (./sections). */
export const accountPlugin = createPlugin({
  id: 'account',
  featureFlag: 'your_account',
  apis: [accountSectionsApiFactory],
  routes: [{ path: '/account', name: 'account', area: 'your_account', translationsOf: ['billing'], component: lazyPage(() => import('./AccountPage')) }],
  menu: [{ to: '/account', label: 'account.menu', icon: AccountIcon, area: 'your_account', order: 90 }],
  translations: shellTranslations,
  lazyTranslations: {
    en: () => import('./translations.en').then((m) => m.default),
    fr: () => import('./translations.fr').then((m) => m.default),
  },
});

export { accountSectionsApiRef, type AccountSection, type AccountSections } from './sections';
