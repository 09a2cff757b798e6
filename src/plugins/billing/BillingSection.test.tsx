// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError, type HttpProvider, type RequestOptions } from '../../core';
import { membership, testUser } from '../../core/account/testUsers';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { phoneScreen } from '../../core/testing/phoneScreen';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { pageTranslations } from '../../app/pages/translations';
import { accountPlugin } from '../account';
import { billingPlugin } from './index';
import { billingStoreApiRef, browserLocation } from './store';
import type { Invoice, Subscription } from '../../../contract/billing';
import { activeSubscription, freeSubscription, invoice } from './testing/fixtures';

const ADMIN = { can_view_billing: true, can_manage_billing: true };

/** The account page as the account plugin routes it (lazy, like its billing section). */
const AccountPage = accountPlugin.routes!.find((route) => route.path === '/account')!.component;

/** The account page, once rendered (the page and its billing section are lazy chunks: the page suspends until they are there). */
async function renderAccount(http: HttpProvider, options: { path?: string; permissions?: Record<string, boolean> } = {}) {
  const permissions = options.permissions ?? ADMIN;
  const view = renderPluginPage(<AccountPage />, { translations: [pageTranslations],
    path: options.path ?? '/account',
    http,
    user: testUser([membership(1, permissions, { name: 'Demo Company' }), membership(2, permissions, { name: 'Other Co' })]),
    companyId: 1,
    plugins: [accountPlugin, billingPlugin],
    features: ['your_account'],
  });
  await screen.findByRole('heading', { level: 1 });
  return view;
}

