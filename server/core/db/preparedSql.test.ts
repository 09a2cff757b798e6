/** A raw statement prepared once (prepared.ts, preparedSql) answers each call for its own values, on each database. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, createTestApp, type TestApp } from '../../testing/testApp';
import { preparedSql } from './prepared';

describeEachDatabase('preparedSql', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database });
  });
  afterAll(async () => t.close());

  it('builds the text once and fills a placeholder used twice with each call’s value', async () => {
    const db = t.app.services.get('Database');
    let builds = 0;
    const build = () => {
      builds += 1;
      return sql`select ${sql.placeholder('n')}::int + 1 as next, ${sql.placeholder('n')}::int * 2 as twice, ${sql.placeholder('word')}::text as word`;
    };
    const first = preparedSql<{ next: number; twice: number; word: string }>(db, 'test_prepared_sql', build);
    expect(await first.execute({ n: 1, word: 'un' })).toEqual([{ next: 2, twice: 2, word: 'un' }]);
    const again = preparedSql<{ next: number; twice: number; word: string }>(db, 'test_prepared_sql', build);
    expect(again).toBe(first);
    expect(await again.execute({ n: 20, word: 'vingt' })).toEqual([{ next: 21, twice: 40, word: 'vingt' }]);
    expect(builds).toBe(1);
  });

  it('answers rows for a statement planned on each call, and none when nothing matches', async () => {
    const db = t.app.services.get('Database');
    const statement = preparedSql<{ n: number }>(db, 'test_prepared_sql_series', () => sql`select n from generate_series(1, ${sql.placeholder('upTo')}::int) n`, {
      planEachCall: true,
    });
    expect(await statement.execute({ upTo: 3 })).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(await statement.execute({ upTo: 0 })).toEqual([]);
  });
});
