/**
 * Long CPU work in slices, so one company's big file never holds the event loop (issue #25: a
 * 199,000-row CSV held it for about 15 s, and every company's requests waited).
 *
 * A `Slicer` is asked after each unit of work whether its slice is used up (`due`); once the slice
 * has run `sliceMs`, the work yields with setImmediate (`yieldNow`), which lets the event loop answer I/O (other requests,
 * health checks, timers) before the work goes on. Several files read at once take turns, one slice
 * each per turn of the loop. The slice length is a scheduling choice, not a deadline.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Work between two yields: short enough that four files at once still answer a request in well under 100 ms. */
export const SLICE_MS = 8;

export class Slicer {
  private sliceStart = performance.now();
  /** How many times the work gave the event loop back (tests read it). */
  yields = 0;

  constructor(private readonly sliceMs: number = SLICE_MS) {}

  /** Whether the current slice is used up (ask after each unit of work; `await yieldNow()` when it is). */
  due(): boolean {
    return performance.now() - this.sliceStart >= this.sliceMs;
  }

  /** Gives the event loop back now (between two chunks of a file, whatever the time). */
  async yieldNow(): Promise<void> {
    this.yields += 1;
    await nextTurn();
    this.sliceStart = performance.now();
  }
}
