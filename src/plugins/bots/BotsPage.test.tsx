// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError } from '../../core';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { phoneScreen } from '../../core/testing/phoneScreen';
import { membership, testUser } from '../../core/account/testUsers';
import type { BotSummary } from '../../../contract/bots';
import BotsPage from './BotsPage';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { botsPlugin } from './index';

const admin = testUser([membership(1, { can_manage_flows: true, can_view_flows: true }, { role: { id: 'admin', name: 'Admin' } })]);

function summary(id: number, name: string, extra: Partial<BotSummary> = {}): BotSummary {
  return {
    id,
    name,
    step: null,
    fallback_step_id: null,
    active: true,
    channels: [5],
    conversations_handled: 12,
    created_at: '2026-01-01T10:00:00Z',
    updated_at: '2026-01-02T10:00:00Z',
    steps_count: 3,
    ...extra,
  };
}

function fakeServer(bots: BotSummary[], options: { failCreate?: boolean; failDelete?: boolean } = {}) {
  let list = [...bots];
  return createFakeHttp((method, path, opts) => {
    if (path === '/api/bots/integration/') return { endpoint: '/bot-service', access_key: 'k' };
    if (path === '/api/channels/') return { results: [{ id: 5, name: 'Sandbox', platform: 'sandbox' }], count: 1 };
    if (path === '/api/bots/' && method === 'GET') return { count: list.length, results: list };
    if (path === '/api/bots/' && method === 'POST') {
      if (options.failCreate) throw new HttpError(400, { errors: [{ status: '400', code: 'blank', title: 'Invalid name', detail: 'This field may not be blank.' }] });
      const bot = summary(42, (opts.body as { name: string }).name);
      list = [...list, bot];
      return { ...bot, steps: [] };
    }
    const match = /^\/api\/bots\/(\d+)\/$/.exec(path);
    if (match && method === 'DELETE') {
      if (options.failDelete) throw new HttpError(500, { errors: [{ status: '500', code: 'x', title: 'Server error', detail: 'Try again.' }] });
      list = list.filter((b) => b.id !== Number(match[1]));
      return undefined;
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
}

describe('/bots', () => {
  it('lists the bots: name, channels, steps, conversations handled, last edit', async () => {
    const http = fakeServer([summary(1, 'Greeter')]);
    renderPluginPage(<BotsPage />, { plugins: [botsPlugin], features: ['flows'], companyId: 1, signedIn: true, path: '/bots', http, user: admin });
    const row = (await screen.findByText('Greeter')).closest('tr')!;
    expect(within(row).getByText('Sandbox')).toBeTruthy();
    expect(within(row).getByText('3')).toBeTruthy();
    expect(within(row).getByText('12')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: /Last edit/ })).toBeTruthy();
  });

  it("shows the spec's empty view without bots", async () => {
    renderPluginPage(<BotsPage />, { plugins: [botsPlugin], features: ['flows'], companyId: 1, signedIn: true, path: '/bots', http: fakeServer([]), user: admin });
    expect(await screen.findByText("There's no data at the moment, please check back in later.")).toBeTruthy();
  });

  it("creates a bot: 'Bot has been created', then its canvas", async () => {
    const view = renderPluginPage(<BotsPage />, { plugins: [botsPlugin], features: ['flows'], companyId: 1, signedIn: true, path: '/bots', http: fakeServer([]), user: admin });
    await userEvent.click(await screen.findByRole('button', { name: 'Create bot' }));
    await userEvent.type(screen.getByLabelText(/Bot name/), 'Support');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(view.currentPath()).toBe('/flows/generic-flow/42'));
    expect(view.alertText()).toBe('Bot has been created');
  });

  it("a refused creation shows 'Error {status} : {title} {detail}'", async () => {
    const view = renderPluginPage(<BotsPage />, { plugins: [botsPlugin], features: ['flows'], companyId: 1, signedIn: true, path: '/bots', http: fakeServer([], { failCreate: true }), user: admin });
    await userEvent.click(await screen.findByRole('button', { name: 'Create bot' }));
    await userEvent.type(screen.getByLabelText(/Bot name/), 'X');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(view.alertText()).toBe('Error 400 : Invalid name This field may not be blank.'));
    expect(view.currentPath()).toBe('/bots');
  });

  it("deletes after confirmation: 'Bot deleted successfully'", async () => {
    const view = renderPluginPage(<BotsPage />, { plugins: [botsPlugin], features: ['flows'], companyId: 1, signedIn: true, path: '/bots', http: fakeServer([summary(1, 'Greeter')]), user: admin });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete bot Greeter' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(view.alertText()).toBe('Bot deleted successfully'));
    await waitFor(() => expect(screen.queryByText('Greeter')).toBeNull());
  });

  it("a failed deletion shows 'Error while deleting bot({error})'", async () => {
    const view = renderPluginPage(<BotsPage />, { plugins: [botsPlugin], features: ['flows'], companyId: 1, signedIn: true, path: '/bots', http: fakeServer([summary(1, 'Greeter')], { failDelete: true }), user: admin });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete bot Greeter' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(view.alertText()).toBe('Error while deleting bot(Error 500 : Server error Try again.)'));
  });
});

describe('/bots on a phone', () => {
  it('shows each bot in one cell: name, channels, then steps, conversations and last edit with their labels', async () => {
    const restore = phoneScreen();
    try {
      renderPluginPage(<BotsPage />, { plugins: [botsPlugin], features: ['flows'], companyId: 1, signedIn: true, path: '/bots', http: fakeServer([summary(1, 'Greeter')]), user: admin });
      const cell = (await screen.findByText('Greeter')).closest('td')!;
      expect(within(cell).getByText('Sandbox')).toBeTruthy();
      expect(cell.textContent).toContain('Steps 3 · Conversations handled 12 · Last edit');
      expect(screen.queryByRole('columnheader', { name: /Last edit/ })).toBeNull();
      expect(within(cell.closest('tr')!).getByRole('button', { name: /Delete/ })).toBeTruthy();
    } finally {
      restore();
    }
  });
});
