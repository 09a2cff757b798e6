/**
 * The same load through 1 and through 3 server processes behind HAProxy (the cluster test's setup,
 * tests/cluster/support/cluster.ts): customers writing in on WhatsApp (signed webhooks through the balancer) while
 * agents' sockets (through the balancer, so spread over the processes) watch the number's page topic, and the
 * console's API list (GET /api/broadcasts/) asked at a steady rate. Prints p50/p99 of the inbox round trip (webhook
 * POST → `new_message` on each agent's socket: the fan-out included) and of the API list, and the 3-process p99
 * against the target (within 2× of one process). See bench/cluster/README.md.
 *
 *   npx tsx bench/cluster/run.ts [--seconds 20] [--warmup 5] [--rate 20] [--list-rate 20] [--agents 6] [--processes 1,3]
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import path from 'node:path';
import type { Socket } from 'phoenix';
import { buildServer } from '../../scripts/build-server.mjs';
import { checkClusterServices } from '../../scripts/cluster-services.mjs';
import { findHaproxy, installHint } from '../../scripts/haproxy.mjs';
import { SecretBox } from '../../server/core/crypto/secretBox';
import { signMetaPayload } from '../../server/providers/meta/webhooks';
import { whatsAppInboundPayload } from '../../server/providers/meta/fake/fakeMetaWebhooks';
import { connect, disconnect, join, phoenixSocket } from '../../server/core/realtime/testSupport';
import { ADMIN, AGENT, api, login, startCluster, type Auth, type Cluster } from '../../tests/cluster/support/cluster';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '5' },
    rate: { type: 'string', default: '20' },
    'list-rate': { type: 'string', default: '20' },
    agents: { type: 'string', default: '6' },
    processes: { type: 'string', default: '1,3' },
  },
});
const SECONDS = Number(values.seconds);
const WARMUP = Number(values.warmup);
const RATE = Number(values.rate);
const LIST_RATE = Number(values['list-rate']);
const AGENTS = Number(values.agents);
const PROCESS_COUNTS = values.processes!.split(',').map(Number);
const CUSTOMERS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

interface Figures {
  processes: number;
  inbox: { p50: number; p99: number; received: number; expected: number };
  list: { p50: number; p99: number; requests: number; errors: number };
}

async function connectWhatsAppNumber(cluster: Cluster, admin: Auth): Promise<{ channelId: number; phoneNumberId: string }> {
  const signup = cluster.fake.state.createWhatsAppBusiness({ businessName: 'Demo Company', phoneNumber: '+1 555 0131' });
  cluster.fake.state.data.phoneNumbers[signup.phoneNumberId].registered = true;
  const token = new SecretBox(cluster.channelSecretKey).seal(cluster.fake.state.issueBusinessToken(signup.wabaId));
  const { rows } = await cluster.db.query<{ id: number }>(
    `insert into channels (company_id, platform, name, external_id, waba_id, status, signup_status, access_token_enc, settings)
     values ($1, 'whatsapp', 'Bench number', $2, $3, 'active', 'completed', $4, '{}') returning id`,
    [admin.companyId, signup.phoneNumberId, signup.wabaId, token],
  );
  return { channelId: rows[0].id, phoneNumberId: signup.phoneNumberId };
}

async function measure(processes: number): Promise<Figures> {
  const cluster = await startCluster({ processes, name: 'bench_cluster' });
  const sockets: Socket[] = [];
  try {
    const admin = await login(cluster.url, ADMIN);
    const agent = await login(cluster.url, AGENT);
    const number = await connectWhatsAppNumber(cluster, admin);
    const phone = cluster.fake.state.data.phoneNumbers[number.phoneNumberId];

    const webhook = (from: string, id: string, text: string) => {
      const body = JSON.stringify(whatsAppInboundPayload(phone, { waId: from, name: `Customer ${from}` }, { id, type: 'text', text: { body: text } }));
      return fetch(`${cluster.url}/api/webhooks/meta/`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signMetaPayload(body, cluster.appSecret) }, body })
        .then((res) => res.body?.cancel())
        .catch(() => undefined);
    };
    const customer = (i: number) => String(15_550_100_000 + (i % CUSTOMERS));
    const run = randomBytes(3).toString('hex');
    // Every customer's conversation exists before the measure (a first message is announced as `new_room`).
    await Promise.all(Array.from({ length: CUSTOMERS }, (_, i) => webhook(customer(i), `wamid.bench-${run}-first-${i}`, 'Hello')));
    for (const end = Date.now() + 60_000; ; ) {
      const { rows } = await cluster.db.query<{ n: number }>('select count(*)::int as n from messages m join rooms r on r.id = m.room_id where r.channel_id = $1', [number.channelId]);
      if (Number(rows[0].n) >= CUSTOMERS) break;
      if (Date.now() > end) throw new Error('the customers\' first messages were not stored within 60 s');
      await sleep(100);
    }

    // Agents' sockets through the balancer (round-robin: spread over the processes), on the number's page topic.
    const sentAt = new Map<string, number>();
    const roundTrips: number[] = [];
    let received = 0;
    for (let i = 0; i < AGENTS; i++) {
      const auth = i % 2 ? agent : admin;
      const socket = phoenixSocket(`${cluster.url.replace(/^http/, 'ws')}/socket`, 'websocket', { token: auth.access, company_id: String(auth.companyId) });
      sockets.push(socket);
      await connect(socket);
      const page = socket.channel(`page:${number.channelId}`, {});
      page.on('new_message', (payload) => {
        const text = (payload as { message?: { text?: string | null } }).message?.text ?? '';
        const start = sentAt.get(text);
        if (start === undefined) return;
        roundTrips.push(performance.now() - start);
        received++;
      });
      const reply = await join(page);
      if (reply.status !== 'ok') throw new Error(`join page:${number.channelId}: ${JSON.stringify(reply.response)}`);
    }

    let listTimes: number[] = [];
    let listErrors = 0;
    /** The load for `seconds`, both on fixed schedules (open loop: a slow answer does not slow the arrivals down). */
    const load = async (seconds: number, label: string) => {
      const work: Promise<unknown>[] = [];
      const end = performance.now() + seconds * 1000;
      const inbound = (async () => {
        for (let seq = 0; performance.now() < end; seq++) {
          const due = performance.now() + 1000 / RATE;
          const text = `bench ${run} ${label} ${seq}`;
          sentAt.set(text, performance.now());
          work.push(webhook(customer(seq), `wamid.bench-${run}-${label}-${seq}`, text));
          await sleep(due - performance.now());
        }
      })();
      const lists = (async () => {
        while (performance.now() < end) {
          const due = performance.now() + 1000 / LIST_RATE;
          work.push(
            (async () => {
              const start = performance.now();
              const res = await api(cluster.url, admin, 'GET', '/api/broadcasts/').catch(() => ({ status: 0 }));
              if (res.status === 200) listTimes.push(performance.now() - start);
              else listErrors++;
            })(),
          );
          await sleep(due - performance.now());
        }
      })();
      await Promise.all([inbound, lists]);
      await Promise.all(work);
    };
    // A warm-up the figures leave out (fresh processes compile their hot paths first), then the measure.
    await load(WARMUP, 'warmup');
    await sleep(1000);
    sentAt.clear();
    roundTrips.length = 0;
    received = 0;
    listTimes = [];
    listErrors = 0;
    await load(SECONDS, 'measure');
    const expected = sentAt.size * AGENTS;
    // What is still on its way: up to 10 s (then counted as not received).
    const drain = performance.now() + 10_000;
    while (received < expected && performance.now() < drain) await sleep(50);
    roundTrips.sort((a, b) => a - b);
    listTimes.sort((a, b) => a - b);
    return {
      processes,
      inbox: { p50: percentile(roundTrips, 50), p99: percentile(roundTrips, 99), received, expected },
      list: { p50: percentile(listTimes, 50), p99: percentile(listTimes, 99), requests: listTimes.length + listErrors, errors: listErrors },
    };
  } finally {
    await Promise.all(sockets.map((socket) => disconnect(socket).catch(() => undefined)));
    await cluster.stop();
  }
}

