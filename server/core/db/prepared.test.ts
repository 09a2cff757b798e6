import { describe, expect, it } from 'vitest';
import type { Database } from './client';
import { prepared, preparedMapped, shapeOf } from './prepared';

describe('prepared', () => {
  it('builds a statement once per database and name', () => {
    const [one, two] = [{}, {}] as unknown as Database[];
    const built: string[] = [];
    const build = (_db: Database, name: string) => {
      built.push(name);
      return { name };
    };
    const first = prepared(one, 'chat_room_record', build);
    expect(prepared(one, 'chat_room_record', build)).toBe(first);
    expect(prepared(two, 'chat_room_record', build)).not.toBe(first);
    prepared(one, 'chat_newest_messages:notes', build);
    expect(built).toEqual(['chat_room_record', 'chat_room_record', 'chat_newest_messages:notes']);
  });

  it('builds a statement planned on each call without a name (an unnamed statement on PostgreSQL), still once', () => {
    const db = {} as unknown as Database;
    const names: (string | undefined)[] = [];
    const build = (_db: Database, name: string) => {
      names.push(name);
      return {};
    };
    const first = prepared(db, 'chat_fetch_rooms:search', build, { planEachCall: true });
    expect(prepared(db, 'chat_fetch_rooms:search', build, { planEachCall: true })).toBe(first);
    expect(names).toEqual([undefined]);
  });
});

describe('shapeOf', () => {
  it('names the optional parts present, in their order', () => {
    expect(shapeOf({ notes: true, id: false, at: true })).toBe(':notes:at');
    expect(shapeOf({ status: false })).toBe('');
  });
});

describe('preparedMapped', () => {
  /** A prepared select as drizzle makes it: its fields, and an execute that hands the driver's rows to customResultMapper. */
  const select = (keys: string[], rows: unknown[][]) => {
    const statement = {
      fields: keys.map((key) => ({ path: [key], field: null })),
      customResultMapper: undefined as undefined | ((rows: unknown[][]) => unknown),
      execute: async () => statement.customResultMapper!(rows),
    };
    return statement;
  };

  it('maps the driver’s rows in one pass, finding each field by its key in the select', async () => {
    const db = {} as unknown as Database;
    const statement = preparedMapped(
      db,
      'members',
      () => select(['id', 'name'], [[1, 'Ada'], [2, 'Bob']]),
      (at) => {
        const [id, name] = [at('id'), at('name')];
        return (row) => ({ label: `${row[id]}:${row[name]}` });
      },
    );
    expect(await statement.execute({})).toEqual([{ label: '1:Ada' }, { label: '2:Bob' }]);
  });

  it('refuses a key the select does not have, when the statement is built', () => {
    const db = {} as unknown as Database;
    expect(() => preparedMapped(db, 'members', () => select(['id'], []), (at) => (at('name'), (row) => row))).toThrow(/no field name in the select \(id\)/);
  });
});
