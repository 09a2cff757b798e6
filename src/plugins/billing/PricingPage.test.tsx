// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError, i18nApiRef, type HttpProvider } from '../../core';
import { membership, testUser } from '../../core/account/testUsers';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { pageTranslations } from '../../app/pages/translations';
import PricingPage from './PricingPage';
import { billingPlugin } from './index';
import { browserLocation } from './store';
import { plans } from './testing/fixtures';

function renderPricing(http: HttpProvider, permissions: Record<string, boolean> = { can_manage_billing: true }) {
  return renderPluginPage(<PricingPage />, { translations: [pageTranslations],
    path: '/pricing',
    http,
    user: testUser([membership(1, permissions, { name: 'Demo Company' }), membership(2, permissions, { name: 'Other Co' })]),
    companyId: 1,
    plugins: [billingPlugin],
  });
}

const card = (code: string) => screen.getByTestId(`plan-${code}`);

describe('PricingPage', () => {
  let assign: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    localStorage.clear();
    assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
  });
  afterEach(() => assign.mockRestore());

  it('shows the monthly plans with the current one marked, and the yearly ones on demand', async () => {
    const http = createFakeHttp((method, path) => {
      if (method === 'GET' && path === '/api/plans/') return { count: 7, next: null, previous: null, results: plans(1) };
      throw new Error(`unexpected ${method} ${path}`);
    });
    renderPricing(http);
    expect(await screen.findByRole('heading', { level: 1, name: 'Plans and pricing' })).toBeInTheDocument();
    await screen.findByTestId('plan-free');
    expect(within(card('free')).getByText('Current plan', { selector: '.MuiChip-label' })).toBeInTheDocument();
    expect(within(card('free')).getByRole('button', { name: 'Current plan' })).toBeDisabled();
    expect(within(card('starter_month')).getByText('$29')).toBeInTheDocument();
    expect(within(card('starter_month')).getByText('/ month')).toBeInTheDocument();
    expect(within(card('business_month')).getAllByText('Unlimited')).toHaveLength(5);
    expect(within(card('free')).getByText('Assistant answers per month')).toBeInTheDocument();
    expect(screen.queryByTestId('plan-starter_year')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Yearly' }));
    expect(within(card('starter_year')).getByText('$290')).toBeInTheDocument();
    expect(within(card('starter_year')).getByText('/ year')).toBeInTheDocument();
    expect(screen.queryByTestId('plan-starter_month')).toBeNull();
    expect(screen.getByTestId('plan-free')).toBeInTheDocument();
  });

  it('subscribes: asks for a checkout with the plan id and sends the browser to it', async () => {
    const http = createFakeHttp((method, path) => {
      if (method === 'GET' && path === '/api/plans/') return { count: 7, next: null, previous: null, results: plans(1) };
      if (method === 'POST' && path === '/api/subscriptions/') return { checkout_url: 'http://localhost/dev/stripe/checkout/cs_test_1', session_id: 'cs_test_1' };
      throw new Error(`unexpected ${method} ${path}`);
    });
    renderPricing(http);
    await userEvent.click(await screen.findByRole('button', { name: 'Subscribe to Growth' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost/dev/stripe/checkout/cs_test_1'));
    expect(http.calls.find((c) => c.method === 'POST')).toMatchObject({ path: '/api/subscriptions/', options: { body: { plan_id: 4 } } });
    expect(screen.getByRole('button', { name: 'Opening the checkout…' })).toBeDisabled();
  });

  it("offers to switch plans while paying, and the Free plan through the account page", async () => {
    const http = createFakeHttp(() => ({ count: 7, next: null, previous: null, results: plans(2) }));
    renderPricing(http);
    await screen.findByTestId('plan-starter_month');
    expect(within(card('starter_month')).getByRole('button', { name: 'Current plan' })).toBeDisabled();
    expect(within(card('growth_month')).getByRole('button', { name: 'Switch to Growth' })).toBeEnabled();
    expect(within(card('free')).getByRole('link', { name: 'Go to your account' })).toHaveAttribute('href', '/account');
  });

  it('confirms a plan switch with its prorated price, then bills it with the preview\'s proration date', async () => {
    const preview = {
      plan_id: 4,
      currency: 'usd',
      amount_due: 3333,
      total: 3333,
      lines: [
        { description: 'Unused time on Starter after Nov 27, 2026', amount: -1933 },
        { description: 'Remaining time on Growth after Nov 27, 2026', amount: 5266 },
      ],
      proration_date: 1_795_000_000,
      next_amount: 7900,
      // Midday UTC: Dec 17 in every zone from UTC−11 to UTC+11 (the date is shown in the browser's zone).
      next_renewal_at: '2026-12-17T12:00:00.000Z',
    };
    const http = createFakeHttp((method, path) => {
      if (method === 'GET' && path === '/api/plans/') return { count: 7, next: null, previous: null, results: plans(2) };
      if (method === 'POST' && path === '/api/subscriptions/preview/') return preview;
      if (method === 'POST' && path === '/api/subscriptions/') return { checkout_url: 'http://localhost/account?plan_changed=1', session_id: null };
      throw new Error(`unexpected ${method} ${path}`);
    });
    renderPricing(http);
    await userEvent.click(await screen.findByRole('button', { name: 'Switch to Growth' }));
    const dialog = await screen.findByRole('dialog', { name: 'Switch from Starter to Growth' });
    expect(await within(dialog).findByTestId('plan-change-due')).toHaveTextContent('$33.33');
    expect(within(dialog).getAllByTestId('plan-change-line').map((row) => row.textContent)).toEqual(['Unused time on Starter-$19.33', 'Remaining time on Growth$52.66']);
    expect(within(dialog).getByTestId('plan-change-next')).toHaveTextContent('Then $79.00 / month from Dec 17, 2026.');
    // Nothing is changed before the confirmation.
    expect(http.calls.filter((c) => c.path === '/api/subscriptions/')).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Switch and pay $33.33' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost/account?plan_changed=1'));
    expect(http.calls.find((c) => c.path === '/api/subscriptions/')).toMatchObject({ method: 'POST', options: { body: { plan_id: 4, proration_date: 1_795_000_000 } } });
  });

  it('keeps the plan when the switch is not confirmed, and says why a preview failed', async () => {
    const http = createFakeHttp((method, path) => {
      if (method === 'GET' && path === '/api/plans/') return { count: 7, next: null, previous: null, results: plans(2) };
      if (method === 'POST' && path === '/api/subscriptions/preview/') throw new HttpError(400, { plan_id: ['There is no active subscription to change: subscribe to a plan first.'] });
      throw new Error(`unexpected ${method} ${path}`);
    });
    renderPricing(http);
    await userEvent.click(await screen.findByRole('button', { name: 'Switch to Growth' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText(/There is no active subscription to change/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Switch plan' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep my plan' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(http.calls.filter((c) => c.path === '/api/subscriptions/')).toHaveLength(0);
    expect(assign).not.toHaveBeenCalled();
  });

  it("shows the server's message when the checkout cannot start", async () => {
    const http = createFakeHttp((method) => {
      if (method === 'POST') throw new HttpError(400, { detail: 'Invalid plan.' });
      return { count: 7, next: null, previous: null, results: plans(1) };
    });
    const { alertText } = renderPricing(http);
    await userEvent.click(await screen.findByRole('button', { name: 'Subscribe to Starter' }));
    await waitFor(() => expect(alertText()).toBe('Invalid plan.'));
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Subscribe to Starter' })).toBeEnabled();
  });

  it('lets only members who manage billing subscribe', async () => {
    const http = createFakeHttp(() => ({ count: 7, next: null, previous: null, results: plans(1) }));
    renderPricing(http, { can_view_billing: true, can_manage_billing: false });
    expect(await screen.findByText('Only members who manage billing can change the plan.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Subscribe to Starter' })).toBeDisabled();
  });

  it('shows the empty view without plans and an error with a retry when they fail to load', async () => {
    let fail = true;
    const http = createFakeHttp(() => {
      if (fail) throw new HttpError(500, { detail: 'Server unavailable' });
      return { count: 0, next: null, previous: null, results: [] };
    });
    renderPricing(http);
    expect(await screen.findByText('The plans could not be loaded: Server unavailable')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Nothing Found.')).toBeInTheDocument();
  });

  it('reloads the plans of the newly selected company', async () => {
    let company = 1;
    const byCompany = createFakeHttp(() => ({ count: 7, next: null, previous: null, results: plans(company === 2 ? 4 : 1) }));
    const { account } = renderPricing(byCompany);
    await screen.findByTestId('plan-free');
    expect(within(card('free')).getByRole('button', { name: 'Current plan' })).toBeInTheDocument();
    company = 2;
    act(() => account.selectCompany(2));
    await waitFor(() => expect(within(card('growth_month')).getByRole('button', { name: 'Current plan' })).toBeInTheDocument());
    expect(byCompany.calls.filter((c) => c.path === '/api/plans/')).toHaveLength(2);
  });

  it('speaks French', async () => {
    const http = createFakeHttp(() => ({ count: 7, next: null, previous: null, results: plans(1) }));
    const { console: app } = renderPricing(http);
    await act(() => app.get(i18nApiRef).provider.changeLocale('fr'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Offres et tarifs' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: "S'abonner à Starter" })).toBeInTheDocument();
  });
});
