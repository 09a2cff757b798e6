// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { chatsPlugin } from '../index';
import { message, room } from '../testing/fakeChatServer';
import { RoomListItem } from './RoomListItem';

function show(last: Parameters<typeof message>[2], locale?: string) {
  const r = room(1, { platform: 'whatsapp', messages: [message(1, 1, last)] });
  renderPluginPage(<RoomListItem room={r} channel="WhatsApp" unread={0} selected={false} onSelect={() => {}} />, {
    adminContext: false,
    route: false,
    plugins: [chatsPlugin],
    features: ['chats'],
    ...(locale ? { locale } : {}),
  });
  return screen.getByTestId('room-item-preview');
}

describe('RoomListItem: the preview of a system line (issue #25)', () => {
  it('reads from its data in the console language, not from the stored English text', () => {
    expect(show({ origin: 'system', text: 'stored', data: { system: 'number_changed', new_id: '15551230045' }, status: null })).toHaveTextContent(
      'The customer changed their number to +15551230045',
    );
  });

  it('in French too', () => {
    expect(show({ origin: 'system', text: 'stored', data: { system: 'unsupported', platform: 'whatsapp' }, status: null }, 'fr')).toHaveTextContent(
      "Le client a envoyé un message que ce canal ne peut pas afficher (voyez-le dans l'application WhatsApp)",
    );
  });
});

describe('RoomListItem: the unread badge', () => {
  function badge(unread: number) {
    const r = room(2, { platform: 'whatsapp', messages: [message(2, 2, { origin: 'user', text: 'hi', status: null })] });
    const view = renderPluginPage(<RoomListItem room={r} channel="WhatsApp" unread={unread} selected={false} onSelect={() => {}} />, {
      adminContext: false,
      route: false,
      plugins: [chatsPlugin],
      features: ['chats'],
    });
    const shown = screen.queryByTestId('room-unread');
    const result = shown ? { text: shown.textContent, label: shown.getAttribute('aria-label') } : null;
    view.unmount();
    return result;
  }

  it('shows the count up to 99, then 99+ from UNREAD_COUNT_LIMIT where the server stops counting, and says so to a screen reader', () => {
    expect(badge(0)).toBeNull();
    expect(badge(7)).toEqual({ text: '7', label: '7 unread' });
    expect(badge(99)).toEqual({ text: '99', label: '99 unread' });
    expect(badge(100)).toEqual({ text: '99+', label: '99+ unread' });
    expect(badge(140)).toEqual({ text: '99+', label: '99+ unread' });
  });
});