async function main(): Promise<void> {
  const services = await checkClusterServices();
  if (services) throw new Error(services);
  const haproxy = findHaproxy();
  if (!haproxy) throw new Error(`No HAProxy. Run: ${installHint()}`);
  process.env.HAPROXY_PATH = haproxy;
  const outDir = path.resolve(import.meta.dirname, '../../.test-data/dist-server-cluster');
  await buildServer(outDir);
  process.env.CLUSTER_SERVER_DIR = outDir;

  const { loadavg } = await import('node:os');
  console.log(`load average before: ${loadavg().map((n) => n.toFixed(2)).join(' ')}; ${SECONDS} s of ${RATE} messages/s to ${AGENTS} sockets and ${LIST_RATE} list requests/s`);
  const results: Figures[] = [];
  for (const n of PROCESS_COUNTS) {
    const figures = await measure(n);
    results.push(figures);
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    console.log(
      `${n} process${n > 1 ? 'es' : ''}: inbox round trip p50 ${ms(figures.inbox.p50)}, p99 ${ms(figures.inbox.p99)} ` +
        `(${figures.inbox.received}/${figures.inbox.expected} deliveries); GET /api/broadcasts/ p50 ${ms(figures.list.p50)}, p99 ${ms(figures.list.p99)} ` +
        `(${figures.list.requests} requests, ${figures.list.errors} errors); load average ${loadavg()[0].toFixed(2)}`,
    );
  }
  const one = results.find((r) => r.processes === 1);
  const three = results.find((r) => r.processes === 3);
  if (one && three) {
    for (const [what, a, b] of [['inbox round trip', one.inbox.p99, three.inbox.p99], ['API list', one.list.p99, three.list.p99]] as const) {
      const ratio = b / a;
      console.log(`${what}: p99 with 3 processes = ${ratio.toFixed(2)}× one process (target ≤ 2×): ${ratio <= 2 ? 'met' : 'NOT met'}`);
    }
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
