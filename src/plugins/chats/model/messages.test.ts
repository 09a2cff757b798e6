import { describe, expect, it } from 'vitest';
import { message } from '../testing/fakeChatServer';
import { forwardStatus, lastServerMessageId, mergeMessages, oldestTimestamp, optimisticMessage, type ChatMessage } from './messages';

describe('mergeMessages', () => {
  it('orders by created_at and never duplicates by id', () => {
    const a = message(1, 1);
    const b = message(1, 2);
    const c = message(1, 3);
    const list = mergeMessages([], [c, a]);
    expect(list.map((m) => m.id)).toEqual([1, 3]);
    const next = mergeMessages(list, [b, a, c]);
    expect(next.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(mergeMessages(next, [a])).toBe(next); // nothing changed: same array
  });

  it('orders by created_at even when ids disagree', () => {
    const late = message(1, 1, { created_at: '2026-01-02T00:00:00.000Z' });
    const early = message(1, 2, { created_at: '2026-01-01T00:00:00.000Z' });
    expect(mergeMessages([late], [early]).map((m) => m.id)).toEqual([2, 1]);
  });

  it("replaces an optimistic message by the server's copy with the same client_id", () => {
    const local = optimisticMessage(1, 'hi 👋', 'cid-1', 'Ada', Date.parse('2026-01-01T12:00:10Z'));
    const list = mergeMessages([message(1, 1)], [local]);
    expect(list).toHaveLength(2);
    const server = message(1, 50, { origin: 'agent', text: 'hi 👋', client_id: 'cid-1', status: 'sent', created_at: '2026-01-01T12:00:11Z' });
    const merged = mergeMessages(list, [server]);
    expect(merged).toHaveLength(2);
    expect(merged[1]).toMatchObject({ id: 50, status: 'sent', client_id: 'cid-1' });
    expect((merged[1] as ChatMessage).local).toBeUndefined();
    // The same message again (room and page topics both deliver it, or a resend): still one.
    expect(mergeMessages(merged, [server, { ...server }])).toHaveLength(2);
  });

  it('moves status only forward (DELIVERY_ORDER)', () => {
    const sent = message(1, 5, { origin: 'agent', status: 'sent' });
    let list = mergeMessages([], [sent]);
    list = mergeMessages(list, [{ ...sent, status: 'read' }]);
    expect(list[0].status).toBe('read');
    list = mergeMessages(list, [{ ...sent, status: 'delivered' }]);
    expect(list[0].status).toBe('read');
    expect(forwardStatus('pending', 'sent')).toBe('sent');
    expect(forwardStatus('delivered', 'sent')).toBe('delivered');
    expect(forwardStatus('read', 'failed')).toBe('failed');
    expect(forwardStatus('failed', 'read')).toBe('failed');
    expect(forwardStatus(null, 'sent')).toBe('sent');
    expect(forwardStatus('sent', null)).toBe('sent');
  });

  it('knows the newest stored id and the oldest timestamp, ignoring optimistic messages', () => {
    const list = mergeMessages([], [message(1, 3), message(1, 9), optimisticMessage(1, 'x', 'c', null)]);
    expect(lastServerMessageId(list)).toBe(9);
    expect(oldestTimestamp(list)).toBe(message(1, 3).created_at);
    expect(lastServerMessageId([])).toBeNull();
  });
});
