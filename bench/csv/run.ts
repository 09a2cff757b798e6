/**
 * Health while companies read big CSV audiences (issue #25): four companies each ask for the preview
 * of a CSV at the size limit at once (POST /api/broadcasts/audience/preview/), while one client asks
 * GET /api/health/ one request at a time, every `--interval` ms; it prints the health latencies
 * (p50, p99, max) with nothing running (the floor) and during the four reads, the reads' times, and
 * the load average. It prints figures; it is not part of `npm test` and asserts nothing.
 *
 *   npx tsx bench/csv/run.ts                      # 4 companies × 199,000 rows (7.1 MB each)
 *   npx tsx bench/csv/run.ts --rows 20000         # a quick run
 *
 * One process: the app (the test harness's, PGlite in memory, real HTTP on loopback) and the client
 * share the event loop, so a health time includes any wait the reads impose on the loop, as a real
 * client's would, plus the client's own small share.
 */
import { loadavg, cpus } from 'node:os';
import { performance } from 'node:perf_hooks';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROWS = arg('rows', 199_000);
const COMPANIES = arg('companies', 4);
const INTERVAL_MS = arg('interval', 20);
const FLOOR_SAMPLES = arg('floor-samples', 200);

/** A CSV like a real audience file: about 36 bytes a row, so 199,000 rows are 7.1 MB. */
function audienceCsv(rows: number, seed: number): string {
  const lines = ['phone,name,coupon'];
  for (let i = 0; i < rows; i++) lines.push(`+1415${String(2_000_000 + ((i * 7919 + seed) % 7_000_000)).padStart(7, '0')},Person ${i},C${seed}-${i}`);
  return lines.join('\n');
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function summary(label: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(1).padStart(7);
  return `${label.padEnd(28)} n=${String(sorted.length).padStart(5)}  p50 ${f(percentile(sorted, 50))} ms  p99 ${f(percentile(sorted, 99))} ms  max ${f(sorted[sorted.length - 1])} ms`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function timedHealth(base: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/api/health/`);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`health answered ${res.status}`);
  return performance.now() - started;
}

async function main() {
  // Imported here: the harness's modules are loaded once tsx is ready (a top-level import stalls under tsx).
  const { createTestApp } = await import('../../server/testing/testApp');
  const { insertChannel } = await import('../../server/plugins/channels/testFixtures');
  const t = await createTestApp();
  const base = await t.listen();
  const companies: { headers: Record<string, string>; channelId: number; csv: string }[] = [];
  for (let c = 0; c < COMPANIES; c++) {
    const companyId = await t.seed.company(`Bench ${c}`);
    const email = `manager-${c}@bench.test`;
    await t.seed.member(companyId, await t.seed.user({ email }), 'manager');
    const channel = await insertChannel(t, companyId, { platform: 'whatsapp', externalId: `bench-phone-${c}` });
    const { access } = await t.login(email);
    companies.push({ headers: { ...t.headers(access, companyId), 'content-type': 'application/json' }, channelId: channel.id, csv: audienceCsv(ROWS, c) });
  }
  const mb = (companies[0].csv.length / 1e6).toFixed(1);
  console.log(`${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} (1, 5, 15 min) at the start`);
  console.log(`${COMPANIES} companies × ${ROWS} rows (${mb} MB each); health every ${INTERVAL_MS} ms, one at a time`);

  const floor: number[] = [];
  for (let i = 0; i < FLOOR_SAMPLES; i++) {
    floor.push(await timedHealth(base));
    await sleep(INTERVAL_MS);
  }
  console.log(summary('health, nothing else running', floor));

  const during: number[] = [];
  let reading = true;
  const started = performance.now();
  const reads = Promise.all(
    companies.map(async ({ headers, channelId, csv }) => {
      const res = await fetch(`${base}/api/broadcasts/audience/preview/`, { method: 'POST', headers, body: JSON.stringify({ page_id: channelId, audience: { type: 'csv', csv } }) });
      const body = (await res.json()) as { total?: number };
      return { status: res.status, total: body.total, seconds: (performance.now() - started) / 1000 };
    }),
  ).finally(() => (reading = false));
  while (reading) {
    during.push(await timedHealth(base));
    await sleep(INTERVAL_MS);
  }
  const results = await reads;
  console.log(summary(`health, ${COMPANIES} previews reading`, during));
  for (const [i, r] of results.entries()) console.log(`preview of company ${i}: ${r.status}, ${r.total} rows, answered after ${r.seconds.toFixed(1)} s`);
  console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end`);
  await t.close();
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
