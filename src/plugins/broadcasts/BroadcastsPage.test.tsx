// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { phoneScreen } from '../../core/testing/phoneScreen';
import BroadcastsPage from './BroadcastsPage';
import { broadcast, templates, WA_CHANNEL } from './testing/fixtures';
import { renderBroadcasts } from './testing/renderBroadcasts';

afterEach(cleanup);

function api(list: ReturnType<typeof broadcast>[]) {
  return createFakeHttp((method, path) => {
    if (method === 'GET' && path === '/api/broadcasts/') return { count: list.length, results: list };
    if (method === 'GET' && path === '/api/channels/') return { count: 1, results: [WA_CHANNEL] };
    if (method === 'GET' && path === '/api/channels/5/templates/') return { count: 2, results: templates() };
    if (method === 'DELETE') {
      list.splice(0, list.length);
      return { detail: 'Successfully deleted broadcast.' };
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
}

const counter = (row: HTMLElement, name: string) => within(row).getByTestId(`counter-${name}`).textContent;

describe('/broadcast', () => {
  it('shows the spec’s empty view when there are no broadcasts', async () => {
    renderBroadcasts(<BroadcastsPage />, { path: '/broadcast', http: api([]) });
    expect(await screen.findByText('Nothing Found.')).toBeTruthy();
    expect(screen.getByText("There's no data at the moment, please check back in later.")).toBeTruthy();
    expect(screen.queryByTestId('broadcasts-read-only')).toBeNull();
  });

  it('updates status, progress and counters from the socket without reloading', async () => {
    const http = api([broadcast()]);
    const { socket } = renderBroadcasts(<BroadcastsPage />, { path: '/broadcast', http });
    const row = (await screen.findByText('Spring sale')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Sending')).toBeTruthy();
    expect(counter(row, 'sent')).toBe('0');
    await waitFor(() => expect(socket.find('page:5')?.state).toBe('joined'));
    const listCalls = http.calls.filter((c) => c.path === '/api/broadcasts/').length;

    act(() =>
      socket.emit('page:5', 'broadcast_progress', {
        broadcast_id: 11,
        id: 11,
        page_id: 5,
        status: 'sending',
        status_reason: null,
        n_users: 4,
        stats: { sent: 3, delivered: 2, read: 1, replied: 1, failed: 1, queued: 0, unknown: 0, excluded: 0 },
        progress: 0.75,
      }),
    );
    await waitFor(() => expect(counter(row, 'sent')).toBe('3'));
    expect(counter(row, 'delivered')).toBe('2');
    expect(counter(row, 'read')).toBe('1');
    expect(counter(row, 'replied')).toBe('1');
    expect(counter(row, 'failed')).toBe('1');
    expect(within(row).getByRole('progressbar', { name: 'Sending progress of Spring sale' }).getAttribute('aria-valuenow')).toBe('75');

    act(() =>
      socket.emit('page:5', 'broadcast_update', {
        id: 11,
        page_id: 5,
        status: 'completed',
        status_reason: null,
        n_users: 4,
        stats: { sent: 3, delivered: 3, read: 2, replied: 1, failed: 1, queued: 0, unknown: 0, excluded: 0 },
        progress: 1,
      }),
    );
    await waitFor(() => expect(within(row).getByText('Completed')).toBeTruthy());
    expect(counter(row, 'read')).toBe('2');
    expect(within(row).queryByRole('progressbar')).toBeNull();
    expect(http.calls.filter((c) => c.path === '/api/broadcasts/').length).toBe(listCalls);
  });

  it('loads the broadcasts’ templates after the broadcasts (spec §9), then says which are no longer approved', async () => {
    const http = api([broadcast(), broadcast({ id: 12, name: 'Autumn sale', template_name: 'gone_template', status: 'completed' })]);
    renderBroadcasts(<BroadcastsPage />, { path: '/broadcast', http });
    await screen.findByText('Autumn sale');
    const templateCalls = () => http.calls.filter((c) => c.path === '/api/channels/5/templates/');
    expect(templateCalls()).toHaveLength(0);
    await waitFor(() => expect(templateCalls()).toHaveLength(1), { timeout: 5000 });
    const autumn = screen.getByText('Autumn sale').closest('tr') as HTMLElement;
    expect(await within(autumn).findByText('No longer approved')).toBeTruthy();
    const spring = screen.getByText('Spring sale').closest('tr') as HTMLElement;
    expect(within(spring).getByText('Marketing')).toBeTruthy();
  });

  it('shows "replied" only with broadcast_engagement', async () => {
    renderBroadcasts(<BroadcastsPage />, { path: '/broadcast', http: api([broadcast()]), features: ['triggers'] });
    const row = (await screen.findByText('Spring sale')).closest('tr') as HTMLElement;
    expect(within(row).queryByTestId('counter-replied')).toBeNull();
    expect(within(row).getByTestId('counter-read')).toBeTruthy();
  });

  it('deleting a running broadcast says it is cancelled first, then deletes it', async () => {
    const http = api([broadcast()]);
    const { alertText } = renderBroadcasts(<BroadcastsPage />, { path: '/broadcast', http });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Spring sale' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete broadcast' });
    expect(within(dialog).getByText(/it will be cancelled first/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel and delete' }));
    await waitFor(() => expect(alertText()).toBe('Successfully deleted broadcast.'));
    expect(http.calls.find((c) => c.method === 'DELETE')).toMatchObject({ path: '/api/broadcasts/11/', options: { body: { broadcast_id: 11 } } });
    expect(await screen.findByText('Nothing Found.')).toBeTruthy();
  });

  it('agents see the list without the new and delete actions', async () => {
    const agent = {
      id: 8,
      first_name: 'Alex',
      last_name: 'Agent',
      email: 'alex@example.test',
      companies: [{ id: 1, name: 'Demo Company', role: { id: 'agent', name: 'Agent' }, permissions: {} }],
    };
    renderBroadcasts(<BroadcastsPage />, { path: '/broadcast', http: api([broadcast()]), user: agent as never });
    await screen.findByText('Spring sale');
    expect(screen.queryByRole('link', { name: 'New broadcast' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Spring sale' })).toBeNull();
    expect(screen.getByTestId('broadcasts-read-only')).toHaveTextContent('Only admins and managers can create and send broadcasts.');
  });
});

describe('/broadcast on a phone', () => {
  it('stacks each broadcast in one cell beside its status, the counters wrapping, nothing in columns off the screen', async () => {
    const restore = phoneScreen();
    try {
      const http = api([broadcast()]);
      renderBroadcasts(<BroadcastsPage />, { path: '/broadcast', http });
      const cell = (await screen.findByRole('link', { name: 'Spring sale' })).closest('td')!;
      expect(within(cell).getByTestId('broadcast-channel')).toBeTruthy();
      expect(within(cell).getByTestId('counter-sent')).toBeTruthy();
      expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Status']);
      const row = cell.closest('tr')!;
      expect(within(row).getByRole('button', { name: 'Delete Spring sale' })).toBeTruthy();
    } finally {
      restore();
    }
  });
});
