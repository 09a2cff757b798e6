/**
 * Fails loudly when a test file leaves the clock faked. Both vitest projects run with `isolate: false`:
 * a worker's test files share their globals, so a faked setInterval left behind by one file silently
 * stopped every timer-driven loop of the next one (the realtime hub's sweep waited forever). It
 * happened through a spy laid over vi.useFakeTimers: vitest's restore of its mocks between files put
 * the spy's "original", the fake, back after useRealTimers.
 */
import { afterAll, beforeAll, expect } from 'vitest';

const TIMERS = ['setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate', 'Date'] as const;
type Timers = Record<(typeof TIMERS)[number], unknown>;
interface Record_ {
  real: Timers;
  lastFile: string;
}
const KEY = Symbol.for('console.test.realTimers');
const holder = globalThis as unknown as Record<symbol, Record_ | undefined>;
// The first file of a worker records the real ones (setup files run before any test code).
const state: Record_ = (holder[KEY] ??= { real: Object.fromEntries(TIMERS.map((name) => [name, globalThis[name]])) as Timers, lastFile: '' });

function restoreFaked(): string[] {
  const faked = TIMERS.filter((name) => globalThis[name] !== state.real[name]);
  for (const name of faked) (globalThis as unknown as Timers)[name] = state.real[name];
  return faked;
}

beforeAll(() => {
  const faked = restoreFaked();
  if (faked.length > 0) throw new Error(`${faked.join(', ')} faked when this file started: left so by ${state.lastFile || 'an earlier file'} of this worker (restored now)`);
});

afterAll(() => {
  state.lastFile = expect.getState().testPath ?? '';
  const faked = restoreFaked();
  if (faked.length > 0) throw new Error(`this test file left ${faked.join(', ')} faked: call vi.useRealTimers(), and never spy on a faked timer (restored now)`);
});
