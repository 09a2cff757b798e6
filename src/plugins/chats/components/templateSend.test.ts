import { describe, expect, it } from 'vitest';
import type { MessageTemplate } from '../../../../contract/channels';
import { fill, formProblems, initialForm, isHttpsLink, templateMedia, templateNeeds } from './templateSend';

const mediaTemplate = {
  components: [
    { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['https://cdn.example.com/sample.jpg'] } },
    { type: 'BODY', text: 'Hi {{1}}, order {{2}} shipped.' },
    { type: 'FOOTER', text: 'Thanks' },
    { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Track' }] },
  ],
} as unknown as MessageTemplate;

const carousel = {
  components: [
    { type: 'BODY', text: 'Picked for you.' },
    {
      type: 'CAROUSEL',
      cards: [
        { components: [{ type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW1h'] } }, { type: 'BODY', text: 'Card {{1}}' }, { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Buy' }] }] },
        { components: [{ type: 'HEADER', format: 'VIDEO', example: { header_handle: ['https://cdn.example.com/v.mp4'] } }, { type: 'BODY', text: 'Second' }] },
      ],
    },
  ],
} as unknown as MessageTemplate;

describe('sending a template from the inbox', () => {
  it('reads what a media-header template needs; the sample is used when it is an https link', () => {
    const needs = templateNeeds(mediaTemplate);
    expect(needs).toMatchObject({ header: { kind: 'image', example: 'https://cdn.example.com/sample.jpg' }, parameterCount: 2, footer: 'Thanks', buttons: ['Track'], cards: null });
    const form = initialForm(needs);
    expect(form).toMatchObject({ parameters: ['', ''], headerUrl: 'https://cdn.example.com/sample.jpg', headerUploaded: false });
    expect(formProblems(needs, form)).toEqual({ 'parameter.0': true, 'parameter.1': true });
    const filled = { ...form, parameters: ['Ann', 'A-1'] };
    expect(formProblems(needs, filled)).toEqual({});
    expect(templateMedia(needs, filled)).toEqual({ header: { type: 'image', url: 'https://cdn.example.com/sample.jpg', mediaType: null } });
    expect(fill(needs.body, ['Ann'])).toBe('Hi Ann, order {{2}} shipped.');
  });

  it('a header link must be https unless the file was uploaded here', () => {
    const needs = templateNeeds(mediaTemplate);
    const form = { ...initialForm(needs), parameters: ['a', 'b'] };
    expect(formProblems(needs, { ...form, headerUrl: 'http://cdn.example.com/x.jpg' })).toEqual({ header: true });
    expect(formProblems(needs, { ...form, headerUrl: '' })).toEqual({ header: true });
    expect(formProblems(needs, { ...form, headerUrl: '/media/company-1/x.png', headerUploaded: true, headerMediaType: 'image/png' })).toEqual({});
    expect(isHttpsLink('https://user:pw@cdn.example.com/x')).toBe(false);
  });

  it('a carousel needs each card’s media link and parameters, in the approved number of cards', () => {
    const needs = templateNeeds(carousel);
    expect(needs.cards).toEqual([
      { kind: 'image', example: null, body: 'Card {{1}}', parameterCount: 1, buttons: ['Buy'] },
      { kind: 'video', example: 'https://cdn.example.com/v.mp4', body: 'Second', parameterCount: 0, buttons: [] },
    ]);
    const form = initialForm(needs);
    expect(formProblems(needs, form)).toEqual({ 'card.0.link': true, 'card.0.parameter.0': true });
    form.cards[0] = { link: 'https://cdn.example.com/1.jpg', parameters: ['one'] };
    expect(formProblems(needs, form)).toEqual({});
    expect(templateMedia(needs, form)).toEqual({
      cards: [
        { type: 'image', link: 'https://cdn.example.com/1.jpg', parameters: ['one'] },
        { type: 'video', link: 'https://cdn.example.com/v.mp4', parameters: [] },
      ],
    });
  });

  it('a text header with {{1}} needs its value', () => {
    const needs = templateNeeds({ components: [{ type: 'HEADER', format: 'TEXT', text: 'Welcome, {{1}}!' }, { type: 'BODY', text: 'Hello' }] } as MessageTemplate);
    expect(needs).toMatchObject({ headerText: 'Welcome, {{1}}!', headerVariable: true, header: null });
    const form = initialForm(needs);
    expect(formProblems(needs, form)).toEqual({ headerValue: true });
    expect(templateMedia(needs, { ...form, headerValue: ' Ann ' })).toEqual({ headerText: 'Ann' });
  });

  it('a URL button with {{1}} needs its link ending; a copy-code button its code (the sample by default)', () => {
    const needs = templateNeeds({
      components: [
        { type: 'BODY', text: 'Hello' },
        { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track it', url: 'https://shop.test/t/{{1}}' }, { type: 'COPY_CODE', example: 'SPRING15' }, { type: 'URL', text: 'Shop', url: 'https://shop.test' }] },
      ],
    } as MessageTemplate);
    expect(needs.buttonInputs).toEqual([
      { index: 0, kind: 'url', label: 'Track it', url: 'https://shop.test/t/{{1}}' },
      { index: 1, kind: 'copy_code', label: 'SPRING15', url: null },
    ]);
    const form = initialForm(needs);
    expect(formProblems(needs, form)).toEqual({ 'button.0': true });
    expect(templateMedia(needs, { ...form, buttonValues: ['A-1', 'SPRING15'] })).toEqual({
      buttons: [
        { index: 0, sub_type: 'url', value: 'A-1' },
        { index: 1, sub_type: 'copy_code', value: 'SPRING15' },
      ],
    });
  });

  it('a text template needs nothing more than its parameters', () => {
    const needs = templateNeeds({ components: [{ type: 'BODY', text: 'Hello' }] } as MessageTemplate);
    expect(templateMedia(needs, initialForm(needs))).toBeUndefined();
  });
});
