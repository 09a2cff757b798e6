import { lazy } from 'react';
import { mdiAccountCircleOutline } from '@mdi/js';
import { createPlugin, mdiIconComponent } from '../../core';
import { accountSectionsApiFactory } from './sections';
import { translations } from './translations';

const AccountIcon = mdiIconComponent(mdiAccountCircleOutline);

/** The user's own account: profile, password, company settings, sign-out; other plugins add sections (./sections). */
export const accountPlugin = createPlugin({
  id: 'account',
  featureFlag: 'your_account',
  apis: [accountSectionsApiFactory],
  routes: [{ path: '/account', name: 'account', area: 'your_account', component: lazy(() => import('./AccountPage')) }],
  menu: [{ to: '/account', label: 'account.menu', icon: AccountIcon, area: 'your_account', order: 90 }],
  translations,
});

export { accountSectionsApiRef, type AccountSection, type AccountSections } from './sections';
