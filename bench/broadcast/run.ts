/**
 * Broadcast engine bench (issue #11 "Tests and figures"): N recipients against the local fake
 * Graph API at a configured rate. Prints the time to enqueue, the calls made per one-second window
 * (engine side: when each call left) and the sends received per second (fake side), max and mean
 * over the measured window, and this process's RSS at the start and the end. Figures, not a test.
 *
 *   npx tsx bench/broadcast/run.ts                         # both scenarios: 1,000/s then 80/s
 *   npx tsx bench/broadcast/run.ts --rate 1000 --recipients 100000
 *   npx tsx bench/broadcast/run.ts --rate 80 --seconds 60   # stops after the 60-second window
 *   DATABASE_URL=postgres://… npx tsx bench/broadcast/run.ts   # PostgreSQL instead of PGlite
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { createInterface } from 'node:readline';
import { eq } from 'drizzle-orm';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { openPglite, openPostgres, type OpenDatabase } from '../../server/core/db/client';
import { scratchPostgres } from '../support';
import { applyMigrations } from '../../server/core/db/migrate';
import { channels, companies } from '../../server/core/db/schema';
import { systemClock } from '../../server/core/clock';
import { testConfig } from '../../server/core/config';
import { HttpMetaGraph } from '../../server/providers/meta/graphClient';
import type { MetaGraph } from '../../server/providers/meta/types';
import { broadcasts } from '../../server/plugins/broadcasts/schema';
import { SendPacer } from '../../server/plugins/broadcasts/engine/pacer';
import { BroadcastWorker } from '../../server/plugins/broadcasts/engine/worker';
import { seedBroadcast, stateCounts, testPhones } from '../../server/plugins/broadcasts/engine/testing';

interface Fake {
  url: string;
  graphUrl: string;
  statsUrl: string;
  phoneNumberId: string;
  wabaId: string;
  token: string;
  appSecret: string;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function startFake(): Promise<{ fake: Fake; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'fakeServer.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`fake exited ${code}`)));
  });
  return { fake: JSON.parse(line) as Fake, stop: () => child.kill('SIGTERM') };
}

interface Scenario {
  rate: number;
  recipients: number;
  /** Length of the measured window (s). */
  seconds: number;
}

