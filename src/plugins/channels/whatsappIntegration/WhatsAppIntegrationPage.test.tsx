// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SignupStatusResponse, SignupStep, SignupStepName } from '../../../../contract/channels';
import { HttpError, SocialDialogClosedError, SocialSdkUnavailableError, type EmbeddedSignupResult, type RequestOptions, type SocialApi } from '../../../core';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { integrationUser, renderIntegration } from './testing/renderIntegration';
import { readSignupData, SIGNUP_DATA_KEY } from './signupData';

const RESULT: EmbeddedSignupResult = { code: 'fb-code', phone_number_id: 'pn-1', waba_id: 'waba-1', non_json_data: 'cb=f12&origin=x' };

function steps(done: number, failed?: { name: SignupStepName; error: string }): SignupStep[] {
  const names: SignupStepName[] = ['exchange_code', 'phone_number', 'register_phone', 'subscribe_webhooks'];
  return names.map((name, i) => {
    if (failed?.name === name) return { name, status: 'failed', error: failed.error, at: null };
    return { name, status: i < done ? 'done' : 'pending', error: null, at: null };
  });
}

function status(s: SignupStatusResponse['status'], stepList: SignupStep[], extra: Partial<SignupStatusResponse> = {}): SignupStatusResponse {
  return { status: s, external_id: 'pn-1', channel_id: 42, steps: stepList, error: null, already_connected: false, ...extra };
}

const CHANNELS = {
  count: 1,
  company_connected: true,
  results: [{ id: 42, external_id: 'pn-1', platform: 'whatsapp', name: 'Demo', display_phone_number: '+1 555-0100', status: 'active' }],
};

