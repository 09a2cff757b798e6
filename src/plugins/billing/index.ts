import { mdiTagOutline } from '@mdi/js';
import { alertApiRef, createPlugin, lazyPage, httpApiRef, i18nApiRef, mdiIconComponent, permissionApiRef } from '../../core';
import { accountSectionsApiRef } from '../account';
import { lazy } from 'react';
import { billingApiFactory } from './api';
import { listenToPlanLimits } from './planLimitAlert';
import { billingStoreApiFactory, billingStoreApiRef } from './store';
import { shellTranslations } from './shellTranslations';

const PricingIcon = mdiIconComponent(mdiTagOutline);

/**
 * The account page's billing section, loaded with that page (the account route loads the billing
 * strings too: its translationsOf). Eager, its invoices table (react-admin's list) weighed ~27 KB gz on the shell.
 */
const BillingSection = lazy(() => import('./BillingSection').then((m) => ({ default: m.BillingSection })));

/**
 * Billing (issue #14): /pricing (the plans, subscribe through the provider's checkout) and the
 * billing section of /account (subscription, cancel and resume, payment method, invoices).
 *
 * Access: /pricing is route name 'pricing', checked as billing by the global view-access guard
 * (spec §2); the account section shows to members who may view billing.
 *
 * Feature key: the plugin has no plugin-level flag and /pricing no feature requirement. Spec §6's
 * start-up list does not enable 'pricing', and once that list is set (at start-up, spec §4) a
 * requirement's default no longer applies — `{ key: 'pricing', default: true }` would send every
 * visitor of /pricing to '/'. So the pricing page is gated by billing view access only, and the
 * enabled list stays as the spec says.
 */
export const billingPlugin = createPlugin({
  id: 'billing',
  apis: [billingApiFactory, billingStoreApiFactory],
  routes: [{ path: '/pricing', name: 'pricing', component: lazyPage(() => import('./PricingPage')) }],
  menu: [{ to: '/pricing', label: 'billing.menu', icon: PricingIcon, area: 'pricing', order: 95 }],
  translations: shellTranslations,
  lazyTranslations: {
    en: () => import('./translations.en').then((m) => m.default),
    fr: () => import('./translations.fr').then((m) => m.default),
  },
  onInit(get) {
    // Created now, so a company switch or sign-out resets the billing state (spec §4).
    get(billingStoreApiRef);
    // A plan limit hit on any page: the server's message with a link to /pricing (issue #14).
    const i18n = get(i18nApiRef);
    listenToPlanLimits({ http: get(httpApiRef), alert: get(alertApiRef), permissions: get(permissionApiRef), translate: (key) => i18n.i18n.t(key) });
    try {
      get(accountSectionsApiRef).register({ id: 'billing', area: 'billing', order: 10, component: BillingSection });
    } catch {
      // the account plugin is not loaded (your_account disabled): no account page to add to
    }
  },
});

export { billingApiRef } from './api';
export { billingStoreApiRef, useBilling } from './store';
