// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { membership, testUser } from '../../../core/account/testUsers';
import { renderPage } from '../testing/renderPage';
import { CompanySelectPage } from './CompanySelectPage';

const demo = membership(1, {}, { name: 'Demo Company', role: { id: 'admin', name: 'Admin' }, subscription_plan_name: 'Pro' });
const northwind = membership(2, {}, { name: 'Northwind Shop', role: { id: 'agent', name: 'Agent' }, subscription_plan_name: null });

describe('CompanySelectPage', () => {
  beforeEach(() => localStorage.clear());

  it('counts the results, shows role and plan ("Free plan" by default) and filters case-insensitively', async () => {
    renderPage(<CompanySelectPage />, { path: '/company/select', user: testUser([demo, northwind]), companyId: null });

    expect(screen.getByText('2 results')).toBeInTheDocument();
    const options = screen.getAllByRole('option');
    expect(options).toHaveLength(2);
    expect(within(options[0]).getByText('Demo Company')).toBeInTheDocument();
    expect(within(options[0]).getByText('Pro')).toBeInTheDocument();
    expect(within(options[1]).getByText('Agent')).toBeInTheDocument();
    expect(within(options[1]).getByText('Free plan')).toBeInTheDocument();

    const search = screen.getByRole('searchbox', { name: 'Search companies' });
    await userEvent.type(search, 'NORTH');
    expect(screen.getByText('1 result')).toBeInTheDocument();
    expect(screen.getAllByRole('option')).toHaveLength(1);
    expect(screen.getByRole('option', { name: /Northwind Shop/ })).toBeInTheDocument();

    await userEvent.clear(search);
    await userEvent.type(search, 'acme');
    expect(screen.getByText('0 results')).toBeInTheDocument();
    expect(screen.getByText('No companies found.')).toBeInTheDocument();
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
  });

  it('shows "1 result" and the empty state for a user without companies', () => {
    const { unmount } = renderPage(<CompanySelectPage />, { path: '/company/select', user: testUser([demo]), companyId: null });
    expect(screen.getByText('1 result')).toBeInTheDocument();
    unmount();
    renderPage(<CompanySelectPage />, { path: '/company/select', user: testUser([]), companyId: null });
    expect(screen.getByText('No companies found.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create Company' })).toHaveAttribute('href', '/company/create');
  });

  it('selects the chosen company and opens the dashboard', async () => {
    const { account } = renderPage(<CompanySelectPage />, { path: '/company/select', user: testUser([demo, northwind]), companyId: null });
    await userEvent.click(screen.getByRole('option', { name: /Northwind Shop/ }));
    expect(account.getCompanyId()).toBe(2);
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard');
  });
});
