// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import CreateBroadcastPage from './CreateBroadcastPage';
import { emptyDraft, loadDraft, saveDraft, type BroadcastDraft } from './model/draft';
import { preview, templates, WA_CHANNEL } from './testing/fixtures';
import { renderBroadcasts } from './testing/renderBroadcasts';

const ROUTE = '/broadcast/create-broadcast/:type';
const CSV = 'phone,name,discount\n+14155550123,Maria Silva,15%\n+14155550124,Jo,10%\n12,Bad,5%\n';

function api(overrides: { preview?: ReturnType<typeof preview> } = {}) {
  return createFakeHttp((method, path, options) => {
    if (method === 'GET' && path === '/api/channels/') return { count: 1, results: [WA_CHANNEL] };
    if (method === 'GET' && path === '/api/channels/5/templates/') return { count: 2, results: templates() };
    if (method === 'GET' && path === '/api/tags/') return { results: [] };
    if (method === 'GET' && path === '/api/segments/') return { count: 1, results: [{ id: 4, name: 'Customers in Lyon', conditions: [], created_at: '2026-11-01T10:00:00Z' }] };
    if (method === 'POST' && path === '/api/broadcasts/audience/preview/') {
      const body = options.body as { template?: unknown };
      return overrides.preview ?? preview(body.template ? { message: null } : {});
    }
    if (method === 'POST' && path === '/api/broadcasts') return { id: 99, status: 'sending', detail: 'Broadcast successfully created.' };
    throw new Error(`unexpected ${method} ${path}`);
  });
}

