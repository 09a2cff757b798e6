/**
 * When each request of the load is sent (bench/data/README.md, "How the load is generated"): an open
 * schedule, fixed before the run and independent of the answers (a slow answer never delays the next
 * request, so queueing in the server shows in the figures instead of lowering the rate).
 *
 *   poisson (default)  independent arrivals, exponential gaps of mean 1/rate (seeded, the same every run):
 *                      what many independent users produce, natural bursts included
 *   even               one request every 1/rate, each request kind shifted by a fraction of the period so the
 *                      kinds do not all fire at the same instant
 */
import { mulberry32 } from '../support';

export type ArrivalMode = 'poisson' | 'even';


/** The send times (ms from the start) of one request kind: `rate` a second for `durationS` seconds. */
export function arrivals(mode: ArrivalMode, rate: number, durationS: number, kindIndex: number, kinds: number): number[] {
  const total = Math.round(rate * durationS);
  const period = 1000 / rate;
  if (mode === 'even') {
    const phase = (period * kindIndex) / Math.max(1, kinds);
    return Array.from({ length: total }, (_, k) => phase + k * period);
  }
  const random = mulberry32(0x5eed + kindIndex * 7919);
  const times: number[] = [];
  let t = 0;
  for (let k = 0; k < total; k++) {
    t += -Math.log(1 - random()) * period;
    times.push(t);
  }
  // Scaled into the window: exactly `total` requests within `durationS`, the mean rate as asked.
  const scale = t > 0 ? (durationS * 1000 * (total / (total + 1))) / t : 1;
  return times.map((x) => x * scale);
}

/** Calls `send` at each time of `schedule` (ms after `start`, a performance.now() value); resolves after the last send. */
export async function runSchedule(schedule: number[], start: number, send: (k: number, lagMs: number) => void): Promise<void> {
  for (let k = 0; k < schedule.length; k++) {
    const due = start + schedule[k];
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    send(k, Math.max(0, performance.now() - due));
  }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
