/**
 * Per-subscriber broadcast filtering (handleOut, Phoenix's handle_out) and presence untracking while
 * the channel stays joined, seen through the official phoenix.js client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'phoenix';
import { connect, disconnect, ECHO_ACCESS, join, phoenixSocket, push, sleep, startRealtimeApp, waitFor, type RealtimeTestApp } from './testSupport';
import type { ChannelHandler, RealtimeHub } from './types';

let rt: RealtimeTestApp;
let socket: Socket;

function filteredHandler(hub: () => RealtimeHub): ChannelHandler {
  return {
    async join() {
      return { status: 'ok', response: {} };
    },
    async handleIn(event, _payload, ctx) {
      if (event === 'track') hub().trackPresence(ctx, String(ctx.identity.userId), { name: ctx.identity.firstName });
      if (event === 'untrack') hub().untrackPresence(ctx);
      return { status: 'ok', response: {} };
    },
    async handleOut(_event, payload) {
      const p = payload as { n: number; drop?: boolean; slow?: boolean; rewrite?: boolean };
      if (p.slow) await sleep(80);
      if (p.drop) return null;
      return p.rewrite ? { n: p.n, rewritten: true } : payload;
    },
  };
}

beforeAll(async () => {
  rt = await startRealtimeApp();
  rt.hub().registerChannel('filtered', ECHO_ACCESS, filteredHandler(() => rt.hub()));
  socket = phoenixSocket(rt.endpoint, 'websocket', { token: rt.access, company_id: String(rt.companyId) });
  await connect(socket);
});
afterAll(async () => {
  await disconnect(socket);
  await rt.close();
});

describe('handleOut', () => {
  it('drops, rewrites and keeps the order of broadcasts for each subscriber', async () => {
    const channel = socket.channel('filtered:1', {});
    const received: unknown[] = [];
    channel.on('tick', (payload) => {
      received.push(payload);
    });
    expect((await join(channel)).status).toBe('ok');

    await rt.hub().broadcast('filtered:1', 'tick', { n: 1, slow: true });
    await rt.hub().broadcast('filtered:1', 'tick', { n: 2, drop: true });
    await rt.hub().broadcast('filtered:1', 'tick', { n: 3, rewrite: true });
    await rt.hub().broadcast('filtered:1', 'tick', { n: 4 });
    await waitFor(() => received.length === 3, 3_000, 'three deliveries');
    await sleep(100);
    expect(received).toEqual([{ n: 1, slow: true }, { n: 3, rewritten: true }, { n: 4 }]);
  });
});

describe('untrackPresence', () => {
  it('sends the leave diff while the channel stays joined', async () => {
    const channel = socket.channel('filtered:2', {});
    const diffs: { joins: Record<string, unknown>; leaves: Record<string, unknown> }[] = [];
    channel.on('presence_diff', (d) => {
      diffs.push(d);
    });
    expect((await join(channel)).status).toBe('ok');

    expect((await push(channel, 'track')).status).toBe('ok');
    await waitFor(() => diffs.some((d) => Object.keys(d.joins).length > 0), 3_000, 'a presence join');
    expect((await push(channel, 'untrack')).status).toBe('ok');
    await waitFor(() => diffs.some((d) => Object.keys(d.leaves).length > 0), 3_000, 'a presence leave');
    expect(Object.keys(diffs.find((d) => Object.keys(d.leaves).length > 0)!.leaves)).toEqual([String(rt.userId)]);
    expect(await (rt.hub() as RealtimeHub & { listPresence(topic: string): Promise<object> }).listPresence('filtered:2')).toEqual({});
    // Still joined: pushes keep working.
    expect((await push(channel, 'noop')).status).toBe('ok');
  });
});
