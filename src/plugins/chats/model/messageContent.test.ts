import { describe, expect, it } from 'vitest';
import { message } from '../testing/fakeChatServer';
import { messageContent, openStreetMapUrl } from './messageContent';

describe('message content by type', () => {
  it('templates: the rendered body and the template name', () => {
    expect(messageContent(message(1, 1, { type: 'template', text: 'Hi Ann', data: { template: { name: 'welcome', language: 'en', parameters: ['Ann'] } } }))).toEqual({ kind: 'template', text: 'Hi Ann', name: 'welcome' });
    expect(messageContent(message(1, 1, { type: 'template', text: 'Hi', data: null }))).toEqual({ kind: 'template', text: 'Hi', name: null });
  });

  it('button and list replies: the title (text, else data.title)', () => {
    expect(messageContent(message(1, 1, { type: 'button_reply', text: 'Yes', data: { id: 'b1', title: 'Yes' } }))).toEqual({ kind: 'reply', via: 'button', title: 'Yes' });
    expect(messageContent(message(1, 1, { type: 'list_reply', text: null, data: { id: 'r2', title: 'Large' } }))).toEqual({ kind: 'reply', via: 'list', title: 'Large' });
  });

  it('location: place, address and an OpenStreetMap link; without coordinates it falls back to text', () => {
    const c = messageContent(message(1, 1, { type: 'location', text: null, data: { latitude: 48.8584, longitude: 2.2945, name: 'Eiffel Tower', address: 'Champ de Mars, Paris' } }));
    expect(c).toEqual({ kind: 'location', latitude: 48.8584, longitude: 2.2945, name: 'Eiffel Tower', address: 'Champ de Mars, Paris', mapUrl: 'https://www.openstreetmap.org/?mlat=48.8584&mlon=2.2945#map=16/48.8584/2.2945' });
    expect(openStreetMapUrl(-33.9, 18.4)).toBe('https://www.openstreetmap.org/?mlat=-33.9&mlon=18.4#map=16/-33.9/18.4');
    expect(messageContent(message(1, 1, { type: 'location', text: 'somewhere', data: {} }))).toEqual({ kind: 'text', text: 'somewhere' });
  });

  it('contacts: names and phone numbers', () => {
    const data = { contacts: [{ name: { formatted_name: 'Ann Lee' }, phones: [{ phone: '+1 555 0100' }, { phone: '+1 555 0101' }] }, { name: { first_name: 'Bo' }, phones: [] }] };
    expect(messageContent(message(1, 1, { type: 'contacts', text: null, data }))).toEqual({
      kind: 'contacts',
      contacts: [
        { name: 'Ann Lee', phones: ['+1 555 0100', '+1 555 0101'] },
        { name: 'Bo', phones: [] },
      ],
    });
  });

  it('interactive: body and button titles in the shapes the channels and the bot use', () => {
    expect(messageContent(message(1, 1, { type: 'interactive', text: 'Pick one', data: { buttons: [{ id: 'a', title: 'Yes' }, 'No'] } }))).toEqual({ kind: 'interactive', text: 'Pick one', buttons: ['Yes', 'No'] });
    const wa = { type: 'button', body: { text: 'Confirm?' }, action: { buttons: [{ type: 'reply', reply: { id: 'y', title: 'Confirm' } }] } };
    expect(messageContent(message(1, 1, { type: 'interactive', text: null, data: wa }))).toEqual({ kind: 'interactive', text: 'Confirm?', buttons: ['Confirm'] });
    const list = { body: 'Sizes', action: { button: 'Choose', sections: [{ title: 'All', rows: [{ id: 's', title: 'Small' }, { id: 'l', title: 'Large' }] }] } };
    expect(messageContent(message(1, 1, { type: 'interactive', text: null, data: list }))).toEqual({ kind: 'interactive', text: 'Sizes', buttons: ['Small', 'Large'] });
  });

  it('text and unknown payloads', () => {
    expect(messageContent(message(1, 1, { text: 'hello' }))).toEqual({ kind: 'text', text: 'hello' });
    expect(messageContent(message(1, 1, { text: null, data: { a: 1 } }))).toEqual({ kind: 'text', text: '{"a":1}' });
  });
});