/** A server holding one subscription and its invoices. */
function billingServer(state: { subscription: Subscription; invoices: Invoice[] }, extra?: (method: string, path: string, options: RequestOptions) => unknown) {
  return createFakeHttp((method, path, options) => {
    const answer = extra?.(method, path, options);
    if (answer !== undefined) return answer;
    if (method === 'GET' && path === '/api/subscriptions/active/') return state.subscription;
    if (method === 'GET' && path === '/api/invoices/') {
      const page = Number(options.query?.page ?? 1);
      const size = Number(options.query?.page_size ?? 10);
      return { count: state.invoices.length, next: null, previous: null, results: state.invoices.slice((page - 1) * size, page * size) };
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
}

const section = () => screen.getByRole('region', { name: 'Billing' });

describe('billing section of /account', () => {
  let assign: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    localStorage.clear();
    assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
  });
  afterEach(() => assign.mockRestore());

  it('shows the Free plan, its usage, a link to the plans and the empty view for invoices', async () => {
    const http = billingServer({ subscription: freeSubscription(), invoices: [] });
    await renderAccount(http);
    expect(await within(section()).findByTestId('billing-plan-name')).toHaveTextContent('Free');
    expect(within(section()).getByText(/Your company is on the Free plan/)).toBeInTheDocument();
    expect(within(section()).getByText('2 of 3')).toBeInTheDocument();
    expect(within(section()).getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/pricing');
    expect(await within(section()).findByText('Nothing Found.')).toBeInTheDocument();
    expect(within(section()).queryByRole('button', { name: 'Cancel subscription' })).toBeNull();
  });

  it("passes the page's query string to the active subscription call and lists the invoices with their PDF", async () => {
    const http = billingServer({ subscription: activeSubscription(), invoices: [invoice(1)] });
    await renderAccount(http, { path: '/account?checkout=success&session_id=cs_test_42' });
    expect(await within(section()).findByText('Thank you! Your Starter plan is active.')).toBeInTheDocument();
    expect(http.calls.find((c) => c.path === '/api/subscriptions/active/')?.options.query).toEqual({ checkout: 'success', session_id: 'cs_test_42' });
    expect(within(section()).getByText('Renews on Dec 24, 2026')).toBeInTheDocument();
    expect(within(section()).getByText('Visa ending in 4242, expires 04/2030')).toBeInTheDocument();
    const row = await within(section()).findByTestId('invoice-row');
    expect(row).toHaveTextContent('ABCD1234-0001');
    expect(row).toHaveTextContent('$29.00');
    expect(within(row).getByText('Paid')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Download invoice ABCD1234-0001 as PDF' })).toHaveAttribute('href', 'https://billing.example.test/invoices/1.pdf');
    expect(within(row).getByRole('link', { name: 'View invoice ABCD1234-0001 online' })).toHaveAttribute('target', '_blank');
  });

  it("cancels after confirmation: 'Subscription cancelled successfully', reloads the subscription and goes to account", async () => {
    const state = { subscription: activeSubscription(), invoices: [invoice(1)] };
    const http = billingServer(state, (method, path) => {
      if (method === 'DELETE' && path === '/api/subscriptions/active/') {
        state.subscription = activeSubscription({ cancel_at_period_end: true, canceled_at: '2026-11-25T00:00:00Z' });
        return state.subscription;
      }
      return undefined;
    });
    const { alertText } = await renderAccount(http, { path: '/account?checkout=success&session_id=cs_test_42' });
    await userEvent.click(await within(section()).findByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel the subscription?' });
    expect(dialog).toHaveTextContent('Your company keeps the Starter plan until Dec 24, 2026, then returns to the Free plan.');
    const loadsBefore = http.calls.filter((c) => c.method === 'GET' && c.path === '/api/subscriptions/active/').length;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));
    await waitFor(() => expect(alertText()).toBe('Subscription cancelled successfully'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/account$/));
    expect(http.calls.filter((c) => c.method === 'GET' && c.path === '/api/subscriptions/active/').length).toBeGreaterThan(loadsBefore);
    // The section is queried again each time: while the dialog closes, the page behind it is aria-hidden.
    await waitFor(() => expect(within(section()).getByText('Ends on Dec 24, 2026')).toBeInTheDocument());
    expect(within(section()).getByRole('button', { name: 'Resume subscription' })).toBeInTheDocument();
  });

  it('resumes a cancelled subscription', async () => {
    const state = { subscription: activeSubscription({ cancel_at_period_end: true }), invoices: [] };
    const http = billingServer(state, (method, path) => (method === 'POST' && path === '/api/subscriptions/active/resume/' ? activeSubscription() : undefined));
    const { alertText } = await renderAccount(http);
    await userEvent.click(await within(section()).findByRole('button', { name: 'Resume subscription' }));
    await waitFor(() => expect(alertText()).toBe('Subscription resumed'));
    expect(await within(section()).findByRole('button', { name: 'Cancel subscription' })).toBeInTheDocument();
  });

  it("opens the provider's portal to manage the card", async () => {
    const http = billingServer({ subscription: activeSubscription({ payment_failed: true, status: 'past_due' }), invoices: [] }, (method, path) =>
      method === 'POST' && path === '/api/subscriptions/portal/' ? { url: 'http://localhost/dev/stripe/portal/bps_1' } : undefined,
    );
    await renderAccount(http);
    expect(await within(section()).findByText('The last payment failed. Update your payment method to keep your plan.')).toBeInTheDocument();
    await userEvent.click(within(section()).getByRole('button', { name: 'Manage payment method' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost/dev/stripe/portal/bps_1'));
  });

  it("asks again while the checkout waits for the provider's confirmation", async () => {
    const state = { subscription: freeSubscription({ checkout_pending: true }), invoices: [] as Invoice[] };
    const http = billingServer(state);
    await renderAccount(http, { path: '/account?checkout=success&session_id=cs_test_7' });
    expect(await within(section()).findByText('Waiting for the payment confirmation…')).toBeInTheDocument();
    state.subscription = activeSubscription();
    state.invoices = [invoice(3)];
    expect(await within(section()).findByText('Thank you! Your Starter plan is active.', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(await within(section()).findByTestId('invoice-row')).toHaveTextContent('ABCD1234-0003');
  });

  it('pages the invoices', async () => {
    const invoices = Array.from({ length: 12 }, (_, i) => invoice(i + 1));
    const http = billingServer({ subscription: activeSubscription(), invoices });
    await renderAccount(http);
    await waitFor(() => expect(within(section()).getAllByTestId('invoice-row')).toHaveLength(10));
    await userEvent.click(within(section()).getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(within(section()).getAllByTestId('invoice-row')).toHaveLength(2));
    expect(http.calls.filter((c) => c.path === '/api/invoices/').at(-1)?.options.query).toEqual({ page: 2, page_size: 10 });
  });

  it('shows read-only billing without manage access and nothing without view access', async () => {
    const http = billingServer({ subscription: activeSubscription(), invoices: [] });
    const first = await renderAccount(http, { permissions: { can_view_billing: true, can_manage_billing: false } });
    expect(await within(section()).findByText('Only members who manage billing can change the subscription.')).toBeInTheDocument();
    expect(within(section()).queryByRole('button', { name: 'Cancel subscription' })).toBeNull();
    first.unmount();
    await renderAccount(http, { permissions: { can_view_billing: false } });
    expect(screen.getByRole('region', { name: 'Profile' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Billing' })).toBeNull();
  });

  it('resets the billing state when another company is selected and loads that one', async () => {
    let company = 1;
    const http = createFakeHttp((method, path) => {
      if (path === '/api/subscriptions/active/') return company === 1 ? activeSubscription() : freeSubscription();
      if (path === '/api/invoices/') return { count: company === 1 ? 1 : 0, next: null, previous: null, results: company === 1 ? [invoice(1)] : [] };
      throw new Error(`unexpected ${method} ${path}`);
    });
    const { account, console: app } = await renderAccount(http);
    await within(section()).findByTestId('invoice-row');
    company = 2;
    act(() => account.selectCompany(2));
    const store = app.get(billingStoreApiRef);
    expect(store.getState().invoices.data).toBeNull();
    expect(await within(section()).findByText(/Your company is on the Free plan/)).toBeInTheDocument();
    expect(await within(section()).findByText('Nothing Found.')).toBeInTheDocument();
  });

  it('shows an error with a retry when the subscription cannot be loaded', async () => {
    let fail = true;
    const http = billingServer({ subscription: freeSubscription(), invoices: [] }, (method, path) => {
      if (fail && path === '/api/subscriptions/active/') throw new HttpError(503, { detail: 'Billing is not configured.' });
      return undefined;
    });
    await renderAccount(http);
    expect(await within(section()).findByText('The subscription could not be loaded: Billing is not configured.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(within(section()).getByRole('button', { name: 'Try again' }));
    expect(await within(section()).findByTestId('billing-plan-name')).toHaveTextContent('Free');
  });
});

describe('the invoices on a phone', () => {
  it('show each invoice in one cell beside its documents: number and status, then amount, date and plan', async () => {
    const restore = phoneScreen();
    try {
      await renderAccount(billingServer({ subscription: activeSubscription(), invoices: [invoice(1)] }));
      const row = await within(section()).findByTestId('invoice-row');
      const [cell] = within(row).getAllByRole('cell');
      expect(cell).toHaveTextContent('ABCD1234-0001');
      expect(within(cell).getByText('Paid')).toBeInTheDocument();
      expect(cell).toHaveTextContent('Amount $29.00 · Date');
      expect(within(row).getAllByRole('cell')).toHaveLength(2);
      expect(within(row).getByRole('link', { name: 'Download invoice ABCD1234-0001 as PDF' })).toBeInTheDocument();
    } finally {
      restore();
    }
  });
});
