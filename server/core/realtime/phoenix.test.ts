/**
 * Conformance with the official phoenix.js client (1.8) in Node, over websocket and long-poll:
 * connect, join, replies, broadcasts, heartbeat, leave, crash and rejoin, server restart, presence.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Presence, type Socket } from 'phoenix';
import {
  connect,
  disconnect,
  join,
  nextEvent,
  phoenixSocket,
  push,
  sleep,
  startRealtimeApp,
  waitFor,
  type RealtimeTestApp,
  type TransportName,
} from './testSupport';

let rt: RealtimeTestApp;

beforeAll(async () => {
  rt = await startRealtimeApp({ realtime: { longPollTimeoutMs: 300, idleTimeoutMs: 400, longPollSessionTtlMs: 400 } });
});
afterAll(async () => rt.close());

for (const transport of ['websocket', 'longpoll'] as TransportName[]) {
  describe(`phoenix.js over ${transport}`, () => {
    const sockets: Socket[] = [];

    const open = async (params?: object, opts = {}) => {
      const socket = phoenixSocket(rt.endpoint, transport, params ?? { token: rt.access, company_id: String(rt.companyId) }, opts);
      sockets.push(socket);
      await connect(socket);
      return socket;
    };

    afterEach(async () => {
      await Promise.all(sockets.splice(0).map(disconnect));
      await waitFor(() => rt.hub().socketCount() === 0, 3_000, 'sockets to close');
    });
    it('refuses a connection without a token, with a bad token, or for a company the user is not in', async () => {
      const foreign = await rt.t.seed.company(`Elsewhere ${transport}`);
      for (const params of [
        { company_id: String(rt.companyId) },
        { token: 'not-a-jwt', company_id: String(rt.companyId) },
        { token: rt.access, company_id: String(foreign) },
        { token: rt.access },
      ]) {
        await expect(open(params)).rejects.toThrow(/socket error/);
        await disconnect(sockets.pop()!);
      }
      expect(rt.hub().socketCount()).toBe(0);
    });

    it('joins with the handler reply, and reports refused joins and unknown topics', async () => {
      const socket = await open();
      expect(rt.hub().socketCount()).toBe(1);
      const ok = await join(socket.channel('echo:1', {}));
      expect(ok).toEqual({ status: 'ok', response: { topic: 'echo:1', user_id: rt.userId, company_id: rt.companyId, role: 'agent' } });

      const refusedChannel = socket.channel('echo:2', { refuse: 'not allowed' });
      expect(await join(refusedChannel)).toEqual({ status: 'error', response: { reason: 'not allowed' } });
      refusedChannel.leave();

      const unknown = socket.channel('nowhere:1', {});
      expect(await join(unknown)).toEqual({ status: 'error', response: { reason: 'unmatched topic' } });
      unknown.leave();

      const crashing = socket.channel('echo:3', { crash: true });
      expect(await join(crashing)).toEqual({ status: 'error', response: { reason: 'join crashed' } });
      crashing.leave();
    });

    it('answers pushes with replies under the same ref, and pushes to the client', async () => {
      const socket = await open();
      const channel = socket.channel('echo:1', {});
      await join(channel);
      expect(await push(channel, 'echo', { text: 'héllo', n: 1 })).toEqual({ status: 'ok', response: { text: 'héllo', n: 1 } });
      expect(await push(channel, 'fail')).toEqual({ status: 'error', response: { reason: 'failed on purpose' } });
      // Pushes made back to back are all answered, in order.
      const replies = await Promise.all([1, 2, 3, 4, 5].map((n) => push(channel, 'echo', { n })));
      expect(replies.map((r) => (r.response as { n: number }).n)).toEqual([1, 2, 3, 4, 5]);

      const pushed = nextEvent(channel, 'pushed');
      await push(channel, 'push', { to: 'me' });
      expect(await pushed).toEqual({ to: 'me' });
    });

    it('delivers server broadcasts to every socket joined to the topic', async () => {
      const a = await open();
      const b = await open();
      const chA = a.channel('echo:news', {});
      const chB = b.channel('echo:news', {});
      const other = b.channel('echo:other', {});
      await Promise.all([join(chA), join(chB), join(other)]);

      let otherGot = 0;
      other.on('headline', () => {
        otherGot++;
      });
      const gotA = nextEvent(chA, 'headline');
      const gotB = nextEvent(chB, 'headline');
      await rt.hub().broadcast('echo:news', 'headline', { title: 'Hello' });
      expect(await gotA).toEqual({ title: 'Hello' });
      expect(await gotB).toEqual({ title: 'Hello' });

      // A client-triggered broadcast reaches the sender too.
      const shoutedB = nextEvent(chB, 'shouted');
      await push(chA, 'shout', { from: 'a' });
      expect(await shoutedB).toEqual({ from: 'a' });
      expect(otherGot).toBe(0);
    });

    it('keeps a live socket open past the idle timeout (heartbeats, or polling)', async () => {
      let opens = 0;
      const socket = await open(undefined, { heartbeatIntervalMs: 100 });
      socket.onOpen(() => {
        opens++;
      });
      const channel = socket.channel('echo:1', {});
      await join(channel);
      await sleep(1_000);
      expect(socket.isConnected()).toBe(true);
      expect(opens).toBe(0);
      expect(await push(channel, 'echo', { still: 'here' })).toEqual({ status: 'ok', response: { still: 'here' } });
    });

    it('leaves: ok reply, terminate, and no more broadcasts', async () => {
      const socket = await open();
      const channel = socket.channel('echo:leave', {});
      await join(channel);
      let after = 0;
      channel.on('late', () => {
        after++;
      });
      const left = await new Promise((resolve) => channel.leave().receive('ok', () => resolve('ok')));
      expect(left).toBe('ok');
      await waitFor(() => rt.terminated.includes('echo:leave'), 2_000, 'terminate');
      await rt.hub().broadcast('echo:leave', 'late', {});
      await sleep(100);
      expect(after).toBe(0);
    });

    it('turns a handler crash into phx_error; the client rejoins by itself', async () => {
      const socket = await open();
      const channel = socket.channel('echo:crash', {});
      await join(channel);
      const errored = new Promise((resolve) => channel.onError((reason) => resolve(reason ?? 'error')));
      const crashed = await push(channel, 'boom', {}, 300);
      expect(crashed.status).toBe('timeout');
      await errored;
      await waitFor(() => (channel as unknown as { state: string }).state === 'joined', 3_000, 'the rejoin');
      expect(await push(channel, 'echo', { again: true })).toEqual({ status: 'ok', response: { again: true } });
      expect(socket.isConnected()).toBe(true);
    });

    it('presence: state and diffs in the format of the client Presence class', async () => {
      const a = await open();
      const b = await open();
      const chA = a.channel('echo:lobby', { presence: 'ada' });
      const presenceA = new Presence(chA);
      const left: string[] = [];
      presenceA.onLeave((key) => {
        if (key) left.push(key);
      });
      await join(chA);
      await waitFor(() => presenceA.list().length === 1, 2_000, 'own presence');

      const chB = b.channel('echo:lobby', { presence: 'bob' });
      const presenceB = new Presence(chB);
      await join(chB);
      const keys = (p: Presence) => p.list((key: string) => key).sort();
      await waitFor(() => keys(presenceA).join() === 'ada,bob', 2_000, 'A to see bob');
      await waitFor(() => keys(presenceB).join() === 'ada,bob', 2_000, 'B to see ada');
      const bob = presenceA.list((key: string, p: { metas: { name: string; phx_ref: string }[] }) => ({ key, p })).find((x) => x.key === 'bob')!;
      expect(bob.p.metas).toEqual([{ name: 'Ada', phx_ref: expect.any(String) }]);

      chB.leave();
      await waitFor(() => keys(presenceA).join() === 'ada', 2_000, 'bob to leave');
      expect(left).toContain('bob');

      // A socket that goes away leaves too.
      const c = await open();
      const chC = c.channel('echo:lobby', { presence: 'cy' });
      await join(chC);
      await waitFor(() => keys(presenceA).join() === 'ada,cy', 2_000, 'cy to join');
      await disconnect(c);
      await waitFor(() => keys(presenceA).join() === 'ada', 3_000, 'cy to leave on disconnect');
    });

    it('reconnects after a server restart and rejoins its channels', async () => {
      const socket = await open();
      const channel = socket.channel('echo:restart', {});
      await join(channel);
      await rt.t.restart();
      await waitFor(() => rt.hub().socketCount() === 1, 5_000, 'the reconnect');
      await waitFor(() => (channel as unknown as { state: string }).state === 'joined', 5_000, 'the rejoin');
      const news = nextEvent(channel, 'after_restart');
      await rt.hub().broadcast('echo:restart', 'after_restart', { ok: true });
      expect(await news).toEqual({ ok: true });
      expect(await push(channel, 'echo', { n: 1 })).toEqual({ status: 'ok', response: { n: 1 } });
    });
  });
}
