import { describe, expect, it } from 'vitest';
import { WHATSAPP_WINDOW_MS } from '../../../../contract/channels';
import { customerWindow, remainingParts } from './window';

describe('customer service window', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  const wrote = (msAgo: number) => new Date(now - msAgo).toISOString();

  it('applies to WhatsApp rooms only; closed when the customer never wrote or 24 h have passed', () => {
    expect(customerWindow({ platform: 'messenger', last_inbound_at: null }, now)).toMatchObject({ applies: false, closed: false });
    expect(customerWindow({ platform: 'whatsapp', last_inbound_at: null }, now)).toMatchObject({ applies: true, closed: true, closesAt: null, remainingMs: 0 });
    expect(customerWindow({ platform: 'whatsapp', last_inbound_at: wrote(WHATSAPP_WINDOW_MS) }, now)).toMatchObject({ closed: true, remainingMs: 0 });
    expect(customerWindow({ platform: 'whatsapp', last_inbound_at: wrote(60_000) }, now)).toMatchObject({ closed: false, closesAt: now - 60_000 + WHATSAPP_WINDOW_MS, remainingMs: WHATSAPP_WINDOW_MS - 60_000 });
  });

  it('hours and minutes left, minutes rounded up', () => {
    expect(remainingParts((5 * 60 + 12) * 60_000)).toEqual({ hours: 5, minutes: 12 });
    expect(remainingParts((5 * 60 + 11) * 60_000 + 20_000)).toEqual({ hours: 5, minutes: 12 });
    expect(remainingParts(30_000)).toEqual({ hours: 0, minutes: 1 });
    expect(remainingParts(WHATSAPP_WINDOW_MS)).toEqual({ hours: 24, minutes: 0 });
    expect(remainingParts(0)).toEqual({ hours: 0, minutes: 0 });
  });
});
