// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { HttpError } from '../../../core/http/HttpError';
import { channel, renderTemplatesPage, template } from '../testing/renderTemplatesPage';
import TemplateDetailPage, { rate } from './TemplateDetailPage';

const CAROUSEL = template(5, 'new_arrivals', {
  components: [
    { type: 'BODY', text: 'New arrivals picked for you, {{1}}.', example: { body_text: [['Maria']] } },
    {
      type: 'CAROUSEL',
      cards: ['The linen shirt', 'The canvas tote'].map((text) => ({
        components: [
          { type: 'HEADER' as const, format: 'IMAGE' as const, example: { header_handle: ['4::x'] } },
          { type: 'BODY' as const, text },
          { type: 'BUTTONS' as const, buttons: [{ type: 'QUICK_REPLY' as const, text: 'I want it' }, { type: 'URL' as const, text: 'See more', url: 'https://example.com/shop' }] },
        ],
      })),
    },
  ],
});

function fakeApi(stats: unknown = { sent: 10, delivered: 8, read: 5, replied: 2, failed: 1 }) {
  return createFakeHttp((method, path) => {
    if (method === 'GET' && path === '/api/channels/') return { count: 1, results: [channel(3, 'whatsapp', 'Shop')] };
    if (method === 'GET' && path === '/api/channels/3/templates/') return { count: 1, results: [CAROUSEL] };
    if (method === 'GET' && path === '/api/channels/3/templates/5/history/') return { results: [{ status: 'PENDING', reason: null, at: '2026-01-01T10:00:00Z' }, { status: 'APPROVED', reason: null, at: '2026-01-01T10:00:02Z' }] };
    if (method === 'GET' && path === '/api/pages/3/templates/5/stats') return stats;
    throw new Error(`unexpected ${method} ${path}`);
  });
}

function renderDetail(path = '/templates/3/5', http = fakeApi()) {
  return renderTemplatesPage(<TemplateDetailPage />, { path, route: '/templates/:channelId/:templateId', http });
}

describe('TemplateDetailPage', () => {
  beforeEach(() => localStorage.clear());

  it('rates are shares of the sent messages', () => {
    expect(rate(8, 10)).toBe('80%');
    expect(rate(0, 0)).toBe('');
  });

  it('shows the components (carousel cards included), the status history (newest first) and the stats', async () => {
    renderDetail();
    expect(await screen.findByRole('heading', { level: 1, name: 'new_arrivals' })).toBeInTheDocument();
    expect(screen.getByText('Marketing · en_US · Shop (+1 555 0100)')).toBeInTheDocument();
    expect(screen.getAllByTestId('template-card')).toHaveLength(2);
    expect(screen.getAllByTestId('template-card')[1]).toHaveTextContent('The canvas tote');
    expect(screen.getAllByTestId('template-card')[0]).toHaveTextContent('I want it · Quick reply');
    const history = await screen.findByTestId('template-history');
    expect(within(history).getAllByRole('listitem').map((li) => li.textContent)).toEqual([expect.stringMatching(/^Approved/), expect.stringMatching(/^Pending/)]);
    const stats = await screen.findByTestId('template-stats');
    expect(within(stats).getByText('Sent').nextSibling).toHaveTextContent('10');
    expect(stats.querySelector('[data-stat="delivered"]')).toHaveTextContent('880%');
    expect(stats.querySelector('[data-stat="failed"]')).toHaveTextContent('110%');
    // Meta edits an approved template: the editor opens with it.
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/templates/create-whatsapp-carousel?channel=3&template=5'));
  });

  it('a status from Meta shows live, with the history reloaded', async () => {
    const { socket } = renderDetail();
    await screen.findByRole('heading', { level: 1, name: 'new_arrivals' });
    await waitFor(() => expect(socket.find('page:3')?.state).toBe('joined'));
    act(() => socket.emit('page:3', 'template_status', { ...CAROUSEL, status: 'PAUSED', rejected_reason: 'INCORRECT_CATEGORY' }));
    expect(await screen.findByText('Paused')).toBeInTheDocument();
    expect(screen.getByTestId('template-reason')).toHaveTextContent('Reason: Incorrect category');
  });

  it('an unknown template says so', async () => {
    renderDetail('/templates/3/99');
    expect(await screen.findByTestId('template-not-found')).toHaveTextContent('This template does not exist or was deleted.');
  });

  it('a channel that is not this company\'s (404) is an unknown template too; another failure says the templates did not load', async () => {
    const answering = (status: number) =>
      createFakeHttp((method, path) => {
        if (method === 'GET' && path === '/api/channels/') return { count: 1, results: [channel(3, 'whatsapp', 'Shop')] };
        if (path.startsWith('/api/channels/99/')) throw new HttpError(status, { detail: status === 404 ? 'Not found.' : 'Server error.' });
        return { count: 0, results: [] };
      });
    const first = renderDetail('/templates/99/5', answering(404));
    expect(await screen.findByTestId('template-not-found')).toHaveTextContent('This template does not exist or was deleted.');
    first.unmount();
    renderDetail('/templates/99/5', answering(500));
    expect(await screen.findByTestId('template-not-found')).toHaveTextContent('Could not load the templates.');
  });
});
