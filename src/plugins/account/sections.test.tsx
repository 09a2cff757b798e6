// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { createPlugin } from '../../core';
import { membership, testUser } from '../../core/account/testUsers';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { pageTranslations } from '../../app/pages/translations';
import AccountPage from './AccountPage';
import { accountPlugin } from './index';
import { accountSectionsApiRef } from './sections';

/** A plugin adding two sections to /account, one of them for members who may view billing. */
const extraPlugin = createPlugin({
  id: 'extra',
  onInit(get) {
    const sections = get(accountSectionsApiRef);
    sections.register({ id: 'second', order: 2, component: () => <section aria-label="Second section" /> });
    sections.register({ id: 'billing-like', order: 1, area: 'billing', component: () => <section aria-label="Billing-like section" /> });
  },
});

function renderAccount(permissions: Record<string, boolean>) {
  return renderPluginPage(<AccountPage />, { translations: [pageTranslations],
    path: '/account',
    http: createFakeHttp(() => undefined),
    user: testUser([membership(1, permissions, { name: 'Demo Company' })]),
    companyId: 1,
    plugins: [accountPlugin, extraPlugin],
    features: ['your_account'],
  });
}

describe('account sections (extension point)', () => {
  it("shows the sections other plugins register, in their order, after the account's own", () => {
    renderAccount({ can_view_billing: true });
    const names = screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'));
    expect(names.slice(-2)).toEqual(['Billing-like section', 'Second section']);
  });

  it("leaves out a section whose area the member may not view", () => {
    renderAccount({ can_view_billing: false });
    expect(screen.queryByRole('region', { name: 'Billing-like section' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Second section' })).toBeInTheDocument();
  });
});
