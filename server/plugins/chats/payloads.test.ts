/**
 * Hostile and minimal payloads on the inbox topics, over a raw websocket: a NUL anywhere is an
 * `invalid payload` reply naming the field and the channel stays joined; a frame nested too deep is
 * refused unparsed; send_message works without our client_id (spec §7 `send message {message}`);
 * media_url takes https, our own /media/ paths and this server's media URLs, nothing else.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MEDIA_URL_MESSAGE, type Message } from '../../../contract/chats';
import { NUL_MESSAGE } from '../../core/input/nul';
import { startRealtimeApp, waitFor, type RealtimeTestApp } from '../../core/realtime/testSupport';
import { ensureSandboxChannel } from '../sandbox';
import { chatService } from './index';
import type { ChannelRow } from './views';

type Frame = [string | null, string | null, string, string, Record<string, unknown>];
const NUL = '\u0000';

let rt: RealtimeTestApp;
let sandbox: ChannelRow;
let roomId: number;
const sockets: WebSocket[] = [];

class Client {
  readonly frames: Frame[] = [];
  private ref = 0;
  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.frames.push(JSON.parse(data.toString())));
  }
  sendRaw(text: string): void {
    this.ws.send(text);
  }
  async push(topic: string, event: string, payload: unknown, joinRef = '1'): Promise<{ status: string; response: Record<string, unknown> }> {
    const ref = String(++this.ref + 100);
    this.ws.send(JSON.stringify([joinRef, ref, topic, event, payload]));
    return this.reply(ref);
  }
  async reply(ref: string): Promise<{ status: string; response: Record<string, unknown> }> {
    await waitFor(() => this.frames.some((f) => f[1] === ref && f[3] === 'phx_reply'), 3_000, `reply ${ref}`);
    return this.frames.find((f) => f[1] === ref && f[3] === 'phx_reply')![4] as { status: string; response: Record<string, unknown> };
  }
}

async function open(): Promise<Client> {
  const query = new URLSearchParams({ token: rt.access, company_id: String(rt.companyId), vsn: '2.0.0' });
  const ws = new WebSocket(`${rt.endpoint}/websocket?${query}`);
  sockets.push(ws);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return new Client(ws);
}

/** A socket joined to the room (join_ref "1") and to the sandbox page (join_ref "2"). */
async function joined(): Promise<Client> {
  const client = await open();
  expect((await client.push(`room:${roomId}`, 'phx_join', {}, '1')).status).toBe('ok');
  expect((await client.push(`page:${sandbox.id}`, 'phx_join', {}, '2')).status).toBe('ok');
  return client;
}

beforeAll(async () => {
  rt = await startRealtimeApp({ email: 'payloads@acme.test' });
  sandbox = await ensureSandboxChannel(rt.t.db, rt.companyId);
  const res = await rt.t.app.inject({
    method: 'POST',
    url: `/api/sandbox/${sandbox.simulatorKey}/conversations/maria/messages/`,
    payload: { name: 'Maria', text: 'Hello', client_id: 'c-1' },
  });
  roomId = res.json().message.room_id;
});
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await waitFor(() => rt.hub().socketCount() === 0, 3_000, 'sockets to close');
});
afterAll(async () => {
  await chatService(rt.t.app).settled();
  await rt.close();
});

describe('NUL characters on the socket', () => {
  it('are refused with the field named, on every push and join, and the channels stay joined', async () => {
    const client = await joined();
    const refused = (errors: Record<string, string[]>) => ({ status: 'error', response: { reason: 'invalid payload', errors } });
    expect(await client.push(`room:${roomId}`, 'send_message', { message: { text: `hi${NUL}` } })).toEqual(refused({ 'message.text': [NUL_MESSAGE] }));
    expect(await client.push(`room:${roomId}`, 'add_tag', { tag: `vip${NUL}` })).toEqual(refused({ tag: [NUL_MESSAGE] }));
    expect(await client.push(`page:${sandbox.id}`, 'fetch_rooms', { search: `ma${NUL}` }, '2')).toEqual(refused({ search: [NUL_MESSAGE] }));
    expect(await client.push(`page:${sandbox.id}`, 'create_new_chat_room', { messages: [{ text: `x${NUL}` }] }, '2')).toEqual(refused({ 'messages.0.text': [NUL_MESSAGE] }));
    expect(await client.push('room:999999', 'phx_join', { [`k${NUL}`]: 1 }, '9')).toEqual(refused({ 'k\\u0000': [NUL_MESSAGE] }));

    // Nothing crashed: no phx_error, and the same channels still answer.
    expect(client.frames.filter((f) => f[3] === 'phx_error')).toEqual([]);
    expect((await client.push(`room:${roomId}`, 'add_tag', { tag: 'vip' })).status).toBe('ok');
    const rooms = await client.push(`page:${sandbox.id}`, 'fetch_rooms', { search: 'maria' }, '2');
    expect((rooms.response.rooms as { id: number }[]).map((r) => r.id)).toEqual([roomId]);
  });

  it('a frame nested deeper than the limit is answered unparsed, and the socket goes on', async () => {
    const client = await joined();
    const deep = '['.repeat(5_000) + ']'.repeat(5_000);
    client.sendRaw(`["1","deep-1","room:${roomId}","send_message",{"message":${deep}}]`);
    expect(await client.reply('deep-1')).toEqual({ status: 'error', response: { reason: 'payload nested too deeply' } });
    expect((await client.push(`room:${roomId}`, 'send_message', { message: { text: 'still here' } })).status).toBe('ok');
  });
});