function fakeSocial(...outcomes: (EmbeddedSignupResult | Error)[]): SocialApi & { calls: number } {
  const social = {
    calls: 0,
    clientConfig: vi.fn(),
    facebookLogin: vi.fn(),
    googleLogin: vi.fn(),
    async facebookEmbeddedSignup() {
      const outcome = outcomes[Math.min(social.calls, outcomes.length - 1)];
      social.calls += 1;
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
  };
  return social as unknown as SocialApi & { calls: number };
}

type Handler = (method: string, path: string, options: RequestOptions) => unknown;

/** The wa-onboard API: `signup` answers the POST, `polls` the successive GET status answers (the last repeats). */
function fakeApi(options: {
  signup: Handler;
  polls?: (SignupStatusResponse | (() => unknown))[];
  retry?: Handler;
  channels?: unknown;
  members?: unknown;
}) {
  let poll = 0;
  return createFakeHttp((method, path, opts) => {
    if (method === 'POST' && path === '/api/wa-onboard/embedded_signup/') return options.signup(method, path, opts);
    if (method === 'GET' && path === '/api/wa-onboard/signup_status/') {
      const list = options.polls ?? [];
      const answer = list[Math.min(poll++, list.length - 1)];
      return typeof answer === 'function' ? answer() : answer;
    }
    if (method === 'POST' && path === '/api/wa-onboard/retry/' && options.retry) return options.retry(method, path, opts);
    if (method === 'GET' && path === '/api/channels/') return options.channels ?? CHANNELS;
    if (method === 'GET' && path === '/api/members/' && options.members) return options.members;
    throw new Error(`unexpected ${method} ${path}`);
  });
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const stepState = (name: SignupStepName) => screen.getByTestId(`signup-step-${name}`).getAttribute('data-state');
const continueWithFacebook = async () => userEvent.click(await screen.findByRole('button', { name: 'Continue with Facebook' }));

describe('WhatsApp integration pages', () => {
  beforeEach(() => localStorage.clear());

  it('redirects to intro-step, which lists what is needed; Get started → start, Back to channels → /channels', async () => {
    renderIntegration({ path: '/whatsapp-integration', http: fakeApi({ signup: () => undefined }), social: fakeSocial(RESULT) });
    expect(await screen.findByRole('heading', { name: 'Connect your WhatsApp number' })).toBeInTheDocument();
    expect(screen.getByText(/Facebook account with admin access to your business/)).toBeInTheDocument();
    expect(screen.getByText(/can receive an SMS or a voice call/)).toBeInTheDocument();
    expect(screen.getByText(/must not be in use on the WhatsApp app/)).toBeInTheDocument();
    expect(screen.getByText('Business Messaging Console')).toBeInTheDocument();
    expect(screen.getByText(/Demo Company/)).toBeInTheDocument();
    expect(readSignupData()).toMatchObject({ current_step: 'intro-step', email: 'ada@example.com', company: 1 });

    await userEvent.click(screen.getByRole('button', { name: 'Get started' }));
    expect(await screen.findByRole('button', { name: 'Continue with Facebook' })).toBeInTheDocument();
    expect(readSignupData()?.current_step).toBe('start');
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Back to channels' }));
    expect(await screen.findByTestId('elsewhere')).toHaveTextContent('/channels');
  });

  it('happy path: embedded signup, POST with the spec fields, progress per step, then success with the number', async () => {
    const gate = deferred();
    const http = fakeApi({
      signup: () => status('in_progress', steps(1)),
      polls: [
        status('in_progress', steps(2)),
        async () => {
          await gate.promise;
          return status('completed', steps(4));
        },
      ],
    });
    renderIntegration({ path: '/whatsapp-integration/start', http, social: fakeSocial(RESULT) });
    await continueWithFacebook();

    // progress: the server's steps with friendly labels
    await waitFor(() => expect(stepState('phone_number')).toBe('done'));
    expect(screen.getByText('Authorising the console with Facebook')).toBeInTheDocument();
    expect(screen.getByText('Registering the number on WhatsApp')).toBeInTheDocument();
    expect(stepState('exchange_code')).toBe('done');
    expect(stepState('register_phone')).toBe('running');
    expect(stepState('subscribe_webhooks')).toBe('pending');
    expect(readSignupData()).toMatchObject({ current_step: 'provisioning', external_id: 'pn-1' });

    const post = http.calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe('/api/wa-onboard/embedded_signup/');
    expect(post.options.body).toEqual({
      phone_number_id: 'pn-1',
      waba_id: 'waba-1',
      code: 'fb-code',
      non_json_data: 'cb=f12&origin=x',
      company: 1,
      email: 'ada@example.com',
    });
    const poll = http.calls.find((c) => c.path === '/api/wa-onboard/signup_status/')!;
    expect(poll.options.query).toEqual({ external_id: 'pn-1' });

    gate.resolve();
    expect(await screen.findByRole('heading', { name: 'Your WhatsApp number is connected' })).toBeInTheDocument();
    expect(await screen.findByTestId('connected-number')).toHaveTextContent('+1 555-0100');
    expect(screen.queryByRole('button', { name: 'Retry setup' })).not.toBeInTheDocument();
    // completed: the local signup data is gone
    await waitFor(() => expect(localStorage.getItem(SIGNUP_DATA_KEY)).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: 'Open chats' }));
    expect(await screen.findByTestId('elsewhere')).toHaveTextContent('/chats');
  });

  it('keeps the embedded signup data locally with the spec fields while the server works', async () => {
    const http = fakeApi({ signup: () => status('in_progress', steps(0)), polls: [status('in_progress', steps(1))] });
    renderIntegration({ path: '/whatsapp-integration/start', http, social: fakeSocial(RESULT) });
    await continueWithFacebook();
    await waitFor(() => expect(readSignupData()?.current_step).toBe('provisioning'));
    const data = JSON.parse(localStorage.getItem(SIGNUP_DATA_KEY)!);
    expect(data).toMatchObject({
      phone_number_id: 'pn-1',
      waba_id: 'waba-1',
      code: 'fb-code',
      non_json_data: 'cb=f12&origin=x',
      virtual_number: null,
      is_virtual_number_flow: false,
      current_step: 'provisioning',
      company_invites: ['Demo Company', 'Other Co'],
      email: 'ada@example.com',
      company: 1,
      external_id: 'pn-1',
    });
  });

  it('partial failure: connected, names the failed step; Retry setup posts retry/ and polls to completion', async () => {
    const http = fakeApi({
      signup: () => status('in_progress', steps(1)),
      polls: [status('partial_failure', steps(2, { name: 'register_phone', error: 'Two-step PIN mismatch' }), { error: 'Two-step PIN mismatch' }), status('completed', steps(4))],
      retry: () => status('in_progress', steps(2)),
    });
    renderIntegration({ path: '/whatsapp-integration/start', http, social: fakeSocial(RESULT) });
    await continueWithFacebook();
    expect(await screen.findByRole('heading', { name: 'Your WhatsApp number is connected' })).toBeInTheDocument();

    const note = await screen.findByText(/one setup step failed: Registering the number on WhatsApp/);
    expect(note).toBeInTheDocument();
    expect(screen.getByText('Two-step PIN mismatch')).toBeInTheDocument();
    // not completed yet: the local data stays (the retry needs the external id)
    expect(readSignupData()).toMatchObject({ current_step: 'integration-success', external_id: 'pn-1' });

    await userEvent.click(screen.getByRole('button', { name: 'Retry setup' }));
    const retry = http.calls.find((c) => c.path === '/api/wa-onboard/retry/')!;
    expect(retry).toMatchObject({ method: 'POST', options: { body: { external_id: 'pn-1' } } });
    await waitFor(() => expect(screen.queryByText(/one setup step failed/)).not.toBeInTheDocument());
    await waitFor(() => expect(localStorage.getItem(SIGNUP_DATA_KEY)).toBeNull());
    expect(screen.getByRole('heading', { name: 'Your WhatsApp number is connected' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Go to channels' }));
    expect(await screen.findByTestId('elsewhere')).toHaveTextContent('/channels');
  });

  it("failed: shows the server's error and Try again restarts the Facebook flow", async () => {
    let attempt = 0;
    const http = fakeApi({
      signup: () => (++attempt === 1 ? status('failed', steps(0, { name: 'exchange_code', error: 'Invalid code' }), { error: 'The code has expired.' }) : status('completed', steps(4))),
    });
    const social = fakeSocial(RESULT);
    renderIntegration({ path: '/whatsapp-integration/start', http, social });
    await continueWithFacebook();
    expect(await screen.findByText('Your WhatsApp number could not be connected')).toBeInTheDocument();
    expect(screen.getByText('The code has expired.')).toBeInTheDocument();
    expect(readSignupData()?.current_step).toBe('failed');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Your WhatsApp number is connected' })).toBeInTheDocument();
    expect(social.calls).toBe(2);
  });

  it('a server error on submit is shown with Try again', async () => {
    const http = fakeApi({
      signup: () => {
        throw new HttpError(400, { code: ['This code was already used.'] });
      },
    });
    renderIntegration({ path: '/whatsapp-integration/start', http, social: fakeSocial(RESULT) });
    await continueWithFacebook();
    expect(await screen.findByText('This code was already used.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('already connected (409) → account-already-connected', async () => {
    const http = fakeApi({
      signup: () => {
        throw new HttpError(409, { already_connected: true, detail: 'This number is already connected.' });
      },
    });
    renderIntegration({ path: '/whatsapp-integration/start', http, social: fakeSocial(RESULT) });
    await continueWithFacebook();
    expect(await screen.findByRole('heading', { name: 'This WhatsApp number is already connected' })).toBeInTheDocument();
    expect(screen.getByText(/to this company or to another company/)).toBeInTheDocument();
    expect(readSignupData()?.current_step).toBe('account-already-connected');
    await userEvent.click(screen.getByRole('button', { name: 'Go to channels' }));
    expect(await screen.findByTestId('elsewhere')).toHaveTextContent('/channels');
  });

  it('already connected (200 with already_connected) → account-already-connected', async () => {
    const http = fakeApi({ signup: () => status('completed', steps(4), { already_connected: true }) });
    renderIntegration({ path: '/whatsapp-integration/start', http, social: fakeSocial(RESULT) });
    await continueWithFacebook();
    expect(await screen.findByRole('heading', { name: 'This WhatsApp number is already connected' })).toBeInTheDocument();
  });

  it("a closed Facebook dialog warns 'Facebook login was closed' and stays on start", async () => {
    const http = fakeApi({ signup: () => undefined });
    const { alert } = renderIntegration({ path: '/whatsapp-integration/start', http, social: fakeSocial(new SocialDialogClosedError('facebook')) });
    await continueWithFacebook();
    await waitFor(() => expect(alert()).toMatchObject({ active: true, text: 'Facebook login was closed', type: 'warning' }));
    expect(screen.getByRole('button', { name: 'Continue with Facebook' })).toBeEnabled();
    expect(http.calls).toHaveLength(0);
    expect(readSignupData()?.current_step).toBe('start');
  });

  it('an SDK that cannot load shows a plain message with a retry button', async () => {
    const http = fakeApi({ signup: () => status('completed', steps(4)) });
    const social = fakeSocial(new SocialSdkUnavailableError('facebook', 'offline'), RESULT);
    const { alert } = renderIntegration({ path: '/whatsapp-integration/start', http, social });
    await continueWithFacebook();
    const message = await screen.findByText('Facebook could not be loaded');
    const box = message.closest('[role="status"]') as HTMLElement;
    expect(within(box).getByText(/offline/)).toBeInTheDocument();
    expect(alert().active).toBe(false);
    await userEvent.click(within(box).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Your WhatsApp number is connected' })).toBeInTheDocument();
    expect(social.calls).toBe(2);
  });

  it('a server without a Meta app says WhatsApp is not configured, with nothing to retry', async () => {
    const social = fakeSocial(new SocialSdkUnavailableError('facebook', 'Facebook is not configured'));
    social.clientConfig = vi.fn(async () => ({ facebook: null, google: null }));
    renderIntegration({ path: '/whatsapp-integration/start', http: fakeApi({ signup: () => undefined }), social });
    await continueWithFacebook();
    const title = await screen.findByText('WhatsApp is not configured on this server');
    const box = title.closest('[role="status"]') as HTMLElement;
    expect(within(box).getByText(/no Meta app configured/)).toBeInTheDocument();
    expect(within(box).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByText('Facebook could not be loaded')).not.toBeInTheDocument();
  });

  it('members who cannot manage channels, sent to start by a link, are told to ask an admin', async () => {
    const social = fakeSocial(RESULT);
    renderIntegration({
      path: '/whatsapp-integration/start',
      http: fakeApi({ signup: () => undefined }),
      social,
      user: integrationUser({ can_view_channels: true }),
    });
    expect(await screen.findByRole('heading', { name: 'An admin connects WhatsApp' })).toBeInTheDocument();
    expect(screen.getByText(/Ask an admin of Demo Company to connect WhatsApp\./)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue with Facebook' })).not.toBeInTheDocument();
  });

  it('intro: members who cannot manage channels get no Get started, but whom to ask (the admins, when they may read the team)', async () => {
    const members = {
      count: 3,
      results: [
        { id: 1, first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', role_id: 'admin', is_current_user: false },
        { id: 2, first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com', role_id: 'admin', is_current_user: false },
        { id: 3, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', role_id: 'agent', is_current_user: true },
      ],
    };
    const http = fakeApi({ signup: () => undefined, members });
    renderIntegration({
      path: '/whatsapp-integration/intro-step',
      http,
      social: fakeSocial(RESULT),
      user: integrationUser({ can_view_channels: true, can_manage_channels: false, can_view_members: true }),
    });
    expect(await screen.findByText(/Ask an admin of Demo Company to connect WhatsApp\./)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Get started' })).not.toBeInTheDocument();
    expect(await screen.findByTestId('company-admins')).toHaveTextContent('Admins: Grace Hopper, Alan Turing');
  });

  it('intro: without access to the team, the message names no one and the members are not read', async () => {
    const http = fakeApi({ signup: () => undefined });
    renderIntegration({
      path: '/whatsapp-integration/intro-step',
      http,
      social: fakeSocial(RESULT),
      user: integrationUser({ can_view_channels: true, can_manage_channels: false, can_view_members: false }),
    });
    expect(await screen.findByText(/Ask an admin of Demo Company to connect WhatsApp\./)).toBeInTheDocument();
    expect(screen.queryByTestId('company-admins')).not.toBeInTheDocument();
    expect(http.calls.some((c) => c.path === '/api/members/')).toBe(false);
  });

  it('integration-success opened directly with nothing connected says so and offers to connect', async () => {
    const http = fakeApi({ signup: () => undefined, channels: { count: 0, company_connected: false, results: [] } });
    renderIntegration({ path: '/whatsapp-integration/integration-success', http, social: fakeSocial(RESULT) });
    expect(await screen.findByRole('heading', { name: 'No WhatsApp number is connected yet' })).toBeInTheDocument();
    expect(screen.queryByText('Your WhatsApp number is connected')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Connect WhatsApp' }));
    expect(await screen.findByRole('heading', { name: 'Connect your WhatsApp number' })).toBeInTheDocument();
  });

  it('account-already-connected opened directly shows the connected number of the company', async () => {
    const channels = { count: 1, company_connected: true, results: [{ ...CHANNELS.results[0], connected: true }] };
    renderIntegration({ path: '/whatsapp-integration/account-already-connected', http: fakeApi({ signup: () => undefined, channels }), social: fakeSocial(RESULT) });
    expect(await screen.findByRole('heading', { name: 'Your WhatsApp number is connected' })).toBeInTheDocument();
    expect(screen.getByTestId('connected-number')).toHaveTextContent('+1 555-0100');
    expect(screen.queryByText('This WhatsApp number is already connected')).not.toBeInTheDocument();
  });

  it('resumes polling after a reload during provisioning, and stops polling on unmount', async () => {
    localStorage.setItem(
      SIGNUP_DATA_KEY,
      JSON.stringify({ current_step: 'provisioning', external_id: 'pn-1', email: 'ada@example.com', company: 1, company_invites: [] }),
    );
    const http = fakeApi({ signup: () => undefined, polls: [status('in_progress', steps(3))] });
    const { unmount } = renderIntegration({ path: '/whatsapp-integration/start', http, social: fakeSocial(RESULT) });
    await waitFor(() => expect(stepState('subscribe_webhooks')).toBe('running'));
    expect(screen.getByText(/Setting up your WhatsApp number/)).toBeInTheDocument();
    unmount();
    const count = http.calls.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(http.calls.length).toBe(count);
  });

  it('integration-success after a reload reads the status from the server', async () => {
    localStorage.setItem(
      SIGNUP_DATA_KEY,
      JSON.stringify({ current_step: 'integration-success', external_id: 'pn-1', email: 'ada@example.com', company: 1, company_invites: [] }),
    );
    const http = fakeApi({ signup: () => undefined, polls: [status('partial_failure', steps(3, { name: 'subscribe_webhooks', error: 'Rate limited' }))] });
    renderIntegration({ path: '/whatsapp-integration/integration-success', http, social: fakeSocial(RESULT) });
    expect(await screen.findByText(/one setup step failed: Subscribing to incoming messages/)).toBeInTheDocument();
    expect(await screen.findByTestId('connected-number')).toHaveTextContent('+1 555-0100');
  });

  it('unknown children go to intro-step', async () => {
    renderIntegration({ path: '/whatsapp-integration/nope', http: fakeApi({ signup: () => undefined }), social: fakeSocial(RESULT) });
    expect(await screen.findByRole('heading', { name: 'Connect your WhatsApp number' })).toBeInTheDocument();
  });
});
