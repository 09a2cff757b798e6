/** timestamptzToIso gives what drizzle's Date and toISOString give, for PostgreSQL's text of every timestamp. */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { rowsOf } from './rows';
import { timestamptzToIso } from './timestamps';

const viaDate = (text: string) => new Date(text).toISOString();

/** PostgreSQL's text of a UTC timestamp with microseconds: the fraction without its trailing zeros, none when zero. */
function postgresText(epochMs: number, micros: number, offset = '+00'): string {
  const iso = new Date(epochMs).toISOString();
  const fraction = String((epochMs % 1000 < 0 ? 0 : epochMs % 1000) * 1000 + micros)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''}${offset}`;
}

describe('timestamptzToIso', () => {
  it('is toISOString of the parsed text, for any UTC timestamp of years 1-9999 to the microsecond', () => {
    const years = fc.integer({ min: Date.UTC(1, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) });
    fc.assert(
      fc.property(years, fc.integer({ min: 0, max: 999 }), (ms, micros) => {
        const text = postgresText(ms, micros);
        expect(timestamptzToIso(text)).toBe(viaDate(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('goes through Date for the texts it does not take apart: another offset, a year past 9999, a text of another form', () => {
    for (const text of ['2026-11-01 13:34:56.123456+01', '2026-11-01 07:04:56-05:30', '2026-11-01 12:34:56.5+00:00', '2026-11-01T12:34:56.123Z']) {
      expect(timestamptzToIso(text)).toBe(viaDate(text));
    }
    expect(timestamptzToIso('2026-11-01 12:34:56+00')).toBe('2026-11-01T12:34:56.000Z');
    expect(timestamptzToIso('2026-11-01 12:34:56.1+00')).toBe('2026-11-01T12:34:56.100Z');
    expect(timestamptzToIso('2026-11-01 12:34:56.999999+00')).toBe('2026-11-01T12:34:56.999Z');
  });
});

describeEachDatabase('timestamptzToIso on the database text', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database });
  });
  afterAll(async () => t?.close());

  it('reads what the database writes for a timestamp with time zone as toISOString does', async () => {
    const db = t.app.services.get('Database');
    const values = ['2026-11-01 12:34:56.123456+00', '2026-02-28 23:59:59.999999+00', '2000-01-01 00:00:00+00', '1970-01-01 00:00:00.01+00', '2026-11-01 12:34:56.1+02'];
    for (const value of values) {
      // ::text is the text the driver receives for the column (the same output function).
      const [row] = rowsOf<{ text: string }>(await db.execute(sql`select ${value}::timestamptz::text as text`));
      expect(timestamptzToIso(row.text)).toBe(new Date(row.text).toISOString());
      expect(timestamptzToIso(row.text)).toBe(new Date(value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString());
    }
  });
});
