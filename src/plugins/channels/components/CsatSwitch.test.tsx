// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createPlugin } from '../../../core';
import { HttpError } from '../../../core/http/HttpError';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { translations } from '../translations';
import { viewer } from '../testing/fixtures';
import { CsatSwitch } from './CsatSwitch';

const plugin = createPlugin({ id: 'channels', featureFlag: 'channels', translations });
const ADMIN = viewer({ can_view_channels: true, can_manage_channels: true, can_view_chats: true, can_manage_chats: true });
const AGENT = viewer({ can_view_channels: true, can_manage_channels: false, can_view_chats: true }, 'agent');
const NO_CHATS = viewer({ can_view_channels: true, can_manage_channels: true, can_view_chats: false });

function fakeServer(options: { refuse?: boolean } = {}) {
  let on = false;
  return createFakeHttp((method, path, req) => {
    if (method === 'GET' && path === '/api/csat/') return { count: on ? 1 : 0, results: on ? [{ channel_id: 3, enabled: true }] : [] };
    if (method === 'PUT' && path === '/api/csat/3/') {
      if (options.refuse) throw new HttpError(400, { enabled: ['Must be a valid boolean.'] });
      on = (req.body as { enabled: boolean }).enabled;
      return { channel_id: 3, enabled: on };
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
}

function renderSwitch(http: ReturnType<typeof fakeServer>, user = ADMIN) {
  return renderPluginPage(<CsatSwitch channelId={3} />, { plugins: [plugin], features: ['channels'], route: false, http, user, companyId: 1, signedIn: true });
}

describe("a channel's satisfaction survey (CSAT) on the channels page", () => {
  it('is off by default; an admin turns it on, then off, each change saved and said', async () => {
    const http = fakeServer();
    const view = renderSwitch(http);
    const toggle = await screen.findByRole('switch', { name: 'Ask for a rating when resolved' });
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription('The customer gets one question, a rating from 1 to 5, when their conversation is resolved. Scores show on Stats.');
    await userEvent.click(toggle);
    await waitFor(() => expect(view.alertText()).toBe('Satisfaction survey turned on'));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Ask for a rating when resolved' })).toBeChecked());
    await userEvent.click(screen.getByRole('switch', { name: 'Ask for a rating when resolved' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Ask for a rating when resolved' })).not.toBeChecked());
    expect(http.calls.filter((c) => c.method === 'PUT').map((c) => c.options.body)).toEqual([{ enabled: true }, { enabled: false }]);
  });

  it("shows the server's refusal", async () => {
    const view = renderSwitch(fakeServer({ refuse: true }));
    await userEvent.click(await screen.findByRole('switch', { name: 'Ask for a rating when resolved' }));
    await waitFor(() => expect(view.alertText()).toBe('Could not save the satisfaction survey (Must be a valid boolean.)'));
  });

  it('is read-only with one line saying who can change it, without channels manage access', async () => {
    renderSwitch(fakeServer(), AGENT);
    const toggle = await screen.findByRole('switch', { name: 'Ask for a rating when resolved' });
    expect(toggle).toBeDisabled();
    expect(toggle).toHaveAccessibleDescription('Only members who can manage channels can change this.');
  });

  it('is absent without chats view access (nothing asked)', () => {
    const http = fakeServer();
    renderSwitch(http, NO_CHATS);
    expect(screen.queryByRole('switch')).toBeNull();
    expect(http.calls).toEqual([]);
  });
});
