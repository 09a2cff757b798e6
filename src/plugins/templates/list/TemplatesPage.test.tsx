// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError, type RequestOptions } from '../../../core';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { phoneScreen } from '../../../core/testing/phoneScreen';
import type { WhatsAppTemplate } from '../../../../contract/templates';
import { channel, renderTemplatesPage, template } from '../testing/renderTemplatesPage';
import TemplatesPage from './TemplatesPage';

type Extra = (method: string, path: string, options: RequestOptions) => unknown;

function fakeApi(options: { templates?: WhatsAppTemplate[]; limits?: Record<string, number | null>; extra?: Extra } = {}) {
  let list = options.templates ?? [
    template(1, 'welcome_offer'),
    template(2, 'order_update', { category: 'UTILITY', status: 'PENDING' }),
    template(3, 'promo_reject', { status: 'REJECTED', rejected_reason: 'INVALID_FORMAT' }),
  ];
  const http = createFakeHttp((method, path, req) => {
    const answer = options.extra?.(method, path, req);
    if (answer !== undefined) return answer;
    if (method === 'GET' && path === '/api/channels/') return { count: 2, results: [channel(3, 'whatsapp', 'Shop'), channel(4, 'messenger', 'Shop page')] };
    if (method === 'GET' && path === '/api/channels/3/templates/') {
      const search = String(req.query?.search ?? '');
      const status = req.query?.status;
      const results = list.filter((t) => (!search || t.name.includes(search)) && (!status || t.status === status));
      return { count: results.length, next: null, previous: null, results, limits: options.limits ?? { creations_last_hour: 5, creations_per_hour: 100, templates: list.length, templates_max: 250 } };
    }
    if (method === 'DELETE' && path.startsWith('/api/channels/3/templates/')) {
      const id = Number(path.split('/')[5]);
      list = list.filter((t) => t.id !== id);
      return { detail: 'Successfully deleted template.' };
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
  return http;
}

function renderList(http = fakeApi(), path = '/templates', canManage = true) {
  return renderTemplatesPage(<TemplatesPage />, { path, route: '/templates', http, canManage });
}

/** How many times the list was read from the API. */
const listReads = (http: ReturnType<typeof fakeApi>) => http.calls.filter((c) => c.method === 'GET' && c.path === '/api/channels/3/templates/').length;

const row = (name: string) => screen.getByText(name, { selector: '[data-testid="template-name"]' }).closest('tr')!;

describe('TemplatesPage', () => {
  beforeEach(() => localStorage.clear());

  it('lists the first WhatsApp number’s templates with category, language, status (and a rejection’s reason), quality and channel', async () => {
    const http = fakeApi();
    renderList(http);
    expect(await screen.findByText('welcome_offer')).toBeInTheDocument();
    expect(screen.queryByTestId('templates-read-only')).not.toBeInTheDocument();
    expect(within(row('welcome_offer')).getByText('Approved')).toBeInTheDocument();
    expect(within(row('welcome_offer')).getByText('Marketing')).toBeInTheDocument();
    expect(within(row('welcome_offer')).getByText('en_US')).toBeInTheDocument();
    expect(within(row('welcome_offer')).getByText('Shop (+1 555 0100)')).toBeInTheDocument();
    expect(within(row('welcome_offer')).getByLabelText('Quality: Quality pending')).toBeInTheDocument();
    expect(within(row('order_update')).getByText('Pending')).toBeInTheDocument();
    expect(within(row('promo_reject')).getByText('Rejected')).toBeInTheDocument();
    expect(within(row('promo_reject')).getByTestId('template-reason')).toHaveTextContent('Reason: Invalid format');
    expect(screen.getByTestId('template-limits')).toHaveTextContent('5 of 100 template creations in the last hour · 3 of 250 templates in this WhatsApp account');
    expect(http.calls.find((c) => c.path === '/api/channels/3/templates/')?.options.query).toMatchObject({ page: 1, page_size: 25 });
  });

  it('searches and filters by status through the API', async () => {
    const http = fakeApi();
    renderList(http);
    await screen.findByText('welcome_offer');
    await userEvent.type(screen.getByPlaceholderText('Search by name'), 'order');
    await waitFor(() => expect(screen.queryByText('welcome_offer')).not.toBeInTheDocument());
    expect(screen.getByText('order_update')).toBeInTheDocument();
    expect(http.calls.at(-1)!.options.query).toMatchObject({ search: 'order' });
  });

  it('a status change from Meta updates the row live, without asking the API again', async () => {
    const http = fakeApi();
    const { socket } = renderList(http);
    await screen.findByText('order_update');
    await waitFor(() => expect(socket.find('page:3')?.state).toBe('joined'));
    const calls = http.calls.length;
    act(() => socket.emit('page:3', 'template_status', template(2, 'order_update', { category: 'UTILITY', status: 'APPROVED' })));
    await waitFor(() => expect(within(row('order_update')).getByText('Approved')).toBeInTheDocument());
    act(() => socket.emit('page:3', 'template_status', template(1, 'welcome_offer', { status: 'PAUSED', rejected_reason: 'LOW_QUALITY' })));
    await waitFor(() => expect(within(row('welcome_offer')).getByText('Paused')).toBeInTheDocument());
    expect(within(row('welcome_offer')).getByTestId('template-reason')).toHaveTextContent('Reason: low quality');
    act(() => socket.emit('page:3', 'template_status', template(3, 'promo_reject', { status: 'DELETED' })));
    await waitFor(() => expect(screen.queryByText('promo_reject')).not.toBeInTheDocument());
    expect(http.calls.length).toBe(calls);
  });

  it('a change made while the live topic was away (before its join, or the socket down) is read when it is joined again', async () => {
    let approved = false;
    const http = fakeApi({
      extra: (method, path) =>
        method === 'GET' && path === '/api/channels/3/templates/' && approved
          ? { count: 1, next: null, previous: null, results: [template(2, 'order_update', { category: 'UTILITY', status: 'APPROVED' })], limits: { creations_last_hour: 5, creations_per_hour: 100, templates: 1, templates_max: 250 } }
          : undefined,
    });
    const { socket } = renderList(http);
    await screen.findByText('order_update');
    await waitFor(() => expect(socket.find('page:3')?.state).toBe('joined'));
    const reads = listReads(http);
    act(() => socket.drop());
    // Meta approves while the socket is down: the server's event reaches nobody.
    approved = true;
    act(() => socket.emit('page:3', 'template_status', template(2, 'order_update', { category: 'UTILITY', status: 'APPROVED' })));
    expect(within(row('order_update')).getByText('Pending')).toBeInTheDocument();
    act(() => socket.open());
    await waitFor(() => expect(within(row('order_update')).getByText('Approved')).toBeInTheDocument());
    expect(listReads(http)).toBe(reads + 1);
  });

  it('a change that arrives while the list is being read again is not undone by that read', async () => {
    // The read after a join is under way, answered by the server before Meta's approval; the approval's event comes
    // before that answer. The row must end Approved (it went back to Pending for good).
    let approved = false;
    let holdNext = false;
    let release: () => void = () => undefined;
    const approvedList = { count: 1, next: null, previous: null, results: [template(2, 'order_update', { category: 'UTILITY', status: 'APPROVED' })], limits: { creations_last_hour: 5, creations_per_hour: 100, templates: 1, templates_max: 250 } };
    const pendingList = { ...approvedList, results: [template(2, 'order_update', { category: 'UTILITY', status: 'PENDING' })] };
    const http = fakeApi({
      extra: (method, path) => {
        if (method !== 'GET' || path !== '/api/channels/3/templates/') return undefined;
        if (holdNext) {
          holdNext = false;
          // Answered with the list as it was when the read started, but only once released.
          return new Promise((resolve) => (release = () => resolve(pendingList)));
        }
        return approved ? approvedList : pendingList;
      },
    });
    const { socket } = renderList(http);
    await screen.findByText('order_update');
    await waitFor(() => expect(socket.find('page:3')?.state).toBe('joined'));
    const reads = listReads(http);
    holdNext = true;
    act(() => socket.drop());
    act(() => socket.open());
    await waitFor(() => expect(listReads(http)).toBe(reads + 1));
    approved = true;
    act(() => socket.emit('page:3', 'template_status', template(2, 'order_update', { category: 'UTILITY', status: 'APPROVED' })));
    await act(async () => release());
    await waitFor(() => expect(within(row('order_update')).getByText('Approved')).toBeInTheDocument());
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(within(row('order_update')).getByText('Approved')).toBeInTheDocument();
  });

  it('deletes a template after confirmation (spec strings), and says so when Meta refuses', async () => {
    let refuse = false;
    const http = fakeApi({ extra: (method) => (method === 'DELETE' && refuse ? Promise.reject(new HttpError(400, { detail: 'nope' })) : undefined) });
    const { alertText } = renderList(http);
    await screen.findByText('promo_reject');
    refuse = true;
    await userEvent.click(within(row('promo_reject')).getByRole('button', { name: 'Delete promo_reject' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete template' });
    expect(dialog).toHaveTextContent('Delete the template promo_reject (en_US)?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(alertText()).toBe('Error while deleting template.'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    refuse = false;
    await userEvent.click(within(row('promo_reject')).getByRole('button', { name: 'Delete promo_reject' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete template' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(alertText()).toBe('Successfully deleted template.'));
    await waitFor(() => expect(screen.queryByText('promo_reject')).not.toBeInTheDocument());
    expect(http.calls.some((c) => c.method === 'DELETE' && c.path === '/api/channels/3/templates/3/')).toBe(true);
  });

  it('"duplicate as new" opens the editor prefilled from the template', async () => {
    renderList(fakeApi({ templates: [template(1, 'order_shipped', { category: 'UTILITY', components: [{ type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::x'] } }, { type: 'BODY', text: 'x' }] })] }));
    await screen.findByText('order_shipped');
    await userEvent.click(screen.getByRole('button', { name: 'Duplicate order_shipped as new' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/templates/create-whatsapp-template/utility/media?channel=3&duplicate=1'));
  });

  it('warns before Meta’s limits are hit and blocks duplicates once the hourly limit is reached', async () => {
    renderList(fakeApi({ limits: { creations_last_hour: 100, creations_per_hour: 100, templates: 244, templates_max: 250 } }));
    await screen.findByText('welcome_offer');
    expect(screen.getByText('Meta allows 100 template creations per WhatsApp account per hour. Try again later.')).toBeInTheDocument();
    expect(screen.getByText('Only 6 more templates fit in this account: Meta allows 250 for an unverified business.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Duplicate welcome_offer as new' })).toBeDisabled();
  });

  it('a Messenger page says it has no template API instead of failing; members who only view get no actions', async () => {
    const http = fakeApi();
    renderList(http, '/templates?channel=4', false);
    expect(await screen.findByTestId('templates-not-supported')).toHaveTextContent('Messenger has no message template API');
    expect(http.calls.some((c) => c.path.startsWith('/api/channels/4/templates'))).toBe(false);
    expect(screen.queryByRole('link', { name: 'New template' })).not.toBeInTheDocument();
    expect(screen.getByTestId('templates-read-only')).toHaveTextContent('Only members who can manage WhatsApp templates (admins and managers by default) can create, change and delete them.');
  });

  it('a member who only views reads the list without an actions column', async () => {
    renderList(fakeApi(), '/templates', false);
    expect(await screen.findByText('welcome_offer')).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Status' })).toBeInTheDocument();
  });

  it('with no channel, the empty view and a way to connect one', async () => {
    renderList(fakeApi({ extra: (method, path) => (method === 'GET' && path === '/api/channels/' ? { count: 0, results: [] } : undefined) }));
    const empty = await screen.findByTestId('empty-view');
    expect(empty).toHaveTextContent('Nothing Found.');
    expect(empty).toHaveTextContent("There's no data at the moment, please check back in later.");
    expect(screen.getByRole('link', { name: 'Go to channels' })).toHaveAttribute('href', '/channels');
  });

  it('a channel without templates shows the empty view', async () => {
    renderList(fakeApi({ templates: [] }));
    expect(await screen.findByTestId('empty-view')).toBeInTheDocument();
  });
});

describe('TemplatesPage on a phone', () => {
  beforeEach(() => localStorage.clear());

  it('shows each template in one cell: name, status and quality, then category, language and last change', async () => {
    const restore = phoneScreen();
    try {
      renderList();
      expect(await screen.findByText('welcome_offer')).toBeInTheDocument();
      const cell = row('promo_reject').querySelector('td')!;
      expect(within(cell).getByText('Rejected')).toBeInTheDocument();
      expect(within(cell).getByTestId('template-reason')).toHaveTextContent('Reason: Invalid format');
      expect(cell.textContent).toContain('Category Marketing · Language en_US · Last update');
      expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Actions']);
    } finally {
      restore();
    }
  });
});
