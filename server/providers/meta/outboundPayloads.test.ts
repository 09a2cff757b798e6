import { describe, expect, it } from 'vitest';
import { messengerMessagePayload, OutboundContentError, whatsAppMessagePayload } from './outboundPayloads';

describe('whatsAppMessagePayload', () => {
  it('normalises the number and refuses what is not one', () => {
    expect(whatsAppMessagePayload('+1 (555) 010-1234', { kind: 'text', text: 'hi' })).toMatchObject({ to: '15550101234' });
    expect(() => whatsAppMessagePayload('customer@example.com', { kind: 'text', text: 'hi' })).toThrow(OutboundContentError);
  });

  it('needs section titles only when a list has several sections', () => {
    const rows = [{ id: 'a', title: 'A' }];
    expect(() => whatsAppMessagePayload('15550001', { kind: 'list', body: 'x', buttonText: 'Open', sections: [{ title: '', rows }] })).not.toThrow();
    expect(() =>
      whatsAppMessagePayload('15550001', { kind: 'list', body: 'x', buttonText: 'Open', sections: [{ title: '', rows }, { title: 'B', rows: [{ id: 'b', title: 'B' }] }] }),
    ).toThrow('A section title cannot be empty.');
  });

  it("holds list row ids to Meta's 200 characters and reply button ids to 256 (issue #25)", () => {
    const list = (id: string) => whatsAppMessagePayload('15550001', { kind: 'list', body: 'x', buttonText: 'Open', sections: [{ title: '', rows: [{ id, title: 'A' }] }] });
    expect(() => list('r'.repeat(200))).not.toThrow();
    expect(() => list('r'.repeat(201))).toThrow('A row id is too long (201 characters, at most 200).');
    const buttons = (id: string) => whatsAppMessagePayload('15550001', { kind: 'buttons', body: 'x', buttons: [{ id, title: 'A' }] });
    expect(() => buttons('b'.repeat(256))).not.toThrow();
    expect(() => buttons('b'.repeat(257))).toThrow('A button id is too long (257 characters, at most 256).');
  });

  it('refuses duplicate button ids, empty text and non-http links', () => {
    expect(() => whatsAppMessagePayload('15550001', { kind: 'buttons', body: 'x', buttons: [{ id: 'a', title: 'A' }, { id: 'a', title: 'B' }] })).toThrow('Each button needs a different id.');
    expect(() => whatsAppMessagePayload('15550001', { kind: 'text', text: '  ' })).toThrow('The message cannot be empty.');
    expect(() => whatsAppMessagePayload('15550001', { kind: 'media', mediaType: 'image', link: 'file:///etc/passwd' })).toThrow('The media link must be an http(s) URL.');
  });
});

describe('messengerMessagePayload', () => {
  it('frames a button template with the header and footer, as postbacks', () => {
    expect(messengerMessagePayload('PSID', { kind: 'buttons', header: 'Menu', body: 'Pick', footer: 'Bye', buttons: [{ id: 'p1', title: 'One' }] })).toEqual({
      recipient: { id: 'PSID' },
      messaging_type: 'RESPONSE',
      message: { attachment: { type: 'template', payload: { template_type: 'button', text: 'Menu\n\nPick\n\nBye', buttons: [{ type: 'postback', title: 'One', payload: 'p1' }] } } },
    });
  });

  it('keeps quick replies within Messenger limits', () => {
    const rows = Array.from({ length: 14 }, (_, i) => ({ id: `r${i}`, title: `Row ${i}` }));
    expect(() => messengerMessagePayload('PSID', { kind: 'list', body: 'x', buttonText: 'Open', sections: [{ title: '', rows }] })).toThrow(/at most 13 quick replies/);
    expect(() => messengerMessagePayload('PSID', { kind: 'text', text: 'x'.repeat(2001) })).toThrow(/at most 2000/);
  });

  it('sends a document to Messenger as a file, and refuses it for Instagram (its Send API has no file attachment)', () => {
    const doc = { kind: 'media', mediaType: 'document', link: 'https://example.com/menu.pdf' } as const;
    expect(messengerMessagePayload('PSID', doc)).toMatchObject({ message: { attachment: { type: 'file', payload: { url: 'https://example.com/menu.pdf' } } } });
    expect(() => messengerMessagePayload('IGSID', doc, 'instagram')).toThrow(OutboundContentError);
    expect(() => messengerMessagePayload('IGSID', doc, 'instagram')).toThrow('Instagram does not accept documents');
    expect(messengerMessagePayload('IGSID', { ...doc, mediaType: 'image', link: 'https://example.com/a.png' }, 'instagram')).toMatchObject({ message: { attachment: { type: 'image' } } });
  });
});
