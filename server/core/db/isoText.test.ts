/** isoText: PostgreSQL writes a timestamp as toISOString writes its Date, in any session time zone, on each database. */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { isoText } from './isoText';
import { rowsOf } from './rows';

const FIRST = Date.parse('0001-01-01T00:00:00.000Z');
const LAST = Date.parse('9999-12-31T23:59:59.999Z');

/** The instant with microseconds as ISO 8601 text PostgreSQL reads: the Date's milliseconds, then three more digits. */
const withMicros = (epochMs: number, micros: number) => `${new Date(epochMs).toISOString().slice(0, 23)}${String(micros).padStart(3, '0')}Z`;

describeEachDatabase('isoText', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database });
  });
  afterAll(async () => t.close());

  it("is toISOString of the instant cut to the millisecond, for years 1-9999 to the microsecond, whatever the session's zone", async () => {
    const zones = fc.constantFrom('UTC', 'Pacific/Chatham', 'America/St_Johns', 'Asia/Kathmandu', 'Etc/GMT+12', 'Europe/Paris');
    const instants = fc.array(fc.tuple(fc.integer({ min: FIRST, max: LAST }), fc.integer({ min: 0, max: 999 })), { minLength: 1, maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(zones, instants, async (zone, values) => {
        const texts = values.map(([ms, micros]) => withMicros(ms, micros));
        const rows = await t.db.transaction(async (tx) => {
          await tx.execute(sql.raw(`set local time zone '${zone}'`));
          return rowsOf<{ iso: string }>(
            await tx.execute(sql`select ${isoText(sql`v::timestamptz`)} as iso from unnest(${`{${texts.join(',')}}`}::text[]) with ordinality as u(v, n) order by n`),
          );
        });
        expect(rows.map((r) => r.iso)).toEqual(values.map(([ms]) => new Date(ms).toISOString()));
      }),
      { numRuns: 25 },
    );
  });

  it('is null for null', async () => {
    const [row] = rowsOf<{ iso: string | null }>(await t.db.execute(sql`select ${isoText(sql`null::timestamptz`)} as iso`));
    expect(row.iso).toBeNull();
  });
});
