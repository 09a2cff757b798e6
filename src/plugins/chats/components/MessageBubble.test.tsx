// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { chatsPlugin } from '../index';
import type { ChatMessage } from '../model/messages';
import { message } from '../testing/fakeChatServer';
import { MessageBubble } from './MessageBubble';

function show(m: ChatMessage, onRetry = vi.fn(), locale?: string) {
  renderPluginPage(<MessageBubble message={m} onRetry={onRetry} />, { adminContext: false, route: false, plugins: [chatsPlugin], features: ['chats'], ...(locale ? { locale } : {}) });
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

  it('a CSAT rating (issue #22): a small event row in the thread, not a bubble', () => {
    const { row } = show(message(1, 1, { origin: 'system', type: 'text', text: 'Rated 4/5', data: { csat: { rating: 4 } }, status: null }));
    expect(row).toHaveAttribute('data-event', 'csat');
    expect(within(row).getByTestId('csat-event')).toHaveTextContent('Customer rated the conversation 4/5');
    expect(within(row).queryByTestId('message-text')).toBeNull();
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

describe('MessageBubble: the AI assistant (issue #24)', () => {
  it("the assistant's answer is the bot's, marked AI with its sources; a plain bot message has no mark", () => {
    const { row } = show(message(1, 1, { origin: 'bot', status: 'delivered', text: 'Returns are free within 30 days.', data: { assistant: { sources: [{ id: 2, title: 'Returns and refunds' }], handover: false } } }));
    expect(within(row).getByTestId('ai-mark')).toHaveTextContent('AI');
    expect(within(row).getByLabelText('Answered by the AI assistant')).toBeInTheDocument();
    expect(within(row).getByTestId('ai-sources')).toHaveTextContent('Sources: Returns and refunds');
    expect(within(row).queryByTestId('ai-handover')).toBeNull();
  });

  it('its hand-over says so', () => {
    show(message(1, 1, { origin: 'bot', status: 'delivered', text: 'Let me pass you to a person.', data: { assistant: { sources: [], handover: true } } }));
    expect(screen.getByTestId('ai-handover')).toHaveTextContent('Handed over to a person');
    expect(screen.queryByTestId('ai-sources')).toBeNull();
  });

  it('a bot message without the mark shows none', () => {
    show(message(1, 1, { origin: 'bot', status: 'delivered', text: 'Welcome!', data: null }));
    expect(screen.queryByTestId('ai-mark')).toBeNull();
  });
});

describe('MessageBubble: reactions, orders and system lines (issue #25)', () => {
  it("the customer's reaction is a badge under the bubble, labelled; none once removed", () => {
    const { row } = show(message(1, 1, { origin: 'agent', status: 'read', text: 'Your parcel left today', data: { reaction: '👍', reaction_at: '2026-01-01T10:00:00.000Z' } }));
    const badge = within(row).getByRole('img', { name: 'Customer reacted 👍' });
    expect(badge).toHaveTextContent('👍');
    expect(badge).toHaveAttribute('data-testid', 'message-reaction');
    // The bubble keeps its content and ticks.
    expect(within(row).getByTestId('message-text')).toHaveTextContent('Your parcel left today');
    expect(within(row).getByRole('img', { name: 'Read' })).toBeInTheDocument();
  });

  it('a removed reaction shows no badge', () => {
    const { row } = show(message(1, 2, { text: 'thanks', data: { reaction: null, reaction_at: '2026-01-01T10:00:00.000Z' } }));
    expect(within(row).queryByTestId('message-reaction')).toBeNull();
  });

  it('an order is a card: items with their amounts, the total and the note', () => {
    const order = {
      catalog_id: 'CAT1',
      text: 'Gift wrap please',
      product_items: [
        { product_retailer_id: 'SKU-1', quantity: '2', item_price: '12.5', currency: 'EUR' },
        { product_retailer_id: 'SKU-2', quantity: 1, item_price: 5, currency: 'EUR' },
      ],
    };
    const text = 'Order: 2 × SKU-1 at 12.50 EUR, 1 × SKU-2 at 5.00 EUR · total 30.00 EUR\nGift wrap please';
    const { row } = show(message(1, 3, { type: 'text', text, data: { order } }));
    const card = within(row).getByTestId('message-order');
    expect(card).toHaveTextContent('Order');
    const items = within(card).getAllByTestId('message-order-item');
    expect(items.map((i) => i.textContent)).toEqual(['2 × SKU-1 · €12.50 each€25.00', '1 × SKU-2€5.00']);
    expect(within(card).getByTestId('message-order-total')).toHaveTextContent('Total€30.00');
    expect(within(card).getByTestId('message-text')).toHaveTextContent('Gift wrap please');
  });

  it('a number change is an event row read from its data, in the console language', () => {
    const m = message(1, 4, { origin: 'system', type: 'text', text: 'The customer changed their number to +15551230045', data: { system: 'number_changed', new_id: '15551230045' }, status: null });
    const { row } = show(m);
    expect(row).toHaveAttribute('data-event', 'number_changed');
    expect(within(row).getByTestId('system-event')).toHaveTextContent('The customer changed their number to +15551230045');
    cleanup();
    show(m, vi.fn(), 'fr');
    expect(screen.getByTestId('system-event')).toHaveTextContent('Le client a changé de numéro : +15551230045');
  });

  it("a message the channel cannot show says where to see it", () => {
    const { row } = show(message(1, 5, { origin: 'system', type: 'text', text: 'x', data: { system: 'unsupported', platform: 'whatsapp' }, status: null }));
    expect(row).toHaveAttribute('data-event', 'unsupported');
    expect(within(row).getByTestId('system-event')).toHaveTextContent('The customer sent a message this channel cannot show (see it in the WhatsApp app)');
    expect(within(row).queryByTestId('message-text')).toBeNull();
  });
});
