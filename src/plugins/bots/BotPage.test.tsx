// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { HttpError } from '../../core/http/HttpError';
import { membership, testUser } from '../../core/account/testUsers';
import type { Bot } from '../../../contract/bots';
import { step } from './model/fixtures';
import BotPage, { outlineOrder } from './BotPage';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { botsPlugin } from './index';

const admin = testUser([membership(1, { can_manage_flows: true, can_view_flows: true }, { role: { id: 'admin', name: 'Admin' } })]);

const bot: Bot = {
  id: 9,
  name: 'Greeter',
  step: 'hello',
  steps: [step('orphan'), step('end'), step('hello', { yes: 'end' })],
  fallback_step_id: null,
  active: true,
  channels: [5],
  conversations_handled: 4,
  created_at: '2026-01-01T10:00:00Z',
  updated_at: '2026-01-02T10:00:00Z',
};

function server() {
  return createFakeHttp((method, path, options) => {
    if (path === '/api/bots/integration/') return { endpoint: 'http://localhost/bot-service', access_key: 'bk_secret' };
    if (path === '/api/bots/integration/rotate/') return { endpoint: 'http://localhost/bot-service', access_key: 'bk_rotated' };
    if (path === '/api/channels/') return { results: [{ id: 5, name: 'Sandbox', platform: 'sandbox' }, { id: 6, name: 'Shop', platform: 'whatsapp' }], count: 2 };
    if (path === '/api/bots/9/' && method === 'GET') return bot;
    if (path === '/api/bots/9/' && method === 'PATCH') return { ...bot, ...(options.body as object) };
    throw new Error(`unexpected ${method} ${path}`);
  });
}

describe('/bots/{id}', () => {
  it('orders the outline from the start step, unreachable steps last', () => {
    expect(outlineOrder(bot).map((s) => s.id)).toEqual(['hello', 'end', 'orphan']);
  });

  it('shows the integration, conversations handled and steps; assigns channels', async () => {
    const http = server();
    const view = renderPluginPage(<BotPage />, { plugins: [botsPlugin], features: ['flows'], companyId: 1, signedIn: true, path: '/bots/9', route: '/bots/:id', http, user: admin });
    expect(await screen.findByTestId('integration-key')).toHaveProperty('textContent', 'bk_secret');
    expect(screen.getByTestId('bot-conversations').textContent).toBe('4');
    expect(screen.getByTestId('bot-outline').textContent).toContain('Message of hello');
    await userEvent.click(await screen.findByRole('checkbox', { name: /Shop/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Save channels' }));
    await waitFor(() => expect(view.alertText()).toBe('Channels saved'));
    expect(http.calls.find((c) => c.method === 'PATCH')?.options.body).toEqual({ channels: [5, 6] });
  });

  it('rotates the key after confirmation', async () => {
    const http = server();
    renderPluginPage(<BotPage />, { plugins: [botsPlugin], features: ['flows'], companyId: 1, signedIn: true, path: '/bots/9', route: '/bots/:id', http, user: admin });
    await userEvent.click(await screen.findByRole('button', { name: 'Rotate key' }));
    await userEvent.click(screen.getByRole('button', { name: 'Rotate' }));
    await waitFor(() => expect(screen.getByTestId('integration-key').textContent).toBe('bk_rotated'));
  });

  it('says a bot that is not in this company does not exist, and any other failure in the spec\'s words', async () => {
    const failing = (status: number, body: unknown) =>
      createFakeHttp((_method, path) => {
        if (path === '/api/bots/9/') throw new HttpError(status, body);
        if (path === '/api/channels/') return { results: [], count: 0 };
        if (path === '/api/bots/integration/') return { endpoint: 'http://localhost/bot-service', access_key: 'bk_secret' };
        throw new Error(`unexpected ${path}`);
      });
    const first = renderPluginPage(<BotPage />, { plugins: [botsPlugin], features: ['flows'], companyId: 1, signedIn: true, path: '/bots/9', route: '/bots/:id', http: failing(404, { detail: 'Not found.' }), user: admin });
    expect(await screen.findByText('This bot does not exist (any more) in this company.')).toBeInTheDocument();
    expect(screen.queryByText(/Error 404/)).not.toBeInTheDocument();
    first.unmount();
    renderPluginPage(<BotPage />, { plugins: [botsPlugin], features: ['flows'], companyId: 1, signedIn: true, path: '/bots/9', route: '/bots/:id', http: failing(500, { detail: 'Database unavailable.' }), user: admin });
    expect(await screen.findByText(/^Error while fetching bot\(/)).toBeInTheDocument();
  });

  it('the second view is the compact outline', async () => {
    renderPluginPage(<BotPage />, { plugins: [botsPlugin], features: ['flows'], companyId: 1, signedIn: true, path: '/bots/9?view=outline', route: '/bots/:id', http: server(), user: admin });
    expect((await screen.findByTestId('bot-outline')).textContent).toContain('Message of orphan');
    expect(screen.queryByTestId('integration-key')).toBeNull();
  });
});