function csvDraft(patch: Partial<BroadcastDraft> = {}): BroadcastDraft {
  return {
    ...emptyDraft('csv'),
    name: 'Spring sale',
    channelId: 5,
    csv: { fileName: 'list.csv', text: CSV },
    csvSummary: { total: 3, recipients: 2, columns: ['phone', 'name', 'discount'], badRows: preview().bad_rows, sample: preview().sample[0] },
    ...patch,
  };
}

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('/broadcast/create-broadcast/{type}', () => {
  it('uploads a CSV: bad rows by row number and reason, good rows kept; the draft survives leaving the page', async () => {
    const http = api();
    const first = renderBroadcasts(<CreateBroadcastPage />, { path: '/broadcast/create-broadcast/csv', route: ROUTE, http });
    fireEvent.change(await screen.findByLabelText(/Broadcast name/), { target: { value: 'Spring sale' } });
    await waitFor(() => expect(loadDraft(1, 'csv').channelId).toBe(5));
    const file = new File([CSV], 'list.csv', { type: 'text/csv' });
    fireEvent.change(screen.getByTestId('csv-input'), { target: { files: [file] } });
    const summary = await screen.findByTestId('csv-summary');
    expect(summary.textContent).toContain('5 rows: 4 usable, 1 with a problem.');
    const bad = screen.getByTestId('bad-row');
    expect(within(bad).getByText('4')).toBeTruthy();
    expect(within(bad).getByText(/Not a valid phone number/)).toBeTruthy();
    const call = http.calls.find((c) => c.path === '/api/broadcasts/audience/preview/');
    expect(call?.options.body).toEqual({ page_id: 5, audience: { type: 'csv', csv: CSV, file_name: 'list.csv' } });
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(false);

    first.unmount();
    renderBroadcasts(<CreateBroadcastPage />, { path: '/broadcast/create-broadcast/csv', route: ROUTE, http });
    expect(((await screen.findByLabelText(/Broadcast name/)) as HTMLInputElement).value).toBe('Spring sale');
    expect(screen.getByTestId('csv-summary').textContent).toContain('list.csv');
  });

  it('marks a step done only once the steps before it are: the schedule not before the content is chosen', async () => {
    saveDraft(1, csvDraft({ step: 0 }));
    renderBroadcasts(<CreateBroadcastPage />, { path: '/broadcast/create-broadcast/csv', route: ROUTE, http: api() });
    await screen.findByTestId('csv-summary');
    const isDone = (name: string) => !!screen.getByRole('button', { name }).querySelector('.Mui-completed');
    expect(isDone('Content')).toBe(false);
    // "Send now" is the schedule's valid default, yet the admin has not reached that step.
    expect(isDone('Schedule')).toBe(false);
    expect((screen.getByRole('button', { name: 'Schedule' }) as HTMLButtonElement).disabled).toBe(true);

    cleanup();
    saveDraft(1, csvDraft({
      step: 0,
      templateName: 'welcome_offer',
      templateLanguage: 'en_US',
      mapping: { 'header.1': { source: 'field', value: 'first_name' }, 'body.1': { source: 'column', value: 'name' }, 'body.2': { source: 'fixed', value: '15%' } },
    }));
    renderBroadcasts(<CreateBroadcastPage />, { path: '/broadcast/create-broadcast/csv', route: ROUTE, http: api() });
    await waitFor(() => expect(isDone('Content')).toBe(true));
    expect(isDone('Schedule')).toBe(true);
  });

  it('says when no customer has written to the WhatsApp numbers yet, and offers a segment of the contact list instead', async () => {
    const http = api({ preview: preview({ total: 0, recipients: 0, bad_rows: [], sample: [] }) });
    renderBroadcasts(<CreateBroadcastPage />, { path: '/broadcast/create-broadcast/contacts', route: ROUTE, http });
    const notice = await screen.findByText(/No customer has written to your WhatsApp numbers yet/, {}, { timeout: 3000 });
    fireEvent.click(within(notice.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Choose a segment' }));
    expect(await screen.findByRole('combobox', { name: 'Segment' })).toBeTruthy();
    expect(loadDraft(1, 'contacts').audience).toBe('segment');
  });

  it('says how many can receive it, the verb agreeing with that number in French', async () => {
    const http = api({ preview: preview({ total: 5, recipients: 1 }) });
    renderBroadcasts(<CreateBroadcastPage />, { path: '/broadcast/create-broadcast/contacts', route: ROUTE, http, locale: 'fr' });
    // It read "5 contacts correspondent ; 1 peuvent la recevoir."
    expect(await screen.findByText('5 contacts correspondent ; 1 peut la recevoir.', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('maps each variable to a CSV column, a contact field or a fixed value, with the preview following', async () => {
    saveDraft(1, csvDraft({
      step: 1,
      templateName: 'welcome_offer',
      templateLanguage: 'en_US',
      mapping: { 'header.1': { source: 'field', value: 'first_name' }, 'body.1': { source: 'column', value: 'name' } },
    }));
    renderBroadcasts(<CreateBroadcastPage />, { path: '/broadcast/create-broadcast/csv', route: ROUTE, http: api() });
    const bubble = await screen.findByTestId('broadcast-message-preview');
    expect(bubble.textContent).toContain('Welcome, Maria!');
    expect(bubble.textContent).toContain('Hi Maria Silva, enjoy {{2}} off');
    const next = screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement;
    expect(next.disabled).toBe(true);

    const row = screen.getByTestId('variable-body.2');
    fireEvent.mouseDown(within(row).getByRole('combobox', { name: /^Body \{\{2\}\} Column/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'discount' }));
    await waitFor(() => expect(screen.getByTestId('broadcast-message-preview').textContent).toContain('enjoy 15% off'));
    expect(next.disabled).toBe(false);
    expect(loadDraft(1, 'csv').mapping['body.2']).toEqual({ source: 'column', value: 'discount' });

    // a fixed value instead
    fireEvent.mouseDown(within(row).getByRole('combobox', { name: /^Body \{\{2\}\} Value from/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Fixed text' }));
    expect(next.disabled).toBe(true);
    fireEvent.change(within(row).getByRole('textbox', { name: /Value of Body \{\{2\}\}/ }), { target: { value: '20%' } });
    await waitFor(() => expect(screen.getByTestId('broadcast-message-preview').textContent).toContain('enjoy 20% off'));
    expect(next.disabled).toBe(false);
  });

  it('shows a fixed text value as a labelled field beside its source, the source not taking the whole row', async () => {
    saveDraft(1, csvDraft({
      step: 1,
      templateName: 'welcome_offer',
      templateLanguage: 'en_US',
      mapping: { 'header.1': { source: 'field', value: 'first_name' }, 'body.1': { source: 'column', value: 'name' }, 'body.2': { source: 'fixed', value: '15%' } },
    }));
    renderBroadcasts(<CreateBroadcastPage />, { path: '/broadcast/create-broadcast/csv', route: ROUTE, http: api() });
    const row = await screen.findByTestId('variable-body.2');
    const text = within(row).getByRole('textbox', { name: 'Value of Body {{2}}' }) as HTMLInputElement;
    expect(text.value).toBe('15%');
    expect(within(row).getByText('Text', { selector: 'label' })).toBeTruthy();
    // react-admin's theme makes every FormControl full width: the source's own would leave the text none (issue #25).
    const source = within(row).getByRole('combobox', { name: /^Body \{\{2\}\} Value from/ }).closest('.MuiFormControl-root');
    expect(source?.classList.contains('MuiFormControl-fullWidth')).toBe(false);
    expect(row.contains(text.closest('.MuiFormControl-root'))).toBe(true);
  });

  it('reviews recipients and exclusions by reason with the limit warning, then sends and forgets the draft', async () => {
    saveDraft(1, csvDraft({
      step: 3,
      templateName: 'welcome_offer',
      templateLanguage: 'en_US',
      mapping: {
        'header.1': { source: 'field', value: 'first_name' },
        'body.1': { source: 'column', value: 'name' },
        'body.2': { source: 'fixed', value: '15%' },
      },
    }));
    const http = api({
      preview: preview({
        recipients: 2,
        excluded: { opted_out: 1, blocked: 2, duplicate: 1, invalid_number: 1, over_limit: 3 },
        over_limit_warning: true,
        messaging_limit: { tier: 'TIER_250', limit: 250, used: 248, remaining: 2 },
        message: { header: 'Welcome, Maria!', header_format: 'TEXT', header_media_url: null, body: 'Hi Maria Silva, enjoy 15% off your first order with us.', footer: 'Reply STOP to opt out', buttons: ['Shop now', 'Not now'] },
      }),
    });
    renderBroadcasts(<CreateBroadcastPage />, { path: '/broadcast/create-broadcast/csv', route: ROUTE, http });
    expect((await screen.findByTestId('review-recipients')).textContent).toBe('2 recipients');
    expect(screen.getByText('8 excluded')).toBeTruthy();
    expect(screen.getByTestId('excluded-opted_out').textContent).toBe('Opted out: 1');
    expect(screen.getByTestId('excluded-blocked').textContent).toBe('Blocked: 2');
    expect(screen.getByTestId('excluded-duplicate').textContent).toBe('Duplicate number: 1');
    expect(screen.getByTestId('excluded-invalid_number').textContent).toBe('Invalid number: 1');
    expect(screen.getByTestId('excluded-over_limit').textContent).toBe('Over today’s messaging limit: 3');
    expect(screen.getByTestId('limit-warning').textContent).toContain('248 of 250');
    expect(screen.getByTestId('broadcast-message-preview').textContent).toContain('Hi Maria Silva, enjoy 15% off your first order with us.');

    const send = screen.getByRole('button', { name: 'Send broadcast' }) as HTMLButtonElement;
    await waitFor(() => expect(send.disabled).toBe(false));
    fireEvent.click(send);
    await screen.findByTestId('elsewhere');
    const create = http.calls.find((c) => c.method === 'POST' && c.path === '/api/broadcasts');
    expect(create?.options.body).toEqual({
      name: 'Spring sale',
      page_id: 5,
      template: { id: 1, name: 'welcome_offer', language: 'en_US' },
      variables: {
        body: { '1': { source: 'column', value: 'name' }, '2': { source: 'fixed', value: '15%' } },
        header: { '1': { source: 'field', value: 'first_name' } },
      },
      audience: { type: 'csv', csv: CSV, file_name: 'list.csv' },
      schedule: { mode: 'now' },
    });
    expect(loadDraft(1, 'csv')).toEqual(emptyDraft('csv'));
  });

  it('schedules at a wall-clock time in the chosen zone; a time in the past is refused', async () => {
    saveDraft(1, csvDraft({
      step: 2,
      templateName: 'welcome_offer',
      templateLanguage: 'en_US',
      mapping: {
        'header.1': { source: 'fixed', value: 'friend' },
        'body.1': { source: 'column', value: 'name' },
        'body.2': { source: 'fixed', value: '15%' },
      },
      schedule: { mode: 'later', date: '2020-01-01', time: '09:30', timeZone: 'Europe/Paris' },
    }));
    renderBroadcasts(<CreateBroadcastPage />, { path: '/broadcast/create-broadcast/csv', route: ROUTE, http: api() });
    expect(await screen.findByText('Choose a date and time in the future.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText(/Date/), { target: { value: '2099-06-01' } });
    await waitFor(() => expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(false));
    expect(loadDraft(1, 'csv').schedule).toEqual({ mode: 'later', date: '2099-06-01', time: '09:30', timeZone: 'Europe/Paris' });
  });
});
