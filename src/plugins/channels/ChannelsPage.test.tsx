// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createPlugin, HttpError, SocialDialogClosedError, SocialSdkUnavailableError, type RequestOptions, type SocialApi } from '../../core';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import type { Channel, ConnectChannelBody, FacebookPage } from '../../../contract/channels';
import type { User } from '../../../contract/api';
import ChannelsPage from './ChannelsPage';
import { AGENT, channel, CHANNELS, channelsPage, FACEBOOK_PAGES, MANAGER } from './testing/fixtures';
import { createFakeSocial } from './testing/fakeSocial';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { translations } from './translations';

/** The channels page's own slice of the plugin (its strings and resource), without the WhatsApp onboarding. */
const channelsPagePlugin = createPlugin({
  id: 'channels',
  featureFlag: 'channels',
  resources: [{ name: 'channels', area: 'channels' }],
  translations,
});

type Handler = (method: string, path: string, options: RequestOptions) => unknown;

/**
 * A fake API over an in-memory channel list per company (the selected one is read through
 * `companyOf`); `extra` answers first (return undefined to fall through).
 */
function fakeApi(
  options: { extra?: Handler; channels?: Channel[]; companyConnected?: boolean; pages?: FacebookPage[]; byCompany?: Record<number, Channel[]> } = {},
) {
  const lists: Record<number, Channel[]> = options.byCompany ?? { 1: (options.channels ?? CHANNELS).map((c) => ({ ...c })) };
  let company = 1;
  const http = createFakeHttp((method, path, request) => {
    const answer = options.extra?.(method, path, request);
    if (answer !== undefined) return answer;
    const list = lists[company] ?? [];
    if (method === 'GET' && path === '/api/channels/') return channelsPage(list, request.query, options.companyConnected ?? true);
    if (method === 'POST' && path === '/api/channels/facebook_pages/') return { results: options.pages ?? FACEBOOK_PAGES };
    if (method === 'POST' && path === '/api/channels/') {
      const body = request.body as ConnectChannelBody;
      const page = (options.pages ?? FACEBOOK_PAGES).find((p) => p.id === body.page_id)!;
      const created = channel(100 + list.length, body.platform, {
        name: body.platform === 'instagram' ? page.instagram!.username : page.name,
        external_id: body.platform === 'instagram' ? page.instagram!.id : page.id,
      });
      lists[company] = [...list, created];
      return created;
    }
    if (method === 'DELETE' && path.startsWith('/api/channels/')) {
      const id = Number(path.split('/')[3]);
      lists[company] = list.filter((c) => c.id !== id);
      return undefined;
    }
    if (method === 'POST' && path === '/api/wa-onboard/retry/') {
      const externalId = (request.body as { external_id: string }).external_id;
      lists[company] = list.map((c) => (c.external_id === externalId ? { ...c, signup_status: 'completed', signup_error: null } : c));
      return { status: 'completed', external_id: externalId, channel_id: 3, steps: [], error: null, already_connected: false };
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
  return Object.assign(http, {
    selectCompany(id: number) {
      company = id;
    },
    listCalls: () => http.calls.filter((c) => c.method === 'GET' && c.path === '/api/channels/'),
  });
}

function renderChannels(http = fakeApi(), user: User = MANAGER, social: SocialApi = createFakeSocial()) {
  return renderPluginPage(<ChannelsPage />, { plugins: [channelsPagePlugin], features: ['channels'], path: '/channels', companyId: 1, signedIn: true, http, user, social });
}

function card(name: string) {
  return screen.getByRole('listitem', { name });
}

describe('ChannelsPage list', () => {
  beforeEach(() => localStorage.clear());

  it('shows a loading indicator, then each channel with its platform, identifier, status and date', async () => {
    const http = fakeApi();
    renderChannels(http);
    expect(screen.getByRole('heading', { level: 1, name: 'Channels' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Loading channels…' })).toBeInTheDocument();

    const support = await screen.findByRole('listitem', { name: 'Support line' });
    expect(within(support).getByRole('img', { name: 'WhatsApp' })).toBeInTheDocument();
    expect(support).toHaveTextContent('+1 555 0101');
    expect(within(support).getByText('Connected')).toBeInTheDocument();
    expect(support).toHaveTextContent('Connected since Mar 12, 2024');

    expect(within(card('Sales line')).getByText('Setting up')).toBeInTheDocument();
    expect(card('Sales line')).toHaveTextContent('Added on Mar 12, 2024');
    const billing = card('Billing line');
    expect(within(billing).getByText('Needs attention')).toBeInTheDocument();
    expect(billing).toHaveTextContent('Registering the phone number failed: PIN mismatch');
    expect(within(card('Old line')).getByText('Failed')).toBeInTheDocument();
    expect(card('Old line')).toHaveTextContent('The WhatsApp setup failed. Connect the number again.');

    const messenger = card('Acme Store');
    expect(within(messenger).getByRole('img', { name: 'Facebook Messenger' })).toBeInTheDocument();
    expect(messenger).toHaveTextContent('Page ID 1001');
    const instagram = card('acme.store');
    expect(instagram).toHaveTextContent('Account ID 17841400000000001');
    expect(within(instagram).getByText('Disconnected')).toBeInTheDocument();
    expect(within(card('Sandbox')).getByRole('img', { name: 'Sandbox' })).toBeInTheDocument();

    expect(http.listCalls()[0].options.query).toMatchObject({ page: 1, page_size: 25 });
    expect(screen.queryByTestId('channels-banner')).not.toBeInTheDocument();
  });

  it('shows the signup error of a partly failed setup in a tooltip on its status', async () => {
    renderChannels();
    await userEvent.hover(within(await screen.findByRole('listitem', { name: 'Billing line' })).getByText('Needs attention'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Registering the phone number failed: PIN mismatch');
  });

  it('shows the empty-data view when the company has no channel', async () => {
    renderChannels(fakeApi({ channels: [] }));
    expect(await screen.findByText('Nothing Found.')).toBeInTheDocument();
    expect(screen.getByText("There's no data at the moment, please check back in later.")).toBeInTheDocument();
  });

  it('pages through the API with the spec page sizes', async () => {
    const many = Array.from({ length: 30 }, (_, i) => channel(i + 1, 'messenger', { name: `Page ${i + 1}` }));
    const http = fakeApi({ channels: many });
    renderChannels(http);
    expect(await screen.findByRole('listitem', { name: 'Page 25' })).toBeInTheDocument();
    expect(screen.queryByRole('listitem', { name: 'Page 26' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await screen.findByRole('listitem', { name: 'Page 26' })).toBeInTheDocument();
    expect(screen.queryByRole('listitem', { name: 'Page 1' })).not.toBeInTheDocument();
    expect(http.listCalls().at(-1)!.options.query).toMatchObject({ page: 2, page_size: 25 });

    await userEvent.click(screen.getByRole('combobox', { name: /rows per page/i }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['10', '25', '50', '100', 'All']);
    await userEvent.click(screen.getByRole('option', { name: '10' }));
    await waitFor(() => expect(http.listCalls().at(-1)!.options.query).toMatchObject({ page: 1, page_size: 10 }));
    expect(await screen.findByRole('listitem', { name: 'Page 10' })).toBeInTheDocument();
    expect(screen.queryByRole('listitem', { name: 'Page 11' })).not.toBeInTheDocument();
  });

  it('reloads from the first page when the selected company changes', async () => {
    const http = fakeApi({ byCompany: { 1: [channel(1, 'whatsapp', { name: 'Demo line' })], 2: [channel(9, 'messenger', { name: 'Other page' })] } });
    const { account } = renderChannels(http);
    expect(await screen.findByRole('listitem', { name: 'Demo line' })).toBeInTheDocument();
    act(() => {
      http.selectCompany(2);
      account.selectCompany(2);
    });
    expect(await screen.findByRole('listitem', { name: 'Other page' })).toBeInTheDocument();
    expect(screen.queryByRole('listitem', { name: 'Demo line' })).not.toBeInTheDocument();
    expect(http.listCalls()).toHaveLength(2);
  });

  it('is read-only for a member who cannot manage channels', async () => {
    renderChannels(fakeApi(), AGENT);
    await screen.findByRole('listitem', { name: 'Support line' });
    for (const name of ['Connect WhatsApp', 'Connect Facebook page', 'Connect Instagram account', 'Retry setup']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    expect(screen.queryByRole('button', { name: /^Disconnect/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Open customer simulator/ })).not.toBeInTheDocument();
  });

  it('links the sandbox to its customer simulator in a new tab and never offers to disconnect it', async () => {
    renderChannels();
    const sandbox = await screen.findByRole('listitem', { name: 'Sandbox' });
    const link = within(sandbox).getByRole('link', { name: /Open customer simulator/ });
    expect(link).toHaveAttribute('href', 'http://localhost/sandbox/key-1');
    expect(link).toHaveAttribute('target', '_blank');
    expect(within(sandbox).queryByRole('button', { name: /Disconnect/ })).not.toBeInTheDocument();
    expect(within(card('Support line')).getByRole('button', { name: 'Disconnect Support line' })).toBeInTheDocument();
  });
});

describe('ChannelsPage banner', () => {
  beforeEach(() => localStorage.clear());

  it('invites a member who manages channels to connect one', async () => {
    const { currentPath } = renderChannels(fakeApi({ channels: [], companyConnected: false }));
    const banner = await screen.findByTestId('channels-banner');
    expect(banner).toHaveTextContent('Connect a WhatsApp number or a Facebook page to start talking to your customers.');
    await userEvent.click(within(banner).getByRole('button', { name: 'Connect WhatsApp' }));
    expect(currentPath()).toBe('/whatsapp-integration');
  });

  it('tells the others to ask an admin', async () => {
    renderChannels(fakeApi({ channels: [channel(7, 'sandbox', { name: 'Sandbox' })], companyConnected: false }), AGENT);
    const banner = await screen.findByTestId('channels-banner');
    expect(banner).toHaveTextContent('No channel is connected yet. Ask an admin of your company to connect one.');
    expect(within(banner).queryByRole('button')).not.toBeInTheDocument();
  });
});

describe('ChannelsPage connecting', () => {
  beforeEach(() => localStorage.clear());

  it('goes to the WhatsApp signup', async () => {
    const { currentPath } = renderChannels();
    await userEvent.click(screen.getByRole('button', { name: 'Connect WhatsApp' }));
    expect(currentPath()).toBe('/whatsapp-integration');
  });

  it("connects a Facebook page: login, the page list, the choice, 'Channel connected' and a refreshed list", async () => {
    const http = fakeApi();
    const social = createFakeSocial(() => 'fb-user-token');
    const { alertText } = renderChannels(http, MANAGER, social);
    await screen.findByRole('listitem', { name: 'Support line' });

    await userEvent.click(screen.getByRole('button', { name: 'Connect Facebook page' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose a Facebook page' });
    expect(social.logins).toEqual(['pages']);
    expect(http.calls.find((c) => c.path === '/api/channels/facebook_pages/')?.options.body).toEqual({ access_token: 'fb-user-token' });

    const taken = within(dialog).getByRole('radio', { name: /Acme Store/ });
    expect(taken).toBeDisabled();
    expect(within(dialog).getByText('Already connected')).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: /Acme Café/ })).toBeEnabled();

    await userEvent.click(within(dialog).getByRole('radio', { name: /Acme Outlet/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));

    await waitFor(() => expect(alertText()).toBe('Channel connected'));
    expect(http.calls.find((c) => c.method === 'POST' && c.path === '/api/channels/')?.options.body).toEqual({
      platform: 'messenger',
      access_token: 'fb-user-token',
      page_id: '1002',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('listitem', { name: 'Acme Outlet' })).toHaveTextContent('Page ID 1002');
  });

  it('offers for Instagram only the pages with a linked account, by @username', async () => {
    const http = fakeApi();
    const { alertText } = renderChannels(http);
    await screen.findByRole('listitem', { name: 'Support line' });
    await userEvent.click(screen.getByRole('button', { name: 'Connect Instagram account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose an Instagram account' });

    const radios = within(dialog).getAllByRole('radio');
    expect(radios).toHaveLength(2);
    expect(within(dialog).getByRole('radio', { name: /@acme\.store/ })).toBeDisabled();
    expect(within(dialog).getByRole('radio', { name: /@acme\.cafe/ })).toBeEnabled();
    expect(dialog).toHaveTextContent('Linked to the page Acme Café');
    expect(within(dialog).queryByText(/Acme Outlet/)).not.toBeInTheDocument();

    // the first free account is preselected
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(alertText()).toBe('Channel connected'));
    expect(http.calls.find((c) => c.method === 'POST' && c.path === '/api/channels/')?.options.body).toMatchObject({
      platform: 'instagram',
      page_id: '1003',
    });
    expect(await screen.findByRole('listitem', { name: 'acme.cafe' })).toBeInTheDocument();
  });

  it('says so when no page has an Instagram account', async () => {
    renderChannels(fakeApi({ pages: [FACEBOOK_PAGES[1]] }));
    await userEvent.click(screen.getByRole('button', { name: 'Connect Instagram account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose an Instagram account' });
    expect(dialog).toHaveTextContent('None of your Facebook pages is linked to an Instagram professional account.');
    expect(within(dialog).getByRole('button', { name: 'Connect' })).toBeDisabled();
  });

  it("shows the server's message when the page is connected elsewhere (409) and keeps the dialog open", async () => {
    const http = fakeApi({
      extra: (method, path) => {
        if (method === 'POST' && path === '/api/channels/') throw new HttpError(409, { detail: 'This page is already connected to another company.' });
      },
    });
    const { alert } = renderChannels(http);
    await userEvent.click(screen.getByRole('button', { name: 'Connect Facebook page' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose a Facebook page' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(alert().text).toBe('This page is already connected to another company.'));
    expect(alert().type).toBe('error');
    expect(screen.getByRole('dialog', { name: 'Choose a Facebook page' })).toBeInTheDocument();
  });

  it('shows the first field error of a 400', async () => {
    const http = fakeApi({
      extra: (method, path) => {
        if (method === 'POST' && path === '/api/channels/') throw new HttpError(400, { access_token: ['The Facebook token has expired.'] });
      },
    });
    const { alertText } = renderChannels(http);
    await userEvent.click(screen.getByRole('button', { name: 'Connect Facebook page' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(alertText()).toBe('The Facebook token has expired.'));
  });

  it("warns 'Facebook login was closed' when the login dialog is closed", async () => {
    const http = fakeApi();
    const social = createFakeSocial(() => {
      throw new SocialDialogClosedError('facebook');
    });
    const { alert } = renderChannels(http, MANAGER, social);
    await userEvent.click(screen.getByRole('button', { name: 'Connect Facebook page' }));
    await waitFor(() => expect(alert().text).toBe('Facebook login was closed'));
    expect(alert().type).toBe('warning');
    expect(http.calls.some((c) => c.path === '/api/channels/facebook_pages/')).toBe(false);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('says when the Facebook SDK could not be loaded', async () => {
    const social = createFakeSocial(() => {
      throw new SocialSdkUnavailableError('facebook', 'Could not load sdk.js');
    });
    // A server with Facebook configured (GET /api/client-config/): the SDK itself failed.
    social.clientConfig = async () => ({
      facebook: { app_id: 'app', config_id: 'cfg', sdk_url: '/sdk.js', version: 'v23.0', page_scopes: [], login_scopes: [] },
      google: null,
    });
    const { alert } = renderChannels(fakeApi(), MANAGER, social);
    await userEvent.click(screen.getByRole('button', { name: 'Connect Instagram account' }));
    await waitFor(() => expect(alert().text).toBe('Facebook could not be loaded. Check your connection or content blocker and try again.'));
    expect(alert().type).toBe('error');
  });

  it('says when the server has no Meta app configured', async () => {
    // GET /api/client-config/ answers facebook null (outside demo mode, no META_APP_ID): the SDK loader refuses.
    const social = createFakeSocial(() => {
      throw new SocialSdkUnavailableError('facebook', 'Facebook is not configured');
    });
    const { alert } = renderChannels(fakeApi(), MANAGER, social);
    await userEvent.click(screen.getByRole('button', { name: 'Connect Facebook page' }));
    await waitFor(() => expect(alert().text).toBe('Facebook, Messenger and Instagram are not configured on this server. Ask your administrator.'));
    expect(alert().type).toBe('error');
  });
});

describe('ChannelsPage disconnect and retry', () => {
  beforeEach(() => localStorage.clear());

  it("disconnects after confirmation, explaining that conversations are kept, and says 'Channel disconnected'", async () => {
    const http = fakeApi();
    const { alertText } = renderChannels(http);
    await userEvent.click(within(await screen.findByRole('listitem', { name: 'Acme Store' })).getByRole('button', { name: 'Disconnect Acme Store' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect channel' });
    expect(dialog).toHaveTextContent('Its conversations are kept.');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(http.calls.some((c) => c.method === 'DELETE')).toBe(false);

    await userEvent.click(within(card('Acme Store')).getByRole('button', { name: 'Disconnect Acme Store' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(alertText()).toBe('Channel disconnected'));
    expect(http.calls.find((c) => c.method === 'DELETE')?.path).toBe('/api/channels/5/');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Acme Store' })).not.toBeInTheDocument());
  });

  it("shows the server's refusal of a disconnect", async () => {
    const http = fakeApi({
      extra: (method) => {
        if (method === 'DELETE') throw new HttpError(400, { detail: 'The sandbox cannot be disconnected.' });
      },
    });
    const { alertText } = renderChannels(http);
    await userEvent.click(within(await screen.findByRole('listitem', { name: 'Support line' })).getByRole('button', { name: 'Disconnect Support line' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(alertText()).toBe('The sandbox cannot be disconnected.'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(card('Support line')).toBeInTheDocument();
  });

  it('retries a partly failed WhatsApp setup and refreshes the list', async () => {
    const http = fakeApi();
    const { alertText } = renderChannels(http);
    const billing = await screen.findByRole('listitem', { name: 'Billing line' });
    expect(screen.getAllByRole('button', { name: 'Retry setup' })).toHaveLength(1);
    await userEvent.click(within(billing).getByRole('button', { name: 'Retry setup' }));
    await waitFor(() => expect(alertText()).toBe('WhatsApp setup completed'));
    expect(http.calls.find((c) => c.path === '/api/wa-onboard/retry/')?.options.body).toEqual({ external_id: 'pn-3' });
    await waitFor(() => expect(within(card('Billing line')).getByText('Connected')).toBeInTheDocument());
    expect(within(card('Billing line')).queryByRole('button', { name: 'Retry setup' })).not.toBeInTheDocument();
  });

  it('says what still fails when the retry does not finish the setup', async () => {
    const http = fakeApi({
      extra: (method, path) => {
        if (method === 'POST' && path === '/api/wa-onboard/retry/')
          return { status: 'partial_failure', external_id: 'pn-3', channel_id: 3, steps: [], error: 'PIN mismatch', already_connected: false };
      },
    });
    const { alertText } = renderChannels(http);
    await userEvent.click(within(await screen.findByRole('listitem', { name: 'Billing line' })).getByRole('button', { name: 'Retry setup' }));
    await waitFor(() => expect(alertText()).toBe('The setup is still incomplete: PIN mismatch'));
  });
});
