/**
 * Presence after a process dies without leaving (issue #21): three apps on one Redis and one manual
 * clock. Process B stops beating (its liveness job stopped: what `kill -9` leaves behind, its Redis
 * entries and no leave); once its heartbeat is older than NODE_DEAD_AFTER_MS, the liveness passes of A
 * and C, run at the same moment, remove its presence and push exactly one leave to the topic.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Presence, type Channel, type Socket } from 'phoenix';
import { ManualClock } from '../clock';
import { NODE_DEAD_AFTER_MS, NODE_HEARTBEAT_MS } from './fanout';
import type { PhoenixHub } from './hub';
import { connect, disconnect, join, phoenixSocket, startRealtimeApp, waitFor, type RealtimeTestApp } from './testSupport';

const redisUrl = process.env.TEST_REDIS_URL;
const suite = redisUrl ? describe : describe.skip;

suite(redisUrl ? 'presence of a dead process (TEST_REDIS_URL)' : 'presence of a dead process: skipped because TEST_REDIS_URL is not set', () => {
  const clock = new ManualClock();
  let a: RealtimeTestApp;
  let b: RealtimeTestApp;
  let c: RealtimeTestApp;
  const sockets: Socket[] = [];
  const hub = (app: RealtimeTestApp) => app.hub() as PhoenixHub;

  beforeAll(async () => {
    const realtime = { redisPrefix: `test-reap-${randomBytes(4).toString('hex')}` };
    [a, b, c] = await Promise.all([0, 1, 2].map(() => startRealtimeApp({ redisUrl, realtime, overrides: { Clock: clock } })));
  });
  afterAll(async () => {
    await Promise.all(sockets.map(disconnect));
    await Promise.all([a?.close(), b?.close(), c?.close()]);
  });

  async function joined(app: RealtimeTestApp, topic: string, presence: string): Promise<Channel> {
    const socket = phoenixSocket(app.endpoint, 'websocket', { token: app.access, company_id: String(app.companyId) });
    sockets.push(socket);
    await connect(socket);
    const channel = socket.channel(topic, { presence });
    expect((await join(channel)).status).toBe('ok');
    return channel;
  }

  /** Everything published before this point has reached the channel's client (one Redis channel, in order). */
  async function drained(app: RealtimeTestApp, channel: Channel, topic: string): Promise<void> {
    const id = randomBytes(4).toString('hex');
    let seen = false;
    const ref = channel.on('sentinel', (payload: { id?: string }) => {
      if (payload.id === id) seen = true;
    });
    await app.hub().broadcast(topic, 'sentinel', { id });
    await waitFor(() => seen, 3_000, 'the sentinel broadcast');
    channel.off('sentinel', ref);
  }

  it('a leave is pushed once, within the limit, when a process stops beating; it comes back when the process does', async () => {
    expect(NODE_DEAD_AFTER_MS + NODE_HEARTBEAT_MS).toBeLessThanOrEqual(35_000);
    const topic = `echo:reap-${randomBytes(3).toString('hex')}`;
    const onA = await joined(a, topic, 'ada');
    const presenceA = new Presence(onA);
    await joined(b, topic, 'bob');
    await joined(c, topic, 'cy');
    const keys = () => presenceA.list((key: string) => key).sort().join();
    await waitFor(() => keys() === 'ada,bob,cy', 3_000, 'three presences on A');

    const diffs: { joins: Record<string, unknown>; leaves: Record<string, unknown> }[] = [];
    onA.on('presence_diff', (diff) => {
      diffs.push(diff);
    });

    // B dies without a word: no more heartbeats, its sockets and Redis entries left as they were.
    hub(b)['liveness'].stop();

    // Just under the limit: B is still alive for everyone.
    clock.advance(NODE_DEAD_AFTER_MS - 1);
    await Promise.all([hub(a).livenessPass(), hub(c).livenessPass()]);
    await drained(a, onA, topic);
    expect(diffs).toEqual([]);
    expect(Object.keys(await hub(a).listPresence(topic)).sort()).toEqual(['ada', 'bob', 'cy']);

    // Past it: A and C reap at the same moment; one of them removes B's entry and pushes its leave.
    clock.advance(2);
    await Promise.all([hub(a).livenessPass(), hub(c).livenessPass()]);
    await drained(a, onA, topic);
    expect(diffs).toHaveLength(1);
    expect(diffs[0].joins).toEqual({});
    expect(Object.keys(diffs[0].leaves)).toEqual(['bob']);
    expect(keys()).toBe('ada,cy');
    expect(Object.keys(await hub(c).listPresence(topic)).sort()).toEqual(['ada', 'cy']);

    // Another pass finds nothing left to reap.
    await Promise.all([hub(a).livenessPass(), hub(c).livenessPass()]);
    await drained(a, onA, topic);
    expect(diffs).toHaveLength(1);

    // B was only stalled: its next heartbeat finds it was reaped and tracks its presences again.
    await hub(b).livenessPass();
    await waitFor(() => keys() === 'ada,bob,cy', 3_000, 'bob back on A');
    expect(Object.keys(diffs[1].joins)).toEqual(['bob']);
  });
});
