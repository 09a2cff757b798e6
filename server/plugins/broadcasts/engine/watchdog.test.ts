/** The engine's watchdog names what the tick or a number's loop has waited on for too long. */
import { describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../core/clock';
import type { Database } from '../../../core/db/client';
import { BroadcastWorker } from './worker';

/** A database whose every statement never answers (a stalled connection). */
function stalledDatabase(): Database {
  const handler: ProxyHandler<object> = {
    get: (_target, prop) => (prop === 'then' ? () => undefined : proxy),
    apply: () => proxy,
  };
  const proxy: object = new Proxy(function stalled() {}, handler);
  return proxy as Database;
}

describe('broadcast engine watchdog', () => {
  it('warns with the phase a stalled tick waits in, and says nothing before the threshold', () => {
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const worker = new BroadcastWorker({
      db: stalledDatabase(),
      clock: systemClock,
      pacer: { take: async () => ({ granted: 0, retryAt: 0, usableUntil: 0 }) } as never,
      graph: () => {
        throw new Error('no calls expected');
      },
      tokenOf: () => null,
      log,
      changed: () => undefined,
    });
    worker.kick();
    expect(worker.watchdog(Date.now() + 5_000)).toEqual([]);
    expect(log.warn).not.toHaveBeenCalled();
    const stuck = worker.watchdog(Date.now() + 31_000);
    expect(stuck).toHaveLength(1);
    expect(stuck[0]).toMatch(/^tick: expiring orphans for 3\d s$/);
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ stuck }), 'broadcasts: the engine waits longer than expected');
  });
});
