// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { addUnread, clearAllUnread, clearUnread, countsAsUnread, loadUnread, saveUnread, totalUnread, unreadKey } from './unread';

describe('unread counts', () => {
  beforeEach(() => localStorage.clear());

  it('a user message counts only when its room is not selected', () => {
    expect(countsAsUnread({ origin: 'user', room_id: 1 }, null)).toBe(true);
    expect(countsAsUnread({ origin: 'user', room_id: 1 }, 2)).toBe(true);
    expect(countsAsUnread({ origin: 'user', room_id: 1 }, 1)).toBe(false);
    expect(countsAsUnread({ origin: 'agent', room_id: 1 }, null)).toBe(false);
    expect(countsAsUnread({ origin: 'bot', room_id: 1 }, null)).toBe(false);
  });

  it('adds, clears and totals', () => {
    let map = addUnread({}, 1);
    map = addUnread(map, 1);
    map = addUnread(map, 2);
    expect(map).toEqual({ 1: 2, 2: 1 });
    expect(totalUnread(map)).toBe(3);
    expect(clearUnread(map, 1)).toEqual({ 2: 1 });
    expect(clearUnread(map, 9)).toBe(map);
  });

  it('persists only the map, per company; sign-out clears every company', () => {
    saveUnread(7, { 3: 2 });
    saveUnread(8, { 4: 1 });
    localStorage.setItem('other', 'kept');
    expect(JSON.parse(localStorage.getItem(unreadKey(7))!)).toEqual({ 3: 2 });
    expect(loadUnread(7)).toEqual({ 3: 2 });
    expect(loadUnread(8)).toEqual({ 4: 1 });
    expect(loadUnread(null)).toEqual({});
    localStorage.setItem(unreadKey(9), 'not json');
    expect(loadUnread(9)).toEqual({});
    saveUnread(8, {});
    expect(localStorage.getItem(unreadKey(8))).toBeNull();
    clearAllUnread();
    expect(loadUnread(7)).toEqual({});
    expect(localStorage.getItem('other')).toBe('kept');
  });
});
