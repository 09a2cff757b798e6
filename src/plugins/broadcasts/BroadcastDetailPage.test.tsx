// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { BroadcastDetail, BroadcastRecipient } from '../../../contract/broadcasts';
import { EMPTY_STATS } from '../../../contract/broadcasts';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { phoneScreen } from '../../core/testing/phoneScreen';
import BroadcastDetailPage from './BroadcastDetailPage';
import { broadcast } from './testing/fixtures';
import { renderBroadcasts } from './testing/renderBroadcasts';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function detail(over: Partial<BroadcastDetail> = {}): BroadcastDetail {
  return {
    ...broadcast({ status: 'completed', n_users: 3, stats: { ...EMPTY_STATS, sent: 2, delivered: 2, read: 1, failed: 1 }, progress: 1 }),
    variables: { body: {} },
    header_media_url: null,
    audience: { type: 'csv', file_name: 'list.csv' },
    excluded: { opted_out: 0, blocked: 0, duplicate: 0, invalid_number: 0, over_limit: 0 },
    funnel: [],
    failures: [{ code: 131049, title: 'This message was not delivered to maintain healthy ecosystem engagement.', count: 1 }],
    ...over,
  };
}

function recipient(over: Partial<BroadcastRecipient>): BroadcastRecipient {
  return {
    id: 1,
    phone: '+33612345678',
    name: 'Jean',
    state: 'read',
    exclusion_reason: null,
    attempts: 1,
    wa_message_id: 'wamid.1',
    error_code: null,
    error_title: null,
    error_detail: null,
    row: 2,
    message: 'Bonjour Jean, -15 % à Lyon.',
    queued_at: '2026-11-20T10:00:00Z',
    sent_at: '2026-11-20T10:00:01Z',
    delivered_at: '2026-11-20T10:00:02Z',
    read_at: '2026-11-20T10:00:03Z',
    replied_at: null,
    failed_at: null,
    ...over,
  };
}

const RECIPIENTS = [
  recipient({ id: 1 }),
  recipient({ id: 2, phone: '+33699999999', name: 'Marie', state: 'failed', error_code: 131049, error_title: 'Healthy ecosystem', read_at: null, delivered_at: null }),
];

