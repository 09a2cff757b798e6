/**
 * The soak bench's sampler, loaded into the server process with NODE_OPTIONS="--import <this file>"
 * (bench/soak/run.ts). Plain JS: it needs no transpiler. Adds no route to the product.
 *
 * Does nothing unless SOAK_PROBE_FILE names a file. Then, every SOAK_PROBE_INTERVAL_MS (10 000 by
 * default), it appends one JSON line: this process's pid, the time, process.memoryUsage() and the
 * event-loop delay of the interval (perf_hooks.monitorEventLoopDelay, SOAK_PROBE_RESOLUTION_MS, 10 by
 * default; the histogram's values include that timer period: an idle loop reads about 10 ms), then
 * resets the histogram. A second histogram covers the whole workload: it is reset once, when the file
 * `${SOAK_PROBE_FILE}.start` appears (the bench creates it when its workload starts), and each line
 * carries its p50 / p99 / max as `run` (so the server's start-up is not in the run's figures).
 *
 * NODE_OPTIONS reaches every node process of the `npm run …` chain (npm, tsx's parent, the server):
 * each writes its own lines with its pid; the bench keeps the lines of the process listening on the port.
 * The timer is unref'd: it never keeps a process alive.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.SOAK_PROBE_FILE;
if (file) {
  const intervalMs = Number(process.env.SOAK_PROBE_INTERVAL_MS) || 10_000;
  const resolution = Number(process.env.SOAK_PROBE_RESOLUTION_MS) || 10;
  const histogram = monitorEventLoopDelay({ resolution });
  histogram.enable();
  const run = monitorEventLoopDelay({ resolution });
  run.enable();
  let marked = false;
  const ms = (ns) => Math.round((ns / 1e6) * 100) / 100;
  const started = Date.now();
  const sample = () => {
    if (!marked && existsSync(`${file}.start`)) {
      marked = true;
      run.reset();
    }
    const memory = process.memoryUsage();
    const line = {
      pid: process.pid,
      argv: process.argv.slice(1, 3).join(' '),
      t: Date.now(),
      uptimeS: Math.round((Date.now() - started) / 1000),
      rss: memory.rss,
      heapTotal: memory.heapTotal,
      heapUsed: memory.heapUsed,
      external: memory.external,
      arrayBuffers: memory.arrayBuffers,
      eld: {
        count: histogram.count,
        min: ms(histogram.min),
        mean: ms(histogram.mean),
        p50: ms(histogram.percentile(50)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
      },
      run: { marked, count: run.count, p50: ms(run.percentile(50)), p99: ms(run.percentile(99)), max: ms(run.max) },
      resolutionMs: resolution,
    };
    histogram.reset();
    try {
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    } catch {
      // The bench removed its directory: nothing to report to any more.
    }
  };
  setInterval(sample, intervalMs).unref();
}
