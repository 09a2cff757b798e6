/** Template variables: the shape read from Meta's components, missing mappings, per-recipient values, rendering and the send content. */
import { describe, expect, it } from 'vitest';
import { missingMappings, metaComponents, recipientMessage, renderMessage, resolveVariables, templateOutbound, templateShape, unknownColumns } from './variables';

const WELCOME = [
  { type: 'HEADER', format: 'TEXT', text: 'Welcome, {{1}}!' },
  { type: 'BODY', text: 'Hi {{1}}, enjoy {{2}} off.' },
  { type: 'FOOTER', text: 'Reply STOP to opt out' },
  { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Shop' }, { type: 'URL', text: 'Track', url: 'https://x.test/t/{{1}}' }] },
];
const PHOTO = [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'Look at this' }];
const ana = { phone: '+14155550123', name: 'Ana Lima', values: { coupon: 'SPRING', order: 'A 1\n2' } };

describe('template variables', () => {
  it('reads the header, body and URL-button variables', () => {
    const shape = templateShape(WELCOME);
    expect(shape).toMatchObject({ headerFormat: 'TEXT', headerVariables: 1, bodyVariables: 2, footer: 'Reply STOP to opt out' });
    expect(shape.buttons.map((b) => b.urlVariable)).toEqual([false, true]);
  });

  it('names every variable left unmapped, a missing media file and unknown CSV columns', () => {
    expect(missingMappings(templateShape(WELCOME), { body: { '1': { source: 'fixed', value: 'x' } } }, null)).toEqual({
      'variables.body.2': 'Map the body variable {{2}}.',
      'variables.header.1': 'Map the header variable {{1}}.',
      'variables.buttons.1': 'Map the variable of the button "Track".',
    });
    expect(missingMappings(templateShape(PHOTO), { body: {} }, undefined)).toEqual({ header_media_url: 'This template has a media header: upload a file.' });
    expect(missingMappings(templateShape(PHOTO), { body: {} }, 'https://cdn.test/a.png')).toEqual({});
    expect(unknownColumns({ body: { '1': { source: 'column', value: 'coupon' }, '2': { source: 'column', value: 'city' } } }, ['phone', 'coupon'])).toEqual({
      'variables.body.2': 'The CSV file has no column "city".',
    });
  });

  it("resolves each recipient's values; an empty value becomes '-', new lines are flattened", () => {
    const shape = templateShape(WELCOME);
    const variables = {
      header: { '1': { source: 'field' as const, value: 'first_name' } },
      body: { '1': { source: 'column' as const, value: 'order' }, '2': { source: 'column' as const, value: 'missing' } },
      buttons: { '1': { source: 'field' as const, value: 'phone' } },
    };
    const resolved = resolveVariables(shape, variables, ana);
    expect(resolved).toEqual({ header: ['Ana'], body: ['A 1 2', '-'], buttons: { '1': '+14155550123' } });
    expect(renderMessage(shape, resolved, null)).toEqual({ header: 'Welcome, Ana!', header_format: 'TEXT', header_media_url: null, body: 'Hi A 1 2, enjoy - off.', footer: 'Reply STOP to opt out', buttons: ['Shop', 'Track'] });
    expect(metaComponents(shape, resolved, null)).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: 'Ana' }] },
      { type: 'body', parameters: [{ type: 'text', text: 'A 1 2' }, { type: 'text', text: '-' }] },
      { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: '+14155550123' }] },
    ]);
  });

  it("writes what one recipient was sent as text: the text header and the body with their values, a media header left out", () => {
    expect(recipientMessage(templateShape(WELCOME), { header: ['Ana'], body: ['Ana Lima', 'SPRING'], buttons: { '1': 'A1' } })).toBe('Welcome, Ana!\nHi Ana Lima, enjoy SPRING off.');
    expect(recipientMessage(templateShape(PHOTO), { body: [] })).toBe('Look at this');
  });

  it("builds the Graph adapter's template content with the header text or the media file", () => {
    const text = templateOutbound({ templateName: 'welcome', templateLanguage: 'en_US', templateComponents: WELCOME, headerMediaUrl: null }, { header: ['Ana'], body: ['Ana', '10%'] });
    expect(text).toEqual({ kind: 'template', name: 'welcome', language: 'en_US', bodyParameters: ['Ana', '10%'], header: { type: 'text', text: 'Ana' } });
    const media = templateOutbound({ templateName: 'photo', templateLanguage: 'en', templateComponents: PHOTO, headerMediaUrl: 'https://cdn.test/a.png' }, { body: [] });
    expect(media).toEqual({ kind: 'template', name: 'photo', language: 'en', bodyParameters: [], header: { type: 'image', link: 'https://cdn.test/a.png' } });
    // Our private upload goes through the link resolver (the engine signs it for Meta).
    const signed = templateOutbound({ templateName: 'photo', templateLanguage: 'en', templateComponents: PHOTO, headerMediaUrl: '/media/chats/1/a.png' }, { body: [] }, (url) => `${url}?signature=s`);
    expect(signed.header).toEqual({ type: 'image', link: '/media/chats/1/a.png?signature=s' });
  });

  it("carries a URL button's ending for the recipient", () => {
    const withButton = templateOutbound({ templateName: 'welcome', templateLanguage: 'en_US', templateComponents: WELCOME, headerMediaUrl: null }, { header: ['Ana'], body: ['Ana', '10%'], buttons: { '1': 'order-42' } });
    expect(withButton.buttons).toEqual([{ index: 1, subType: 'url', value: 'order-42' }]);
  });
});
