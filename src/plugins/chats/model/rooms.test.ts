import { describe, expect, it } from 'vitest';
import { isRoomPaused } from '../../../../contract/chats';
import { message, room } from '../testing/fakeChatServer';
import { DAY_MS, latestInbound, mergeRoom, roomMatches, sortRoomIds, togglePause, withInbound, withNewMessage } from './rooms';

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

  it("previews the room's last message to or from the customer, never a private note", () => {
    // The join's newest page carries the room's notes (this console asks for them); the list shows what the server's does.
    const note = message(1, 12, { origin: 'note', private: true, text: 'Refund approved, tell her tomorrow' });
    const opened = room(1, { messages: [message(1, 10), message(1, 11, { text: 'Thanks!' }), note] });
    expect(mergeRoom(undefined, opened).messages.map((m) => m.id)).toEqual([11]);
    expect(mergeRoom(room(1, { messages: [message(1, 10)] }), opened).messages.map((m) => m.id)).toEqual([11]);
    expect(mergeRoom(undefined, room(1, { messages: [note] })).messages).toEqual([]);
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

describe('last_inbound_at (WhatsApp 24-hour window)', () => {
  const at = (h: number) => new Date(Date.UTC(2026, 0, 1, h)).toISOString();

  it('becomes max(last_inbound_at, created_at) of customer messages only', () => {
    expect(latestInbound(null, [message(1, 1, { origin: 'user', created_at: at(10) })])).toBe(at(10));
    expect(latestInbound(at(10), [message(1, 2, { origin: 'agent', created_at: at(12) }), message(1, 3, { origin: 'bot', created_at: at(13) })])).toBe(at(10));
    expect(latestInbound(at(10), [message(1, 4, { origin: 'user', created_at: at(9) })])).toBe(at(10));
    expect(latestInbound(at(10), [message(1, 5, { origin: 'user', created_at: at(11) }), message(1, 6, { origin: 'user', created_at: at(10) })])).toBe(at(11));
    // Instants are compared, not strings: 11:00+01:00 is 10:00Z, earlier than 10:30Z.
    expect(latestInbound('2026-01-01T10:30:00.000Z', [message(1, 7, { origin: 'user', created_at: '2026-01-01T11:00:00+01:00' })])).toBe('2026-01-01T10:30:00.000Z');
  });

  it('a live customer message moves it forward; an agent message or an older one does not', () => {
    const r = room(1, { platform: 'whatsapp', last_inbound_at: at(10), messages: [message(1, 10, { created_at: at(10) })] });
    const agent = withNewMessage(r, message(1, 11, { origin: 'agent', created_at: at(12) }));
    expect(agent.last_inbound_at).toBe(at(10));
    const customer = withNewMessage(agent, message(1, 12, { origin: 'user', created_at: at(13) }));
    expect(customer.last_inbound_at).toBe(at(13));
    // An older customer message (already previewed past it) still cannot move it back.
    expect(withNewMessage(customer, message(1, 5, { origin: 'user', created_at: at(8) })).last_inbound_at).toBe(at(13));
    expect(withInbound(customer, [message(1, 6, { origin: 'agent', created_at: at(20) })])).toBe(customer);
  });

  it('merging a fetched room keeps the later of ours and the server\'s, and counts the customer messages it carries', () => {
    const known = room(1, { last_inbound_at: at(15) });
    expect(mergeRoom(known, room(1, { last_inbound_at: at(12) })).last_inbound_at).toBe(at(15));
    expect(mergeRoom(known, room(1, { last_inbound_at: at(16) })).last_inbound_at).toBe(at(16));
    expect(mergeRoom(undefined, room(1, { last_inbound_at: null, messages: [message(1, 1, { origin: 'user', created_at: at(9) })] })).last_inbound_at).toBe(at(9));
    expect(mergeRoom(known, room(1, { last_inbound_at: null, messages: [message(1, 2, { origin: 'user', created_at: at(17) })] })).last_inbound_at).toBe(at(17));
  });
});
