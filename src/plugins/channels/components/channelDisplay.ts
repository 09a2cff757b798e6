import { mdiFacebookMessenger, mdiInstagram, mdiTestTube, mdiWhatsapp } from '@mdi/js';
import type { Channel } from '../../../../contract/channels';
import type { Platform } from '../../../../contract/chats';
import { dateTimeFormat } from '../../../core';

/** What the status chip says about a channel. */
export type ChannelState = 'connected' | 'setting_up' | 'needs_attention' | 'failed' | 'disconnected';

/**
 * A channel's state for the page: disconnected first; WhatsApp from its embedded signup
 * (completed, in_progress, partial_failure, failed); the others (and a WhatsApp channel without a
 * signup) from their status.
 */
export function channelState(channel: Pick<Channel, 'platform' | 'status' | 'signup_status'>): ChannelState {
  if (channel.status === 'disconnected') return 'disconnected';
  if (channel.platform === 'whatsapp' && channel.signup_status) {
    switch (channel.signup_status) {
      case 'completed':
        return 'connected';
      case 'in_progress':
        return 'setting_up';
      case 'partial_failure':
        return 'needs_attention';
      case 'failed':
        return 'failed';
    }
  }
  return channel.status === 'active' ? 'connected' : 'setting_up';
}

export const STATE_COLORS: Record<ChannelState, 'success' | 'info' | 'warning' | 'error' | 'default'> = {
  connected: 'success',
  setting_up: 'info',
  needs_attention: 'warning',
  failed: 'error',
  disconnected: 'default',
};

/** mdi icon and colour per platform (WhatsApp green, Messenger blue, Instagram pink, sandbox grey). */
export const PLATFORM_ICONS: Record<Platform, { path: string; color: string }> = {
  whatsapp: { path: mdiWhatsapp, color: '#25D366' },
  messenger: { path: mdiFacebookMessenger, color: '#0084FF' },
  instagram: { path: mdiInstagram, color: '#E1306C' },
  sandbox: { path: mdiTestTube, color: '#607D8B' },
};

/** The identifier shown under the name, as an i18n key and its values. */
export function channelIdentifier(channel: Pick<Channel, 'platform' | 'external_id' | 'display_phone_number'>): { key: string; values?: Record<string, string> } | { text: string } {
  switch (channel.platform) {
    case 'whatsapp':
      return { text: channel.display_phone_number || channel.external_id };
    case 'messenger':
      return { key: 'channels.identifier.page', values: { id: channel.external_id } };
    case 'instagram':
      return { key: 'channels.identifier.account', values: { id: channel.external_id } };
    default:
      return { key: 'channels.identifier.sandbox' };
  }
}

/** A date as the user's locale writes it (e.g. "12 Mar 2024" / "12 mars 2024"); the raw value when unreadable. */
export function formatDate(value: string, locale: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  try {
    return dateTimeFormat(locale, { dateStyle: 'medium' }).format(date);
  } catch {
    return date.toLocaleDateString();
  }
}
