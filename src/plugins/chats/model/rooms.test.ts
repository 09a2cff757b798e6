import { describe, expect, it } from 'vitest';
import { isRoomPaused } from '../../../../contract/chats';
import { message, room } from '../testing/fakeChatServer';
import { DAY_MS, mergeRoom, roomMatches, sortRoomIds, togglePause, withNewMessage } from './rooms';

describe('room list rules', () => {
  it('sorts newest activity first', () => {
    const rooms = {
      1: room(1, { last_message_at: '2026-01-01T10:00:00Z' }),
      2: room(2, { last_message_at: '2026-01-03T10:00:00Z' }),
      3: room(3, { messages: [message(3, 1, { created_at: '2026-01-02T10:00:00Z' })] }),
    };
    expect(sortRoomIds(rooms, [1, 2, 3])).toEqual([2, 3, 1]);
  });

  it('a live message moves the room forward, never back', () => {
    const r = room(1, { messages: [message(1, 10)], last_message_at: message(1, 10).created_at });
    const newer = withNewMessage(r, message(1, 11));
    expect(newer.messages[0].id).toBe(11);
    expect(withNewMessage(newer, message(1, 10))).toBe(newer);
    // A slow fetch with an older preview keeps the newer one.
    expect(mergeRoom(newer, r).messages[0].id).toBe(11);
  });

  it('filters like contactMatches: term on name or external id, any tag, channels', () => {
    const r = room(1, { name: 'Zoé Martin', external_id: '+33 6 12', page_id: 2, tags: [{ id: 5, name: 'vip' }] });
    expect(roomMatches(r, { term: 'zoé', tags: [], channels: [] })).toBe(true);
    expect(roomMatches(r, { term: '33 6', tags: [], channels: [] })).toBe(true);
    expect(roomMatches(r, { term: 'bob', tags: [], channels: [] })).toBe(false);
    expect(roomMatches(r, { term: '', tags: [{ id: 9 }, { id: 5 }], channels: [] })).toBe(true);
    expect(roomMatches(r, { term: '', tags: [{ id: 9 }], channels: [] })).toBe(false);
    expect(roomMatches(r, { term: '', tags: [], channels: [1] })).toBe(false);
    expect(roomMatches(r, { term: '', tags: [], channels: [2] })).toBe(true);
  });
});

describe('togglePause (spec §4)', () => {
  const now = Date.parse('2026-03-01T09:00:00Z');
  it('pauses for 1 day by default, or N days', () => {
    expect(togglePause({ paused_until: null }, undefined, now)).toBe(new Date(now + DAY_MS).toISOString());
    expect(togglePause({ paused_until: null }, 3, now)).toBe(new Date(now + 3 * DAY_MS).toISOString());
    expect(togglePause({ paused_until: null }, 0, now)).toBe(new Date(now + DAY_MS).toISOString());
  });
  it('clears when already paused; a past pause counts as not paused', () => {
    expect(togglePause({ paused_until: new Date(now + 1000).toISOString() }, 5, now)).toBeNull();
    const past = { paused_until: new Date(now - 1000).toISOString() };
    expect(isRoomPaused(past, now)).toBe(false);
    expect(togglePause(past, 2, now)).toBe(new Date(now + 2 * DAY_MS).toISOString());
  });
});
