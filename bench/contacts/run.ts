/**
 * Contact import at its size limit (issue #23): one company imports a CSV of `--rows` (100,000) new contacts
 * (POST /api/contacts/import/, then GET /api/contacts/import/{id}/ until done), while one client asks
 * GET /api/health/ one request at a time every `--interval` ms. It prints the import's time, the process's RSS
 * before, at its highest during and after the import, the health latencies (p50, p99, max) with nothing
 * running (the floor) and during the import, and the load average. It prints figures; it is not part of
 * `npm test` and asserts nothing.
 *
 *   npx tsx bench/contacts/run.ts                    # 100,000 rows (name, phone, e-mail, tags, a city attribute)
 *   npx tsx bench/contacts/run.ts --rows 20000       # a quick run
 *
 * One process, as bench/csv: the app (the test harness's, PGlite in memory unless TEST_DATABASE_URL is set,
 * real HTTP on loopback) and the client share the event loop, so a health time includes any wait the import
 * imposes on the loop.
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROWS = arg('rows', 100_000);
const INTERVAL_MS = arg('interval', 20);
const FLOOR_SAMPLES = arg('floor-samples', 200);
const COUNT_SAMPLES = arg('count-samples', 30);

/** A contacts file: about 70 bytes a row. */
function contactsCsv(rows: number): string {
  const lines = ['Name,Phone,Email,Tags,City'];
  const cities = ['Lyon', 'Paris', 'Nice', 'Lille'];
  for (let i = 0; i < rows; i++) lines.push(`Customer ${i},+3361${String(i).padStart(7, '0')},customer${i}@example.com,${i % 3 ? 'newsletter' : 'vip'},${cities[i % 4]}`);
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
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

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
  const t = await createTestApp(process.env.TEST_DATABASE_URL ? { database: 'postgres' } : {});
  const base = await t.listen();
  const companyId = await t.seed.company('Bench import');
  await t.seed.member(companyId, await t.seed.user({ email: 'manager@bench.test' }), 'manager');
  const { access } = await t.login('manager@bench.test');
  const headers = t.headers(access, companyId);
  await fetch(`${base}/api/contact-attributes/`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'City', key: 'city', type: 'text' }) });
  const csv = contactsCsv(ROWS);
  console.log(`${cpus().length} CPUs, load average ${load()} (1, 5, 15 min) at the start`);
  console.log(`${ROWS} rows (${(csv.length / 1e6).toFixed(1)} MB); health every ${INTERVAL_MS} ms, one at a time`);

  const floor: number[] = [];
  for (let i = 0; i < FLOOR_SAMPLES; i++) {
    floor.push(await timedHealth(base));
    await sleep(INTERVAL_MS);
  }
  console.log(summary('health, nothing else running', floor));

  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const started = performance.now();
  const res = await fetch(`${base}/api/contacts/import/`, { method: 'POST', headers: { ...headers, 'content-type': 'text/csv' }, body: csv });
  if (res.status !== 202) throw new Error(`import answered ${res.status} ${await res.text()}`);
  const { id } = (await res.json()) as { id: number };
  const accepted = (performance.now() - started) / 1000;
  const during: number[] = [];
  let status: { state: string; processed: number; created: number; updated: number; skipped_count: number } = { state: 'queued', processed: 0, created: 0, updated: 0, skipped_count: 0 };
  let lastPoll = 0;
  while (status.state === 'queued' || status.state === 'running') {
    during.push(await timedHealth(base));
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    if (performance.now() - lastPoll > 500) {
      lastPoll = performance.now();
      status = (await (await fetch(`${base}/api/contacts/import/${id}/`, { headers })).json()) as typeof status;
    }
    await sleep(INTERVAL_MS);
  }
  const seconds = (performance.now() - started) / 1000;
  global.gc?.();
  const rssAfter = process.memoryUsage().rss;
  console.log(summary('health, during the import', during));
  console.log(`import: ${status.state}, ${status.processed} rows, ${status.created} created, ${status.updated} updated, ${status.skipped_count} skipped; 202 after ${accepted.toFixed(1)} s, done after ${seconds.toFixed(1)} s`);
  console.log(`RSS: ${mb(rssBefore)} before, ${mb(rssPeak)} at most during (+${mb(rssPeak - rssBefore)}), ${mb(rssAfter)} after`);

  // A segment over the imported contacts (issue #23: its count over 100,000 contacts under 200 ms): `city = Lyon`
  // (a quarter of them) and the newsletter tag besides, each count asked COUNT_SAMPLES times one at a time.
  const post = async (path: string, body: unknown) => {
    const r = await fetch(`${base}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (r.status >= 300) throw new Error(`${path} answered ${r.status} ${await r.text()}`);
    return r.json() as Promise<{ id: number }>;
  };
  const lyon = await post('/api/segments/', { name: 'In Lyon', conditions: { attributes: [{ key: 'city', op: 'eq', value: 'Lyon' }] } });
  const counts: number[] = [];
  let counted = 0;
  for (let i = 0; i < COUNT_SAMPLES; i++) {
    const at = performance.now();
    const r = await fetch(`${base}/api/segments/${lyon.id}/count/`, { headers });
    counted = ((await r.json()) as { count: number }).count;
    counts.push(performance.now() - at);
  }
  console.log(summary(`segment count (${counted} of ${status.created})`, counts));
  console.log(`load average ${load()} at the end`);
  await t.close();
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