function api(state: { detail: BroadcastDetail }) {
  return createFakeHttp((method, path, options) => {
    if (method === 'GET' && path === '/api/broadcasts/11/') return state.detail;
    if (method === 'GET' && path === '/api/broadcasts/11/recipients/') {
      const status = options.query?.status;
      const results = status ? RECIPIENTS.filter((r) => r.state === status) : RECIPIENTS;
      return { count: results.length, results };
    }
    if (method === 'GET' && path === '/api/broadcasts/11/report/') {
      return { headers: ['phone', 'name', 'status', 'error'], data: [['+33612345678', 'Jean, "JJ"', 'read', null], ['+33699999999', '=cmd()', 'failed', 'Healthy ecosystem']] };
    }
    if (method === 'POST' && path === '/api/broadcasts/11/retry/') {
      state.detail = detail({ status: 'sending', stats: { ...EMPTY_STATS, sent: 2, delivered: 2, read: 1, queued: 1 }, progress: 0.66, failures: [] });
      return { detail: 'Failed recipients queued again.', broadcast: state.detail };
    }
    if (method === 'POST' && path === '/api/broadcasts/11/pause/') {
      state.detail = detail({ status: 'paused' });
      return { detail: 'Broadcast paused.', broadcast: state.detail };
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
}

const OPTS = { path: '/broadcast/11', route: '/broadcast/:id' };

describe('/broadcast/{id}', () => {
  it('explains failures in plain words (fr), filters recipients by status, shows the funnel', async () => {
    const http = api({ detail: detail() });
    renderBroadcasts(<BroadcastDetailPage />, { ...OPTS, http, locale: 'fr' });
    const rows = await screen.findAllByTestId('recipient-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[1]).getByText('Meta n’a pas distribué ce message marketing, pour éviter que le client en reçoive trop.')).toBeTruthy();
    // Who received what: each row holds the message it was sent.
    expect(screen.getByRole('columnheader', { name: 'Message' })).toBeTruthy();
    expect(within(rows[0]).getByTestId('recipient-message').textContent).toBe('Bonjour Jean, -15 % à Lyon.');
    expect(screen.getByTestId('funnel-recipients').textContent).toContain('3');
    expect(screen.getByTestId('funnel-read').textContent).toContain('1');
    expect(screen.getByTestId('funnel-replied')).toBeTruthy();

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Statut' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Échec' }));
    await waitFor(() => expect(screen.getAllByTestId('recipient-row')).toHaveLength(1));
    expect(http.calls.at(-1)).toMatchObject({ path: '/api/broadcasts/11/recipients/', options: { query: { status: 'failed', page: 1 } } });
  });

  it('downloads the report as CSV written by papaparse (quotes, formula cells neutralised)', async () => {
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:report';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderBroadcasts(<BroadcastDetailPage />, { ...OPTS, http: api({ detail: detail() }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Download report' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('report-Spring-sale-11.csv');
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blobs[0]);
    });
    expect(text.replace(/^\ufeff/, '').split('\r\n')).toEqual(['phone,name,status,error', '+33612345678,"Jean, ""JJ""",read,', `+33699999999,"'=cmd()",failed,Healthy ecosystem`]);
  });

  it('retries the failed ones, then follows the live counters and reloads the recipients', async () => {
    const state = { detail: detail() };
    const http = api(state);
    const { socket, alertText } = renderBroadcasts(<BroadcastDetailPage />, { ...OPTS, http });
    fireEvent.click(await screen.findByRole('button', { name: 'Retry 1 failed' }));
    await waitFor(() => expect(alertText()).toBe('Failed recipients queued again.'));
    expect(await screen.findByText('Sending')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Pause' })).toBeTruthy();
    await waitFor(() => expect(socket.find('page:5')?.state).toBe('joined'));
    const recipientCalls = () => http.calls.filter((c) => c.path === '/api/broadcasts/11/recipients/').length;
    const before = recipientCalls();
    act(() =>
      socket.emit('page:5', 'broadcast_progress', {
        broadcast_id: 11,
        id: 11,
        page_id: 5,
        status: 'completed',
        status_reason: null,
        n_users: 3,
        stats: { ...EMPTY_STATS, sent: 3, delivered: 3, read: 2 },
        progress: 1,
      }),
    );
    await waitFor(() => expect(screen.getByTestId('counter-sent').textContent).toBe('3'));
    expect(screen.getByTestId('counter-read').textContent).toBe('2');
    await waitFor(() => expect(recipientCalls()).toBeGreaterThan(before), { timeout: 5000 });
  });

  it('re-reads a broadcast that ended less than a day ago (replies still come) when no live event says so; not an older one', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const state = { detail: detail({ completed_at: new Date(Date.now() - 60_000).toISOString() }) };
      const http = api(state);
      renderBroadcasts(<BroadcastDetailPage />, { ...OPTS, http });
      await waitFor(() => expect(screen.getByTestId('counter-replied').textContent).toBe('0'));
      const recipientCalls = () => http.calls.filter((c) => c.path === '/api/broadcasts/11/recipients/').length;
      const before = recipientCalls();
      // A customer replied; the page's socket is down (no event): the fallback re-read brings it, and the rows with it.
      state.detail = detail({ completed_at: state.detail.completed_at, stats: { ...EMPTY_STATS, sent: 2, delivered: 2, read: 0, replied: 1, failed: 1 } });
      await act(() => vi.advanceTimersByTimeAsync(16_000));
      await waitFor(() => expect(screen.getByTestId('counter-replied').textContent).toBe('1'));
      await act(() => vi.advanceTimersByTimeAsync(2_000));
      await waitFor(() => expect(recipientCalls()).toBeGreaterThan(before));
      cleanup();

      const old = { detail: detail({ completed_at: new Date(Date.now() - 2 * 24 * 3600_000).toISOString() }) };
      const oldHttp = api(old);
      renderBroadcasts(<BroadcastDetailPage />, { ...OPTS, http: oldHttp });
      await waitFor(() => expect(screen.getByTestId('counter-sent').textContent).toBe('2'));
      const reads = () => oldHttp.calls.filter((c) => c.path === '/api/broadcasts/11/').length;
      const first = reads();
      await act(() => vi.advanceTimersByTimeAsync(31_000));
      expect(reads()).toBe(first);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('/broadcast/{id} on a phone', () => {
  it('shows each recipient in one cell: name and phone, state, the message sent and why it failed', async () => {
    const restore = phoneScreen();
    try {
      renderBroadcasts(<BroadcastDetailPage />, { ...OPTS, http: api({ detail: detail() }) });
      const rows = await screen.findAllByTestId('recipient-row');
      const cell = within(rows[1]).getByRole('cell');
      expect(within(cell).getByText('Marie')).toBeTruthy();
      expect(within(cell).getByText('+33699999999')).toBeTruthy();
      expect(within(cell).getByText('Failed')).toBeTruthy();
      expect(within(cell).getByTestId('recipient-message')).toBeTruthy();
      expect(within(cell).getByText(/Meta did not deliver/)).toBeTruthy();
      expect(within(screen.getByRole('table', { name: 'Recipients' })).getAllByRole('columnheader')).toHaveLength(1);
    } finally {
      restore();
    }
  });
});
