// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { chatsPlugin } from '../index';
import type { ChatMessage } from '../model/messages';
import { message } from '../testing/fakeChatServer';
import { MessageBubble } from './MessageBubble';

function show(m: ChatMessage, onRetry = vi.fn()) {
  renderPluginPage(<MessageBubble message={m} onRetry={onRetry} />, { adminContext: false, route: false, plugins: [chatsPlugin], features: ['chats'] });
  return { row: screen.getByTestId('message-row'), onRetry };
}

describe('MessageBubble: WhatsApp message kinds', () => {
  it('template: the body and a "Template · name" caption', () => {
    const { row } = show(message(1, 1, { origin: 'agent', status: 'delivered', type: 'template', text: 'Hi Ann, your order #42 has shipped.', data: { template: { name: 'order_update', language: 'en_US', parameters: ['Ann', '#42'] } } }));
    expect(within(row).getByTestId('message-text')).toHaveTextContent('Hi Ann, your order #42 has shipped.');
    expect(within(row).getByTestId('message-caption')).toHaveTextContent('Template · order_update');
    expect(within(row).getByRole('img', { name: 'Delivered' })).toBeInTheDocument();
  });

  it('button and list replies: the title with what the customer did', () => {
    show(message(1, 1, { type: 'button_reply', text: 'Yes, confirm', data: { id: 'confirm', title: 'Yes, confirm' } }));
    expect(screen.getByTestId('message-text')).toHaveTextContent('Yes, confirm');
    expect(screen.getByTestId('message-caption')).toHaveTextContent('Replied with a button');
  });

  it('list reply', () => {
    show(message(1, 1, { type: 'list_reply', text: 'Large', data: { id: 'l', title: 'Large' } }));
    expect(screen.getByTestId('message-text')).toHaveTextContent('Large');
    expect(screen.getByTestId('message-caption')).toHaveTextContent('Chose from a list');
  });

  it('location: place, address and an "Open map" link to OpenStreetMap in a new tab', () => {
    show(message(1, 1, { type: 'location', text: null, data: { latitude: 48.8584, longitude: 2.2945, name: 'Eiffel Tower', address: 'Champ de Mars, Paris' } }));
    const loc = screen.getByTestId('message-location');
    expect(loc).toHaveTextContent('Eiffel Tower');
    expect(loc).toHaveTextContent('Champ de Mars, Paris');
    const link = within(loc).getByRole('link', { name: 'Open map' });
    expect(link).toHaveAttribute('href', 'https://www.openstreetmap.org/?mlat=48.8584&mlon=2.2945#map=16/48.8584/2.2945');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toMatch(/noopener/);
  });

  it('contacts: names and phone numbers', () => {
    show(message(1, 1, { type: 'contacts', text: null, data: { contacts: [{ name: { formatted_name: 'Ann Lee' }, phones: [{ phone: '+1 555 0100' }] }, { name: { formatted_name: 'Bo Chen' }, phones: [{ phone: '+44 20 7946 0000' }] }] } }));
    const c = screen.getByTestId('message-contacts');
    expect(c).toHaveTextContent('2 shared contacts');
    expect(c).toHaveTextContent('Ann Lee');
    expect(within(c).getByRole('link', { name: '+1 555 0100' })).toHaveAttribute('href', 'tel:+15550100');
    expect(c).toHaveTextContent('Bo Chen');
    expect(within(c).getByRole('link', { name: '+44 20 7946 0000' })).toBeInTheDocument();
  });

  it('interactive: the body and its buttons as chips', () => {
    show(message(1, 1, { origin: 'bot', type: 'interactive', text: 'How can we help?', data: { buttons: [{ id: 'a', title: 'Track order' }, { id: 'b', title: 'Talk to us' }] } }));
    expect(screen.getByTestId('message-text')).toHaveTextContent('How can we help?');
    const buttons = screen.getByTestId('message-buttons');
    expect(within(buttons).getByText('Track order')).toBeInTheDocument();
    expect(within(buttons).getByText('Talk to us')).toBeInTheDocument();
  });

  it('a failed outgoing message shows its error next to Retry', () => {
    const { onRetry } = show({ ...message(1, -3, { origin: 'agent', status: 'failed', client_id: 'c-9', text: 'hello', error: 'Message failed to send because more than 24 hours have passed' }), local: true });
    const failure = screen.getByTestId('message-failure');
    expect(failure).toHaveTextContent('Not sent · Message failed to send because more than 24 hours have passed');
    fireEvent.click(within(failure).getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledWith('c-9');
  });

  it('a message the channel reported failed (stored, not retryable here) still shows the reason', () => {
    show(message(1, 7, { origin: 'agent', status: 'failed', text: 'hello', error: 'Recipient phone number not in allowed list' }));
    expect(screen.getByTestId('message-failure')).toHaveTextContent('Not sent · Recipient phone number not in allowed list');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });
});
