// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createPlugin } from '../../../core';
import { HttpError } from '../../../core/http/HttpError';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { translations } from '../translations';
import { viewer } from '../testing/fixtures';
import { DefaultFlowSelect } from './DefaultFlowSelect';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';

const plugin = createPlugin({ id: 'channels', featureFlag: 'channels', translations });
const ADMIN = viewer({ can_view_channels: true, can_manage_channels: true, can_view_flows: true, can_manage_flows: true });
const AGENT = viewer({ can_view_channels: true, can_view_flows: true, can_manage_flows: false }, 'agent');

function fakeServer(options: { refuse?: boolean } = {}) {
  let current: number | null = null;
  return createFakeHttp((method, path, req) => {
    if (method === 'GET' && path === '/api/flows/channel-defaults/') {
      return {
        results: current === null ? [] : [{ channel_id: 3, flow_id: current, flow_name: current === 11 ? 'Welcome' : 'Tour' }],
        flows: [
          { id: 11, flow_name: 'Welcome' },
          { id: 12, flow_name: 'Tour' },
        ],
      };
    }
    if (method === 'PUT' && path === '/api/flows/channel-defaults/3/') {
      if (options.refuse) throw new HttpError(400, { flow_id: ['This flow does not exist in this company.'] });
      current = (req.body as { flow_id: number | null }).flow_id;
      return { channel_id: 3, flow_id: current };
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
}

function renderSelect(http: ReturnType<typeof fakeServer>, user = ADMIN, features = ['channels', 'flows']) {
  return renderPluginPage(<DefaultFlowSelect channelId={3} />, { plugins: [plugin], features, route: false, http, user, companyId: 1, signedIn: true });
}

describe("a channel's default flow on the channels page", () => {
  it('an admin chooses a flow, then none; each choice is saved and said', async () => {
    const http = fakeServer();
    const view = renderSelect(http);
    const select = await screen.findByRole('combobox', { name: 'Default flow' });
    expect(select).toHaveTextContent('None');
    expect(select).toHaveAccessibleDescription('Starts on every new conversation (keywords still start their own flow).');

    await userEvent.click(select);
    await userEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Welcome' }));
    await waitFor(() => expect(view.alertText()).toBe('Default flow saved'));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Default flow' })).toHaveTextContent('Welcome'));

    await userEvent.click(screen.getByRole('combobox', { name: 'Default flow' }));
    await userEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'None' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Default flow' })).toHaveTextContent('None'));
    expect(http.calls.filter((c) => c.method === 'PUT').map((c) => c.options.body)).toEqual([{ flow_id: 11 }, { flow_id: null }]);
  });

  it("shows the server's refusal", async () => {
    const view = renderSelect(fakeServer({ refuse: true }));
    await userEvent.click(await screen.findByRole('combobox', { name: 'Default flow' }));
    await userEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Tour' }));
    await waitFor(() => expect(view.alertText()).toBe('Could not save the default flow (This flow does not exist in this company.)'));
  });

  it('is read-only without flows manage access', async () => {
    renderSelect(fakeServer(), AGENT);
    expect(await screen.findByRole('combobox', { name: 'Default flow' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('is absent without the flows feature (nothing asked)', () => {
    const http = fakeServer();
    renderSelect(http, ADMIN, ['channels']);
    expect(screen.queryByRole('combobox', { name: 'Default flow' })).toBeNull();
    expect(http.calls).toEqual([]);
  });
});
