// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError } from '../../../core';
import { membership, testUser } from '../../../core/account/testUsers';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { pageTranslations } from '../translations';
import { CompanyCreatePage } from './CompanyCreatePage';

describe('CompanyCreatePage', () => {
  beforeEach(() => localStorage.clear());

  it('creates the company with its logo, reloads the user and opens the new company', async () => {
    const created = membership(9, {}, { name: 'Hopper Logistics' });
    const http = createFakeHttp((method, path) => {
      if (method === 'POST' && path === '/api/companies/') return { id: 9, name: 'Hopper Logistics', logo: null };
      if (path === '/account/user/') return testUser([membership(1), created]);
      throw new Error(`${method} ${path}`);
    });
    const { account } = renderPluginPage(<CompanyCreatePage />, { translations: [pageTranslations], path: '/company/create', http, user: testUser([membership(1)]), companyId: 1 });

    await userEvent.type(screen.getByRole('textbox', { name: 'Company name' }), 'Hopper Logistics');
    const logo = new File([new Uint8Array([137, 80, 78, 71])], 'logo.png', { type: 'image/png' });
    await userEvent.upload(screen.getByLabelText('Company logo'), logo);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Remove logo' })).toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Create Company' }));

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(account.getCompanyId()).toBe(9);
    expect(account.getCompany()?.name).toBe('Hopper Logistics');
    const body = http.calls[0].options.body as { name: string; logo: string };
    expect(body.name).toBe('Hopper Logistics');
    expect(body.logo).toMatch(/^data:image\/png;base64,/);
  });

  it('refuses a logo over 100 KB', async () => {
    renderPluginPage(<CompanyCreatePage />, { translations: [pageTranslations], path: '/company/create', http: createFakeHttp(() => undefined), user: testUser([]) });
    const big = new File([new Uint8Array(100 * 1024 + 1)], 'big.png', { type: 'image/png' });
    await userEvent.upload(screen.getByLabelText('Company logo'), big);
    expect(await screen.findByText('The logo must be 100 KB or smaller.')).toBeInTheDocument();
  });

  it('shows the first message of the first field on failure', async () => {
    const http = createFakeHttp(() => {
      throw new HttpError(400, { name: ['Ensure this field has no more than 100 characters.'] });
    });
    renderPluginPage(<CompanyCreatePage />, { translations: [pageTranslations], path: '/company/create', http, user: testUser([]) });
    await userEvent.type(screen.getByRole('textbox', { name: 'Company name' }), 'Acme');
    await userEvent.click(screen.getByRole('button', { name: 'Create Company' }));
    expect(await screen.findByText('Ensure this field has no more than 100 characters.')).toBeInTheDocument();
  });
});
