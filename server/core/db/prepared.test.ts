import { describe, expect, it } from 'vitest';
import type { Database } from './client';
import { prepared, shapeOf } from './prepared';

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