async function runScenario({ rate, recipients, seconds }: Scenario): Promise<void> {
  console.log(`\n== ${recipients.toLocaleString('en')} recipients at ${rate}/s == (machine load average ${loadavg().map((l) => l.toFixed(1)).join(' ')})`);
  const { fake, stop } = await startFake();
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-broadcast-'));
  let opened: OpenDatabase | null = null;
  // On PostgreSQL a database of the run's own: the engine sends every `sending` broadcast it finds, an earlier run's too.
  const scratch = process.env.DATABASE_URL ? await scratchPostgres(process.env.DATABASE_URL) : null;
  try {
    opened = scratch ? await openPostgres(scratch.url) : await openPglite(path.join(dir, 'pglite'));
    const db = opened.db;
    await applyMigrations(opened);
    const [company] = await db.insert(companies).values({ name: `Bench ${Date.now()}` }).returning({ id: companies.id });
    const [channel] = await db
      .insert(channels)
      .values({
        companyId: company.id,
        platform: 'whatsapp',
        name: 'Bench number',
        externalId: fake.phoneNumberId,
        wabaId: fake.wabaId,
        status: 'active',
        signupStatus: 'completed',
        accessTokenEnc: 'plain',
        settings: { broadcast_rate: rate, messaging_limit_tier: 'TIER_UNLIMITED' },
      })
      .returning({ id: channels.id });

    const enqueueStart = performance.now();
    const id = await seedBroadcast(db, { companyId: company.id, channelId: channel.id, phones: testPhones(recipients), status: 'paused' });
    const enqueueMs = performance.now() - enqueueStart;
    console.log(`enqueue: ${recipients.toLocaleString('en')} recipients written in ${(enqueueMs / 1000).toFixed(2)} s`);

    // Calls made per epoch second, engine side.
    const calls = new Map<number, number>();
    const meta = { ...testConfig().meta, appSecret: fake.appSecret, graphUrl: fake.graphUrl, sendRetryDelaysMs: [] };
    const http = new HttpMetaGraph(meta);
    const graph = new Proxy(http, {
      get(target, prop, receiver) {
        if (prop === 'sendWhatsApp') {
          return (...args: Parameters<MetaGraph['sendWhatsApp']>) => {
            const second = Math.floor(Date.now() / 1000);
            calls.set(second, (calls.get(second) ?? 0) + 1);
            return target.sendWhatsApp(...args);
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    }) as MetaGraph;
    const worker = new BroadcastWorker({
      db,
      clock: systemClock,
      pacer: new SendPacer(new RateLimiterMemory({ points: 1_000_000, duration: 5 }), systemClock),
      graph: () => graph,
      tokenOf: () => fake.token,
      log: { info: () => {}, warn: (o, m) => console.warn(m, o), error: (o, m) => console.error(m, o) },
      changed: () => {},
    });

    global.gc?.();
    const memoryStart = process.memoryUsage();
    const rssStart = memoryStart.rss;
    let rssPeak = rssStart;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 500);
    const t0 = Date.now();
    await db.update(broadcasts).set({ status: 'sending' }).where(eq(broadcasts.id, id));
    worker.start();
    const deadline = t0 + (seconds + 2) * 1000;
    let status: string = 'sending';
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      // The row's status only (a count over 100,000 recipients would itself block PGlite's thread).
      [{ status }] = await db.select({ status: broadcasts.status }).from(broadcasts).where(eq(broadcasts.id, id));
      if (status === 'completed') break;
    }
    const stoppedAt = Date.now();
    await worker.stop();
    clearInterval(sampler);
    global.gc?.();
    const memoryEnd = process.memoryUsage();
    const rssEnd = memoryEnd.rss;

    const counts = await stateCounts(db, id);
    const received = (await (await fetch(`${fake.statsUrl}/received`)).json()) as Record<string, number>;
    const totals = (await (await fetch(`${fake.statsUrl}/totals`)).json()) as { total: number; recipients: number; duplicates: number };

    // Full seconds only: from the first second after the start to the last full second before the stop (at most `seconds`).
    const first = Math.floor(t0 / 1000) + 1;
    const last = Math.min(Math.floor(stoppedAt / 1000) - 1, first + seconds - 1);
    const windows = (m: Map<number, number> | Record<string, number>) => {
      const get = (s: number) => (m instanceof Map ? m.get(s) : m[String(s)]) ?? 0;
      const values: number[] = [];
      for (let s = first; s <= last; s++) values.push(get(s));
      return values;
    };
    const summary = (label: string, values: number[], all: number[]) => {
      const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
      console.log(
        `${label}: max ${Math.max(...all)}/s over every second, mean ${mean.toFixed(1)}/s over ${values.length} full seconds (${(((mean - rate) / rate) * 100).toFixed(2)} % from ${rate}), min ${Math.min(...values)}`,
      );
    };
    if (process.argv.includes('--verbose')) console.log('calls per second', [...calls.entries()].sort((a, b) => a[0] - b[0]).map(([sec, n]) => `${sec - first}:${n}`).join(' '));
    const allCalls = [...calls.values()];
    const allReceived = Object.values(received);
    summary('calls made (engine)', windows(calls), allCalls);
    summary('sends received (fake)', windows(received), allReceived);
    console.log(`status ${counts.status}; states ${JSON.stringify(counts.states)}; fake received ${totals.total} for ${totals.recipients} recipients, ${totals.duplicates} duplicates`);
    console.log(`elapsed ${((stoppedAt - t0) / 1000).toFixed(1)} s; RSS start ${mb(rssStart)}, end ${mb(rssEnd)} (growth ${mb(rssEnd - rssStart)}), peak ${mb(rssPeak)}`);
    // Where the RSS is: V8's heap (reserved / used), and memory outside it (buffers; PGlite's WebAssembly memory, which never shrinks).
    const part = (k: 'heapTotal' | 'heapUsed' | 'external' | 'arrayBuffers') => `${mb(memoryStart[k])} -> ${mb(memoryEnd[k])}`;
    console.log(`  V8 heap reserved ${part('heapTotal')}, used ${part('heapUsed')}; outside the heap ${part('external')} (array buffers ${part('arrayBuffers')})`);
    if (process.argv.includes('--verbose'))
      console.log(`  V8 spaces at the end (size / used): ${v8.getHeapSpaceStatistics().map((x) => `${x.space_name} ${mb(x.space_size)} / ${mb(x.space_used_size)}`).join(', ')}`);
  } finally {
    stop();
    await opened?.close();
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const explicit = process.argv.includes('--rate');
const scenarios: Scenario[] = explicit
  ? [{ rate: arg('rate', 1000), recipients: arg('recipients', 100_000), seconds: arg('seconds', 60) }]
  : [
      { rate: 1000, recipients: arg('recipients', 100_000), seconds: arg('seconds', 60) },
      { rate: 80, recipients: arg('recipients', 100_000), seconds: arg('seconds', 60) },
    ];
for (const scenario of scenarios) await runScenario(scenario);
process.exit(0);
