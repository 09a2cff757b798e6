import { describe, expect, it } from 'vitest';
import { channelIdentifier, channelState, formatDate } from './channelDisplay';
import { connectablePages } from './ConnectPageDialog';
import { FACEBOOK_PAGES } from '../testing/fixtures';

describe('channelState', () => {
  it('reads WhatsApp channels from their signup', () => {
    expect(channelState({ platform: 'whatsapp', status: 'active', signup_status: 'completed' })).toBe('connected');
    expect(channelState({ platform: 'whatsapp', status: 'pending', signup_status: 'in_progress' })).toBe('setting_up');
    expect(channelState({ platform: 'whatsapp', status: 'active', signup_status: 'partial_failure' })).toBe('needs_attention');
    expect(channelState({ platform: 'whatsapp', status: 'pending', signup_status: 'failed' })).toBe('failed');
  });

  it('reads the others from their status, disconnected first', () => {
    expect(channelState({ platform: 'messenger', status: 'active', signup_status: null })).toBe('connected');
    expect(channelState({ platform: 'instagram', status: 'pending', signup_status: null })).toBe('setting_up');
    expect(channelState({ platform: 'whatsapp', status: 'disconnected', signup_status: 'completed' })).toBe('disconnected');
    expect(channelState({ platform: 'sandbox', status: 'active', signup_status: null })).toBe('connected');
  });
});

describe('channelIdentifier', () => {
  it('shows the phone number for WhatsApp (the number id when unknown) and the page or account id otherwise', () => {
    expect(channelIdentifier({ platform: 'whatsapp', external_id: 'pn', display_phone_number: '+1 555' })).toEqual({ text: '+1 555' });
    expect(channelIdentifier({ platform: 'whatsapp', external_id: 'pn', display_phone_number: null })).toEqual({ text: 'pn' });
    expect(channelIdentifier({ platform: 'messenger', external_id: '1', display_phone_number: null })).toEqual({ key: 'channels.identifier.page', values: { id: '1' } });
    expect(channelIdentifier({ platform: 'instagram', external_id: '2', display_phone_number: null })).toEqual({ key: 'channels.identifier.account', values: { id: '2' } });
  });
});

describe('formatDate', () => {
  it('follows the locale and keeps unreadable values', () => {
    expect(formatDate('2024-03-12T10:00:00Z', 'en')).toBe('Mar 12, 2024');
    expect(formatDate('2024-03-12T10:00:00Z', 'fr')).toBe('12 mars 2024');
    expect(formatDate('soon', 'en')).toBe('soon');
  });
});

describe('connectablePages', () => {
  it('keeps only pages with an Instagram account for Instagram', () => {
    expect(connectablePages(FACEBOOK_PAGES, 'messenger')).toHaveLength(3);
    expect(connectablePages(FACEBOOK_PAGES, 'instagram').map((p) => p.id)).toEqual(['1001', '1003']);
  });
});
