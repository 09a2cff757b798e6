import { describe, expect, it } from 'vitest';
import { choicesContentOf, LIST_BUTTON_TEXT } from './interactive';
import { messengerMessagePayload, whatsAppMessagePayload } from './outboundPayloads';

const buttons = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `o${i + 1}`, title: `Option ${i + 1}` }));
const message = (n: number, text = 'Choose') => ({ type: 'interactive', text, data: { buttons: buttons(n) } });

describe('a message with choices on the Meta channels', () => {
  it('WhatsApp: reply buttons up to 3', () => {
    const content = choicesContentOf('whatsapp', message(3))!;
    expect(whatsAppMessagePayload('34600000000', content)).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Choose' },
        action: { buttons: [{ type: 'reply', reply: { id: 'o1', title: 'Option 1' } }, { type: 'reply', reply: { id: 'o2' } }, { type: 'reply', reply: { id: 'o3' } }] },
      },
    });
  });

  it('WhatsApp: a list beyond 3 (rows keep the option ids)', () => {
    const payload = whatsAppMessagePayload('34600000000', choicesContentOf('whatsapp', message(5))!) as { interactive: { type: string; action: { button: string; sections: { rows: { id: string }[] }[] } } };
    expect(payload.interactive.type).toBe('list');
    expect(payload.interactive.action.button).toBe(LIST_BUTTON_TEXT);
    expect(payload.interactive.action.sections[0].rows.map((r) => r.id)).toEqual(['o1', 'o2', 'o3', 'o4', 'o5']);
  });

  it('titles over the channel’s limit are shortened, not refused', () => {
    const long = { type: 'interactive', text: 'Choose', data: { buttons: [{ id: 'x', title: 'A very long option title indeed' }] } };
    const payload = whatsAppMessagePayload('34600000000', choicesContentOf('whatsapp', long)!) as { interactive: { action: { buttons: { reply: { title: string } }[] } } };
    expect(payload.interactive.action.buttons[0].reply.title).toBe('A very long option…');
    expect(payload.interactive.action.buttons[0].reply.title.length).toBeLessThanOrEqual(20);
  });

  it('Messenger and Instagram: quick replies', () => {
    for (const platform of ['messenger', 'instagram']) {
      expect(messengerMessagePayload('psid-1', choicesContentOf(platform, message(4))!)).toEqual({
        recipient: { id: 'psid-1' },
        messaging_type: 'RESPONSE',
        message: { text: 'Choose', quick_replies: buttons(4).map((b) => ({ content_type: 'text', title: b.title, payload: b.id })) },
      });
    }
  });

  it("Instagram: a long text is shortened to Instagram's 1000 bytes, never cutting a character, and then sent", () => {
    const content = choicesContentOf('instagram', message(2, 'é'.repeat(700)))!;
    const payload = messengerMessagePayload('IGSID', content, 'instagram') as { message: { text: string } };
    expect(Buffer.byteLength(payload.message.text, 'utf8')).toBeLessThanOrEqual(1000);
    expect(payload.message.text).toBe(`${'é'.repeat(498)}…`);
    // Messenger keeps its own limit (2000 characters).
    expect((messengerMessagePayload('PSID', choicesContentOf('messenger', message(2, 'é'.repeat(700)))!) as { message: { text: string } }).message.text).toHaveLength(700);
  });

  it('anything else is left to the plain content (no buttons, no text, the sandbox)', () => {
    expect(choicesContentOf('whatsapp', { type: 'text', text: 'Hi', data: null })).toBeNull();
    expect(choicesContentOf('whatsapp', { type: 'interactive', text: 'Hi', data: { buttons: [] } })).toBeNull();
    expect(choicesContentOf('whatsapp', { type: 'interactive', text: ' ', data: { buttons: buttons(1) } })).toBeNull();
    expect(choicesContentOf('sandbox', message(2))).toBeNull();
  });
});
