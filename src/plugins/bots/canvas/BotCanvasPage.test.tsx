// @vitest-environment jsdom
import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { membership, testUser } from '../../../core/account/testUsers';
import type { Bot } from '../../../../contract/bots';
import { step } from '../model/fixtures';
import BotCanvasPage from './BotCanvasPage';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { botsPlugin } from '..';

const admin = testUser([membership(1, { can_manage_flows: true, can_view_flows: true }, { role: { id: 'admin', name: 'Admin' } })]);

// React Flow measures its pane and nodes: jsdom has no layout, so give it the browser APIs it calls.
beforeAll(() => {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
  (globalThis as { DOMMatrixReadOnly?: unknown }).DOMMatrixReadOnly ??= class {
    m22 = 1;
    constructor(_transform?: string) {}
  };
});

function makeBot(fallback: string | null): Bot {
  return {
    id: 9,
    name: 'Greeter',
    step: 'hello',
    steps: [step('hello', { yes: 'end' }), step('end'), step('human')],
    fallback_step_id: fallback,
    active: true,
    channels: [],
    conversations_handled: 0,
    created_at: '2026-01-01T10:00:00Z',
    updated_at: '2026-01-02T10:00:00Z',
  };
}

function server(bot: Bot) {
  return createFakeHttp((method, path, options) => {
    if (path === '/api/bots/integration/') return { endpoint: 'http://localhost/bot-service', access_key: 'bk_secret' };
    if (path === '/api/channels/') return { results: [], count: 0 };
    if (path === '/api/bots/9/' && method === 'GET') return bot;
    if (path === '/api/bots/9/' && method === 'PATCH') return { ...bot, ...(options.body as object) };
    throw new Error(`unexpected ${method} ${path}`);
  });
}

const patches = (http: ReturnType<typeof server>) => http.calls.filter((c) => c.method === 'PATCH').map((c) => ({ path: c.path, body: c.options.body }));

describe('/flows/generic-flow/{botId}: the fallback', () => {
  it('choosing a fallback step saves it on the bot, marks its node, and undo gives it back to a person', async () => {
    const http = server(makeBot(null));
    const view = renderPluginPage(<BotCanvasPage />, { plugins: [botsPlugin], features: ['flows'], companyId: 1, signedIn: true, path: '/flows/generic-flow/9', route: '/flows/generic-flow/:botId', http, user: admin });
    const select = await screen.findByRole('combobox', { name: 'Fallback' });
    expect(select).toHaveTextContent('Hand over to a person');
    expect(screen.queryByTestId('fallback-marker')).toBeNull();

    await userEvent.click(select);
    await userEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Message of human' }));

    await waitFor(() => expect(patches(http)).toEqual([{ path: '/api/bots/9/', body: { fallback_step_id: 'human' } }]));
    expect(http.calls.find((c) => c.method === 'PATCH')?.options).toMatchObject({ baseUrl: 'http://localhost/bot-service', query: { access_key: 'bk_secret' } });
    await waitFor(() => expect(view.alertText()).toBe('Step has been updated'));
    expect(screen.getByRole('combobox', { name: 'Fallback' })).toHaveTextContent('Message of human');
    const marker = await screen.findByTestId('fallback-marker');
    expect(marker.closest('[data-testid="step-node"]')?.getAttribute('data-step-id')).toBe('human');

    await userEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(patches(http)).toEqual([
      { path: '/api/bots/9/', body: { fallback_step_id: 'human' } },
      { path: '/api/bots/9/', body: { fallback_step_id: null } },
    ]));
    expect(screen.queryByTestId('fallback-marker')).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Fallback' })).toHaveTextContent('Hand over to a person');
  });

  it('shows the saved fallback and its marker when the canvas opens', async () => {
    renderPluginPage(<BotCanvasPage />, { plugins: [botsPlugin], features: ['flows'], companyId: 1, signedIn: true, path: '/flows/generic-flow/9', route: '/flows/generic-flow/:botId', http: server(makeBot('end')), user: admin });
    expect(await screen.findByRole('combobox', { name: 'Fallback' })).toHaveTextContent('Message of end');
    const marker = await screen.findByTestId('fallback-marker');
    expect(marker).toHaveTextContent('Fallback');
    expect(marker.closest('[data-testid="step-node"]')?.getAttribute('data-step-id')).toBe('end');
  });
});
