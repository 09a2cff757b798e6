/**
 * Each company reads one CSV file at a time (issue #25). Reading is time-sliced (./slices.ts), so
 * files of different companies share the event loop turn by turn; this line keeps one company from
 * taking several turns at once with several files.
 *
 * A second file from the same company waits for the first: the console re-asks for a preview when
 * the list changes and abandons the earlier answer, so waiting is what its user expects (the preview
 * just takes a little longer). The line is short: beyond `maxWaiting` files waiting behind the one
 * being read, the request is refused at once (429, plain words) rather than holding more 7 MB bodies.
 * The line is per process: it protects this process's event loop.
 */
import { ApiError } from '../../../core/errors';

export const CSV_BUSY_MESSAGE = 'This company is already reading several CSV files. Try again when they have finished.';

interface Line {
  /** Settles when the last file in line has been read. */
  tail: Promise<void>;
  /** Files being read or waiting (the one being read included). */
  size: number;
}

export class OneFilePerCompany {
  private readonly lines = new Map<number, Line>();

  constructor(private readonly maxWaiting = 2) {}

  /** Runs `read` once the company's earlier files have been read; refuses when the line is full. */
  async run<T>(companyId: number, read: () => Promise<T>): Promise<T> {
    let line = this.lines.get(companyId);
    if (!line) {
      line = { tail: Promise.resolve(), size: 0 };
      this.lines.set(companyId, line);
    }
    if (line.size > this.maxWaiting) throw new ApiError(429, { detail: CSV_BUSY_MESSAGE, code: 'csv_busy' }, { 'retry-after': '10' });
    line.size += 1;
    const before = line.tail;
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    line.tail = before.then(() => mine);
    try {
      await before;
      return await read();
    } finally {
      done();
      line.size -= 1;
      if (line.size === 0) this.lines.delete(companyId);
    }
  }

  /** Files being read or waiting for the company (tests read it). */
  inLine(companyId: number): number {
    return this.lines.get(companyId)?.size ?? 0;
  }
}