describe('ids out of the database range', () => {
  it('are an invalid payload, not a failed query that crashes the channel', async () => {
    const client = await joined();
    const invalid = (reply: { status: string; response: Record<string, unknown> }) => expect(reply).toMatchObject({ status: 'error', response: { reason: 'invalid payload' } });
    invalid(await client.push(`page:${sandbox.id}`, 'fetch_rooms', { tags: [1e12] }, '2'));
    invalid(await client.push(`page:${sandbox.id}`, 'fetch_rooms', { pages: [2 ** 40], page: 1.5 }, '2'));
    invalid(await client.push(`room:${roomId}`, 'fetch_messages', { before_id: 1e15 }));
    expect(client.frames.filter((f) => f[3] === 'phx_error')).toEqual([]);
    expect((await client.push(`room:${roomId}`, 'fetch_messages', { before_id: 2_147_483_647 })).status).toBe('ok');
    // A join with an impossible last_message_id is refused (like any invalid join); a proper one works again.
    invalid(await client.push(`room:${roomId}`, 'phx_join', { last_message_id: 2 ** 40 }, '3'));
    expect((await client.push(`room:${roomId}`, 'phx_join', { last_message_id: 2_147_483_647 }, '4')).status).toBe('ok');
    expect(client.frames.filter((f) => f[3] === 'phx_error')).toEqual([]);
  });
});

describe('send_message', () => {
  it('accepts a message without client_id (no idempotency: each push is a message) and names nested fields in errors', async () => {
    const client = await joined();
    const first = await client.push(`room:${roomId}`, 'send_message', { message: { text: 'No client id' } });
    const second = await client.push(`room:${roomId}`, 'send_message', { message: { text: 'No client id' } });
    expect(first.status).toBe('ok');
    const [a, b] = [first.response.message as Message, second.response.message as Message];
    expect(a).toMatchObject({ text: 'No client id', client_id: null, origin: 'agent' });
    expect(b.id).not.toBe(a.id);

    expect(await client.push(`room:${roomId}`, 'send_message', { message: { text: 'x', client_id: { toString: 1 } } })).toEqual({
      status: 'error',
      response: { reason: 'invalid payload', errors: { 'message.client_id': [expect.any(String)] } },
    });
    // With a client_id, a resend is still the stored message.
    const once = await client.push(`room:${roomId}`, 'send_message', { message: { text: 'Once', client_id: 'once-1' } });
    const twice = await client.push(`room:${roomId}`, 'send_message', { message: { text: 'Once', client_id: 'once-1' } });
    expect((twice.response.message as Message).id).toBe((once.response.message as Message).id);
  });

  it('takes media_url only as https, our /media/ paths or this server’s media URL', async () => {
    const client = await joined();
    const send = (media_url: string) => client.push(`room:${roomId}`, 'send_message', { message: { text: 'file', type: 'image', media_url } });
    for (const bad of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'http://evil.example/x.png', '//evil.example/media/x.png', '/api/members/', '/media/../api/x', 'https://user:pw@cdn.example/x.png', 'file:///etc/passwd']) {
      expect(await send(bad), bad).toEqual({ status: 'error', response: { reason: 'invalid payload', errors: { 'message.media_url': [MEDIA_URL_MESSAGE] } } });
    }
    for (const good of ['https://cdn.example.com/cat.png', `/media/chats/${rt.companyId}/cat.png`, `${rt.t.config.publicUrl}/media/chats/${rt.companyId}/cat.png`]) {
      expect((await send(good)).status, good).toBe('ok');
    }
  });
});
