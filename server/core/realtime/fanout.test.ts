/** Cross-process fan-out through Redis: two apps (two ports, one Redis), phoenix.js clients on each. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Presence, type Channel, type Socket } from 'phoenix';
import { connect, disconnect, join, phoenixSocket, push, sleep, startRealtimeApp, waitFor, type RealtimeTestApp } from './testSupport';

const redisUrl = process.env.TEST_REDIS_URL;
const suite = redisUrl ? describe : describe.skip;

suite(redisUrl ? 'Redis fan-out (TEST_REDIS_URL)' : 'Redis fan-out: skipped because TEST_REDIS_URL is not set', () => {
  let a: RealtimeTestApp;
  let b: RealtimeTestApp;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    // A prefix of its own: other suites may share the Redis.
    const realtime = { redisPrefix: `test-rt-${randomBytes(4).toString('hex')}` };
    [a, b] = await Promise.all([startRealtimeApp({ redisUrl, realtime }), startRealtimeApp({ redisUrl, realtime })]);
  });
  afterAll(async () => {
    await Promise.all(sockets.map(disconnect));
    await Promise.all([a?.close(), b?.close()]);
  });

  async function client(app: RealtimeTestApp, transport: 'websocket' | 'longpoll' = 'websocket'): Promise<Socket> {
    const socket = phoenixSocket(app.endpoint, transport, { token: app.access, company_id: String(app.companyId) });
    sockets.push(socket);
    await connect(socket);
    return socket;
  }

  function collect(channel: Channel, event: string): unknown[] {
    const got: unknown[] = [];
    channel.on(event, (payload) => {
      got.push(payload);
    });
    return got;
  }

  it('a broadcast on one process reaches clients of both, exactly once each', async () => {
    const onA = (await client(a)).channel('echo:fan', {});
    const onB = (await client(b)).channel('echo:fan', {});
    const onBLongPoll = (await client(b, 'longpoll')).channel('echo:fan', {});
    await Promise.all([join(onA), join(onB), join(onBLongPoll)]);
    const [gotA, gotB, gotLp] = [collect(onA, 'news'), collect(onB, 'news'), collect(onBLongPoll, 'news')];

    await a.hub().broadcast('echo:fan', 'news', { n: 1 });
    await b.hub().broadcast('echo:fan', 'news', { n: 2 });
    await waitFor(() => gotA.length >= 2 && gotB.length >= 2 && gotLp.length >= 2, 3_000, 'both broadcasts everywhere');
    await sleep(200);
    expect(gotA).toEqual([{ n: 1 }, { n: 2 }]);
    expect(gotB).toEqual([{ n: 1 }, { n: 2 }]);
    expect(gotLp).toEqual([{ n: 1 }, { n: 2 }]);

    // A client-triggered broadcast (handler → hub.broadcast) crosses too.
    const shouted = collect(onA, 'shouted');
    expect((await push(onB, 'shout', { from: 'b' })).status).toBe('ok');
    await waitFor(() => shouted.length === 1, 3_000, 'the shout on A');
  });

  it('presence spans processes', async () => {
    const chA = (await client(a)).channel('echo:presence', { presence: 'ada' });
    const presenceA = new Presence(chA);
    await join(chA);
    const socketB = await client(b);
    const chB = socketB.channel('echo:presence', { presence: 'bob' });
    const presenceB = new Presence(chB);
    await join(chB);
    const keys = (p: Presence) => p.list((key: string) => key).sort().join();
    await waitFor(() => keys(presenceA) === 'ada,bob' && keys(presenceB) === 'ada,bob', 3_000, 'both presences on both');
    await disconnect(socketB);
    await waitFor(() => keys(presenceA) === 'ada', 3_000, 'bob to leave');
  });
});
