// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Message } from '../../../../contract/chats';
import { HttpError } from '../../../core';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { pageTranslations } from '../translations';
import { SandboxSimulatorPage } from './SandboxSimulatorPage';
import { mergeMessages } from './simulatorApi';

const KEY = 'abcdefghijklmnopqrstuvwx';
const route = '/sandbox/:key';

function message(id: number, fields: Partial<Message>): Message {
  return {
    id,
    room_id: 1,
    origin: 'user',
    type: 'text',
    text: null,
    media_url: null,
    media_type: null,
    data: null,
    status: null,
    error: null,
    client_id: null,
    sender_name: null,
    created_at: new Date(2026, 0, 1, 10, id).toISOString(),
    private: false,
    ...fields,
  };
}

describe('SandboxSimulatorPage', () => {
  beforeEach(() => localStorage.clear());

  it('says when the link is not valid', async () => {
    const http = createFakeHttp(() => {
      throw new HttpError(404, { detail: 'Not found.' });
    });
    renderPluginPage(<SandboxSimulatorPage />, { translations: [pageTranslations], path: `/sandbox/${KEY}`, route, http });
    expect(await screen.findByText(/This simulator link is not valid/)).toBeInTheDocument();
  });

  it('chooses a customer, shows what agents send, sends text, image links and button replies', async () => {
    let next = 10;
    const inbox: Message[] = [
      message(1, { origin: 'agent', text: 'Hello Maria, how can I help?', sender_name: 'Alex', status: 'read' }),
      message(2, { origin: 'bot', text: 'Pick one', data: { buttons: [{ id: 'track', title: 'Track an order' }] }, status: 'read' }),
    ];
    const http = createFakeHttp((method, path, options) => {
      if (path === `/api/sandbox/${KEY}/`) return { channel_id: 3, channel_name: 'Sandbox', company_name: 'Demo Company' };
      if (method === 'GET') return { blocked: false, messages: inbox.filter((m) => m.id > Number(options.query?.after_id ?? 0)) };
      const body = options.body as { text?: string; media_url?: string; button_reply?: { id: string; title: string } };
      return {
        message: message(++next, {
          text: body.button_reply?.title ?? body.text ?? null,
          media_url: body.media_url ?? null,
          type: body.button_reply ? 'button_reply' : body.media_url ? 'image' : 'text',
        }),
      };
    });
    renderPluginPage(<SandboxSimulatorPage />, { translations: [pageTranslations], path: `/sandbox/${KEY}`, route, http });
    expect(await screen.findByText(/writing to Demo Company on its Sandbox channel/)).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText(/Customer name/), 'Maria Lopez');
    const id = screen.getByLabelText(/Customer id/);
    await userEvent.clear(id);
    await userEvent.type(id, '+34600111222');
    await userEvent.click(screen.getByRole('button', { name: 'Start chatting' }));

    expect(await screen.findByText('Hello Maria, how can I help?')).toBeInTheDocument();
    expect(screen.getByText(/Alex · Read/)).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(`sandbox:${KEY}:customer`)!)).toEqual({ id: '+34600111222', name: 'Maria Lopez' });

    await userEvent.type(screen.getByRole('textbox', { name: 'Write a message…' }), 'I need help with my order');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('I need help with my order')).toBeInTheDocument();
    const sent = http.calls.find((c) => c.method === 'POST')!;
    expect(sent.path).toBe(`/api/sandbox/${KEY}/conversations/%2B34600111222/messages/`);
    expect(sent.options).toMatchObject({ auth: false, body: { name: 'Maria Lopez', text: 'I need help with my order', client_id: expect.any(String) } });

    await userEvent.click(screen.getByRole('button', { name: 'Track an order' }));
    await waitFor(() => expect(http.calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect(http.calls.filter((c) => c.method === 'POST')[1].options.body).toMatchObject({ button_reply: { id: 'track', title: 'Track an order' } });

    await userEvent.click(screen.getByRole('button', { name: 'Image link' }));
    await userEvent.type(screen.getByLabelText(/Image URL/), 'https://example.com/cat.png');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(http.calls.filter((c) => c.method === 'POST')).toHaveLength(3));
    expect(http.calls.filter((c) => c.method === 'POST')[2].options.body).toMatchObject({ media_url: 'https://example.com/cat.png', media_type: 'image' });

    // Polling continues from the last id: a new agent message shows up.
    inbox.push(message(100, { origin: 'agent', text: 'Your order ships today.', sender_name: 'Alex', status: 'delivered' }));
    expect(await screen.findByText('Your order ships today.', {}, { timeout: 3000 })).toBeInTheDocument();
    await waitFor(
      () => {
        const polls = http.calls.filter((c) => c.method === 'GET' && c.path.includes('/conversations/'));
        expect(polls.at(-1)!.options.query).toEqual({ after_id: 100 });
      },
      { timeout: 3000 },
    );
    expect(within(screen.getByRole('log')).getAllByTestId('sandbox-message')).toHaveLength(6);
  });

  it('shows a blocked conversation and hides the composer', async () => {
    localStorage.setItem(`sandbox:${KEY}:customer`, JSON.stringify({ id: 'spam-1', name: 'Spammer' }));
    const http = createFakeHttp((_method, path) => (path === `/api/sandbox/${KEY}/` ? { channel_id: 3, channel_name: 'Sandbox', company_name: 'Demo' } : { blocked: true, messages: [] }));
    renderPluginPage(<SandboxSimulatorPage />, { translations: [pageTranslations], path: `/sandbox/${KEY}`, route, http });
    expect(await screen.findByText('This conversation has been blocked by the company.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
  });

  it('merges polled messages by id', () => {
    const a = message(1, { text: 'a' });
    const b = message(2, { text: 'b' });
    expect(mergeMessages([a], [b, { ...a, status: 'read' }]).map((m) => [m.id, m.status])).toEqual([
      [1, 'read'],
      [2, null],
    ]);
  });
});
