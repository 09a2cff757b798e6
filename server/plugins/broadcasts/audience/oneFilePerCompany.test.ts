/** One CSV file at a time per company: the next waits, a full line is refused, other companies do not wait. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../core/errors';
import { CSV_BUSY_MESSAGE, OneFilePerCompany } from './oneFilePerCompany';

/** A read that ends when the test says so, recording when it started. */
function controlledRead(log: string[], name: string) {
  let finish!: () => void;
  const ended = new Promise<void>((resolve) => (finish = resolve));
  return {
    read: async () => {
      log.push(`start ${name}`);
      await ended;
      log.push(`end ${name}`);
      return name;
    },
    finish: () => finish(),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('one CSV file at a time per company', () => {
  it('a second file of the same company starts only when the first has been read; another company does not wait', async () => {
    const gate = new OneFilePerCompany();
    const log: string[] = [];
    const a1 = controlledRead(log, 'a1');
    const a2 = controlledRead(log, 'a2');
    const b1 = controlledRead(log, 'b1');
    const first = gate.run(1, a1.read);
    const second = gate.run(1, a2.read);
    const other = gate.run(2, b1.read);
    await settle();
    expect(log).toEqual(['start a1', 'start b1']);
    expect(gate.inLine(1)).toBe(2);
    a1.finish();
    await settle();
    expect(log).toEqual(['start a1', 'start b1', 'end a1', 'start a2']);
    a2.finish();
    b1.finish();
    expect(await Promise.all([first, second, other])).toEqual(['a1', 'a2', 'b1']);
    expect(gate.inLine(1)).toBe(0);
  });

  it('beyond the files waiting in line, a file is refused at once with a 429 in plain words', async () => {
    const gate = new OneFilePerCompany(2);
    const log: string[] = [];
    const reads = ['r1', 'r2', 'r3'].map((name) => controlledRead(log, name));
    const running = reads.map((r) => gate.run(7, r.read));
    const refused = await gate.run(7, async () => 'r4').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).statusCode).toBe(429);
    expect((refused as ApiError).body).toEqual({ detail: CSV_BUSY_MESSAGE, code: 'csv_busy' });
    for (const r of reads) r.finish();
    expect(await Promise.all(running)).toEqual(['r1', 'r2', 'r3']);
    // The line is free again.
    expect(await gate.run(7, async () => 'r5')).toBe('r5');
  });

  it('a read that fails frees its place for the next', async () => {
    const gate = new OneFilePerCompany();
    const failing = gate.run(3, async () => {
      throw new Error('bad file');
    });
    const next = gate.run(3, async () => 'next');
    await expect(failing).rejects.toThrow('bad file');
    expect(await next).toBe('next');
  });
});
