/**
 * The HTTP half of bench/data's load, in a child process of its own (`fork`, IPC): the socket half and
 * the HTTP half then never wait for each other's event loop, and each side's CPU is measured apart.
 * Open schedule (arrivals.ts), keep-alive connections opened as needed (a request never waits for
 * another's answer), latency from the moment a request is written to its last byte, 10 s = error.
 */
import http from 'node:http';
import { arrivals, percentile, runSchedule, type ArrivalMode } from './arrivals';

export interface HttpLoadJob {
  base: string;
  headers: Record<string, string>;
  scenarios: { name: string; path: string; index: number }[];
  kinds: number;
  perScenario: number;
  durationS: number;
  mode: ArrivalMode;
}

export interface HttpLoadResult {
  figures: { name: string; requests: number; p50: number; p99: number; max: number; errors: number }[];
  /** The most a send left after its scheduled time (this process's own delay). */
  maxLagMs: number;
  cpuSeconds: number;
  seconds: number;
}

function get(agent: http.Agent, url: URL, headers: Record<string, string>): Promise<{ status: number; ms: number }> {
  return new Promise((resolve) => {
    const at = performance.now();
    const req = http.get(url, { agent, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - at }));
      res.on('error', () => resolve({ status: 0, ms: performance.now() - at }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, ms: performance.now() - at }));
  });
}

export async function runHttpLoad(job: HttpLoadJob): Promise<HttpLoadResult> {
  const cpu0 = process.cpuUsage();
  const start = performance.now() + 50;
  let maxLagMs = 0;
  const figures = await Promise.all(
    job.scenarios.map(async (s) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
      const url = new URL(s.path, job.base);
      const latencies: number[] = [];
      let errors = 0;
      const pending: Promise<void>[] = [];
      const schedule = arrivals(job.mode, job.perScenario, job.durationS, s.index, job.kinds);
      await runSchedule(schedule, start, (_k, lag) => {
        maxLagMs = Math.max(maxLagMs, lag);
        pending.push(
          get(agent, url, job.headers).then((r) => {
            if (r.status === 200) latencies.push(r.ms);
            else errors++;
          }),
        );
      });
      await Promise.all(pending);
      agent.destroy();
      latencies.sort((a, b) => a - b);
      return { name: s.name, requests: schedule.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies[latencies.length - 1] ?? NaN, errors };
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return { figures, maxLagMs, cpuSeconds: (cpu.user + cpu.system) / 1e6, seconds: (performance.now() - start) / 1000 };
}

// As a forked child: `ready`, then one job in, one result out.
if (process.send) {
  // The bench process gone (Ctrl-C, watchdog): stop at once rather than finish the schedule.
  process.once('disconnect', () => process.exit(0));
  process.send('ready');
  process.once('message', (job: HttpLoadJob) => {
    runHttpLoad(job).then(
      (result) => process.send!(result, () => process.exit(0)),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
