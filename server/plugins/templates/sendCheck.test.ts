import { describe, expect, it } from 'vitest';
import type { TemplateComponent } from '../../../contract/templates';
import { whatsAppMessagePayload } from '../../providers/meta/outboundPayloads';
import { templateSendProblem } from './sendCheck';

const card = () => ({
  components: [
    { type: 'HEADER' as const, format: 'IMAGE' as const, example: { header_handle: ['4::aW1h'] } },
    { type: 'BODY' as const, text: 'A card' },
    { type: 'BUTTONS' as const, buttons: [{ type: 'QUICK_REPLY' as const, text: 'Buy' }] },
  ],
});
const carousel: TemplateComponent[] = [{ type: 'BODY', text: 'Picked for you' }, { type: 'CAROUSEL', cards: [card(), card(), card()] }];
const imageHeader: TemplateComponent[] = [{ type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW1h'] } }, { type: 'BODY', text: 'Your order' }];
const link = (n: number) => ({ type: 'image' as const, link: `https://cdn.test/${n}.jpg`, parameters: [] });

describe('template sends checked against the approved template', () => {
  it('a carousel takes exactly its approved number of cards', () => {
    expect(templateSendProblem(carousel, { cards: [link(1), link(2), link(3)] }, null)).toBeNull();
    expect(templateSendProblem(carousel, { cards: [link(1), link(2)] }, null)).toBe('This carousel template has 3 cards: send exactly 3 cards (2 given).');
    expect(templateSendProblem(carousel, {}, null)).toMatch(/3 cards/);
    expect(templateSendProblem(imageHeader, { header: { type: 'image' }, cards: [link(1)] }, 'https://cdn.test/h.jpg')).toBe('This template is not a carousel: send it without cards.');
  });

  it('a media header needs its file, of the header’s kind', () => {
    expect(templateSendProblem(imageHeader, { header: { type: 'image' } }, 'https://cdn.test/h.jpg')).toBeNull();
    expect(templateSendProblem(imageHeader, {}, 'https://cdn.test/h.jpg')).toBe('This template has an image header: attach its image.');
    expect(templateSendProblem(imageHeader, { header: { type: 'video' } }, 'https://cdn.test/h.mp4')).toMatch(/image header/);
    expect(templateSendProblem(imageHeader, { header: { type: 'image' } }, null)).toMatch(/attach its image/);
    expect(templateSendProblem([{ type: 'BODY', text: 'Plain' }], { header: { type: 'image' } }, 'https://cdn.test/h.jpg')).toBe('This template’s header takes no file or value.');
  });

  it('a URL button with {{1}} and a copy-code button need their values, sent as Meta’s button parameters', () => {
    const shipped: TemplateComponent[] = [
      { type: 'BODY', text: 'Shipped' },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track it', url: 'https://shop.test/t/{{1}}', example: ['https://shop.test/t/1'] }, { type: 'COPY_CODE', example: 'SAVE10' }] },
    ];
    expect(templateSendProblem(shipped, {}, null)).toBe('The button "Track it" needs the end of its link ({{1}}).');
    expect(templateSendProblem(shipped, { buttons: [{ index: 0, sub_type: 'url', value: 'A-1' }] }, null)).toBe('The copy code button needs its offer code.');
    expect(templateSendProblem(shipped, { buttons: [{ index: 0, sub_type: 'url', value: 'A-1' }, { index: 1, sub_type: 'copy_code', value: 'SAVE10' }] }, null)).toBeNull();
    const payload = whatsAppMessagePayload('15550100', {
      kind: 'template',
      name: 'shipped',
      language: 'en',
      bodyParameters: [],
      buttons: [
        { index: 0, subType: 'url', value: 'A-1' },
        { index: 1, subType: 'copy_code', value: 'SAVE10' },
      ],
    });
    expect((payload.template as { components: unknown[] }).components).toEqual([
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'A-1' }] },
      { type: 'button', sub_type: 'copy_code', index: '1', parameters: [{ type: 'coupon_code', coupon_code: 'SAVE10' }] },
    ]);
  });

  it('a text header with {{1}} needs its value', () => {
    const welcome: TemplateComponent[] = [{ type: 'HEADER', format: 'TEXT', text: 'Welcome, {{1}}!', example: { header_text: ['Maria'] } }, { type: 'BODY', text: 'Hi' }];
    expect(templateSendProblem(welcome, {}, null)).toBe('This template’s header has a variable {{1}}: give its value.');
    expect(templateSendProblem(welcome, { header: { type: 'text', text: 'Ann' } }, null)).toBeNull();
    expect(whatsAppMessagePayload('15550100', { kind: 'template', name: 'welcome', language: 'en', bodyParameters: [], header: { type: 'text', text: 'Ann' } }).template).toEqual({
      name: 'welcome',
      language: { code: 'en' },
      components: [{ type: 'header', parameters: [{ type: 'text', text: 'Ann' }] }],
    });
  });

  it('Meta’s send payload carries the header media and the carousel cards in its published shape', () => {
    const payload = whatsAppMessagePayload('+1 555 0100', {
      kind: 'template',
      name: 'new_arrivals',
      language: 'en_US',
      bodyParameters: ['Maria'],
      header: { type: 'image', link: 'https://cdn.test/h.jpg' },
      cards: [
        { type: 'image', link: 'https://cdn.test/1.jpg', bodyParameters: [] },
        { type: 'video', link: 'https://cdn.test/2.mp4', bodyParameters: ['10%'] },
      ],
    });
    expect(payload.template).toEqual({
      name: 'new_arrivals',
      language: { code: 'en_US' },
      components: [
        { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.test/h.jpg' } }] },
        { type: 'body', parameters: [{ type: 'text', text: 'Maria' }] },
        {
          type: 'carousel',
          cards: [
            { card_index: 0, components: [{ type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.test/1.jpg' } }] }] },
            {
              card_index: 1,
              components: [
                { type: 'header', parameters: [{ type: 'video', video: { link: 'https://cdn.test/2.mp4' } }] },
                { type: 'body', parameters: [{ type: 'text', text: '10%' }] },
              ],
            },
          ],
        },
      ],
    });
  });
});
