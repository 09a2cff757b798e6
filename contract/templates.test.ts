import { describe, expect, it } from 'vitest';
import { CarouselSubmission, TemplateDefinition, TemplateEdit, carouselCardCount, templateErrors, variablesIn, type TemplateComponent } from './templates';

type Input = { name?: string; language?: string; category?: string; components: unknown[] };

const body = (text = 'Hello {{1}}, your order is ready.', examples: string[] | null = ['Ana']): Record<string, unknown> => ({
  type: 'BODY',
  text,
  ...(examples ? { example: { body_text: [examples] } } : {}),
});

function template(components: unknown[], overrides: Partial<Input> = {}): Input {
  return { name: 'order_ready', language: 'en_US', category: 'MARKETING', components, ...overrides };
}

function errorsOf(input: Input): Record<string, string[]> {
  return templateErrors(TemplateDefinition.safeParse(input));
}

function card(buttons: unknown[] = [{ type: 'QUICK_REPLY', text: 'Buy' }], format = 'IMAGE'): unknown {
  return {
    components: [
      { type: 'HEADER', format, example: { header_handle: ['4::handle'] } },
      { type: 'BODY', text: 'A fine card' },
      { type: 'BUTTONS', buttons },
    ],
  };
}

function carousel(cards: unknown[], overrides: Partial<Input> = {}): Input & { phone_number: string } {
  return { ...template([body(), { type: 'CAROUSEL', cards }], overrides), phone_number: '+15550001111' };
}

const carouselErrors = (input: Input) => templateErrors(CarouselSubmission.safeParse(input));

describe('accepted templates (every component kind)', () => {
  it('accepts a text header, body with examples, footer and every button kind of a marketing template', () => {
    const result = TemplateDefinition.safeParse(
      template([
        { type: 'HEADER', format: 'TEXT', text: 'Our {{1}} sale', example: { header_text: ['summer'] } },
        body('Hi {{1}}, use {{2}} today.', ['Ana', 'SAVE10']),
        { type: 'FOOTER', text: 'Reply STOP to opt out' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'QUICK_REPLY', text: 'Yes' },
            { type: 'QUICK_REPLY', text: 'No' },
            { type: 'URL', text: 'Shop', url: 'https://shop.test/{{1}}', example: ['https://shop.test/summer'] },
            { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+15550001234' },
            { type: 'COPY_CODE', example: 'SAVE10' },
          ],
        },
      ]),
    );
    expect(templateErrors(result)).toEqual({});
  });

  it.each(['IMAGE', 'VIDEO', 'DOCUMENT'])('accepts a %s header with its sample handle', (format) => {
    expect(errorsOf(template([{ type: 'HEADER', format, example: { header_handle: ['4::aW1h'] } }, body()]))).toEqual({});
  });

  it('accepts a location header without a sample', () => {
    expect(errorsOf(template([{ type: 'HEADER', format: 'LOCATION' }, body()], { category: 'UTILITY' }))).toEqual({});
  });

  it('accepts an authentication template with the preset body, expiry and one OTP button', () => {
    const input = template(
      [
        { type: 'BODY', add_security_recommendation: true },
        { type: 'FOOTER', code_expiration_minutes: 10 },
        { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
      ],
      { category: 'AUTHENTICATION' },
    );
    expect(errorsOf(input)).toEqual({});
  });

  it('accepts a carousel of image cards and counts its cards', () => {
    const input = carousel([card(), card(), card()]);
    expect(carouselErrors(input)).toEqual({});
    expect(carouselCardCount(CarouselSubmission.parse(input).components as TemplateComponent[])).toBe(3);
  });

  it('lists the variables of a text', () => {
    expect(variablesIn('{{2}} and {{ 1 }}')).toEqual([2, 1]);
  });
});

describe('refusals name the field', () => {
  it('name: lowercase letters, digits and underscores', () => {
    expect(errorsOf(template([body()], { name: 'Order-Ready' }))).toEqual({ name: ['Use lowercase letters, digits and underscores only.'] });
  });
  it('name: at most 512 characters', () => {
    expect(errorsOf(template([body()], { name: 'a'.repeat(513) })).name[0]).toMatch(/512/);
  });
  it('language: a code Meta knows', () => {
    expect(Object.keys(errorsOf(template([body()], { language: 'english' })))).toEqual(['language']);
  });
  it('category: one of Meta’s three', () => {
    expect(Object.keys(errorsOf(template([body()], { category: 'PROMO' })))).toEqual(['category']);
  });
  it('header text: at most 60 characters', () => {
    expect(errorsOf(template([{ type: 'HEADER', format: 'TEXT', text: 'x'.repeat(61) }, body()]))['components.0.text'][0]).toMatch(/60/);
  });
  it('header text: at most one variable', () => {
    const errors = errorsOf(template([{ type: 'HEADER', format: 'TEXT', text: '{{1}} and {{2}}', example: { header_text: ['a'] } }, body()]));
    expect(errors).toEqual({ 'components.0.text': ['A header may contain at most one variable.'] });
  });
  it('header variable: needs its example', () => {
    expect(errorsOf(template([{ type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}' }, body()]))).toEqual({ 'components.0.example.header_text': ['Give an example value for {{1}}.'] });
  });
  it('media header: needs a sample handle', () => {
    expect(Object.keys(errorsOf(template([{ type: 'HEADER', format: 'IMAGE' }, body()])))).toEqual(['components.0.example.header_handle']);
  });
  it('body: at most 1024 characters', () => {
    expect(errorsOf(template([body('x'.repeat(1025), null)]))['components.0.text'][0]).toMatch(/1024/);
  });
  it('body: required', () => {
    expect(errorsOf(template([{ type: 'FOOTER', text: 'Footer' }]))).toEqual({ components: ['A template needs a BODY component.'] });
  });
  it('variables: numbered from {{1}} without gaps', () => {
    expect(errorsOf(template([body('Hi {{1}} and {{3}} there', ['a', 'b'])]))).toEqual({
      'components.0.text': ['Variables must be numbered from {{1}} without gaps: {{2}} is missing.'],
    });
  });
  it('variables: each with an example', () => {
    expect(Object.keys(errorsOf(template([body('Hi {{1}} and {{2}} there', ['a'])])))).toEqual(['components.0.example.body_text']);
  });
  it('variables: the body may not start or end with one', () => {
    expect(errorsOf(template([body('Hello {{1}}', ['a'])]))).toEqual({ 'components.0.text': ['The body may not start or end with a variable.'] });
  });
  it('footer: at most 60 characters', () => {
    expect(errorsOf(template([body(), { type: 'FOOTER', text: 'x'.repeat(61) }]))['components.1.text'][0]).toMatch(/60/);
  });
  it('footer: no variables', () => {
    expect(errorsOf(template([body(), { type: 'FOOTER', text: 'Bye {{1}}' }]))).toEqual({ 'components.1.text': ['The footer may not contain variables.'] });
  });
  it('buttons: text at most 25 characters', () => {
    const errors = errorsOf(template([body(), { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'x'.repeat(26) }] }]));
    expect(errors['components.1.buttons.0.text'][0]).toMatch(/25/);
  });
  it('buttons: at most 10', () => {
    const buttons = Array.from({ length: 11 }, (_, i) => ({ type: 'QUICK_REPLY', text: `Option ${i}` }));
    expect(errorsOf(template([body(), { type: 'BUTTONS', buttons }]))).toEqual({ 'components.1.buttons': ['A template has at most 10 buttons.'] });
  });
  it('buttons: at most 2 URL buttons', () => {
    const url = { type: 'URL', text: 'Go', url: 'https://a.test' };
    expect(errorsOf(template([body(), { type: 'BUTTONS', buttons: [url, url, url] }]))).toEqual({ 'components.1.buttons': ['A template has at most 2 URL buttons.'] });
  });
  it('buttons: at most 1 phone number button', () => {
    const phone = { type: 'PHONE_NUMBER', text: 'Call', phone_number: '+15550001234' };
    expect(errorsOf(template([body(), { type: 'BUTTONS', buttons: [phone, phone] }]))).toEqual({ 'components.1.buttons': ['A template has at most 1 phone number button.'] });
  });
  it('buttons: quick replies grouped together', () => {
    const buttons = [{ type: 'QUICK_REPLY', text: 'A' }, { type: 'URL', text: 'Go', url: 'https://a.test' }, { type: 'QUICK_REPLY', text: 'B' }];
    expect(Object.keys(errorsOf(template([body(), { type: 'BUTTONS', buttons }])))).toEqual(['components.1.buttons']);
  });
  it('URL button: at most 2000 characters', () => {
    const errors = errorsOf(template([body(), { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Go', url: `https://a.test/${'x'.repeat(2000)}` }] }]));
    expect(errors['components.1.buttons.0.url'][0]).toMatch(/2000/);
  });
  it('URL button: at most one variable', () => {
    const errors = errorsOf(template([body(), { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Go', url: 'https://a.test/{{1}}/{{2}}', example: ['x'] }] }]));
    expect(errors).toEqual({ 'components.1.buttons.0.url': ['A URL may contain at most one variable.'] });
  });
  it('URL button: the variable needs an example', () => {
    const errors = errorsOf(template([body(), { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Go', url: 'https://a.test/{{1}}' }] }]));
    expect(errors).toEqual({ 'components.1.buttons.0.example': ['Give an example URL for {{1}}.'] });
  });
  it('phone number button: at most 20 characters', () => {
    const errors = errorsOf(template([body(), { type: 'BUTTONS', buttons: [{ type: 'PHONE_NUMBER', text: 'Call', phone_number: '+1555000123456789012345' }] }]));
    expect(errors['components.1.buttons.0.phone_number'][0]).toMatch(/20/);
  });
  it('copy code: marketing templates only', () => {
    const errors = errorsOf(template([body(), { type: 'BUTTONS', buttons: [{ type: 'COPY_CODE', example: 'SAVE' }] }], { category: 'UTILITY' }));
    expect(errors).toEqual({ 'components.1.buttons.0.type': ['Copy code buttons are for marketing templates only.'] });
  });
  it('OTP: authentication templates only', () => {
    const errors = errorsOf(template([body(), { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE' }] }]));
    expect(errors).toEqual({ 'components.1.buttons.0.type': ['OTP buttons are for authentication templates only.'] });
  });
  it('authentication: Meta’s preset body, no custom text', () => {
    const errors = errorsOf(template([{ type: 'BODY', text: 'Your code is {{1}} ok' }, { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE' }] }], { category: 'AUTHENTICATION' }));
    expect(errors).toEqual({ 'components.0.text': ["Authentication templates use Meta's preset body; leave the text out."] });
  });
  it('authentication: code expiry 1–90 minutes', () => {
    const errors = errorsOf(
      template([{ type: 'BODY' }, { type: 'FOOTER', code_expiration_minutes: 91 }, { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE' }] }], { category: 'AUTHENTICATION' }),
    );
    expect(errors).toEqual({ 'components.1.code_expiration_minutes': ['The code expiry is between 1 and 90 minutes.'] });
  });
  it('authentication: exactly one OTP button', () => {
    const errors = errorsOf(template([{ type: 'BODY' }, { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Hi' }] }], { category: 'AUTHENTICATION' }));
    expect(Object.keys(errors)).toEqual(['components.1.buttons']);
  });
  it('authentication: one-tap needs the package name', () => {
    const errors = errorsOf(template([{ type: 'BODY' }, { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'ONE_TAP' }] }], { category: 'AUTHENTICATION' }));
    expect(Object.keys(errors)).toEqual(['components.1.buttons.0.package_name']);
  });
  it("authentication: the one-tap signature hash has 11 characters, checked decoded (Meta's example is URL-encoded, issue #25)", () => {
    const oneTap = (signature_hash: string) =>
      errorsOf(template([{ type: 'BODY' }, { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'ONE_TAP', package_name: 'com.example.luckyshrub', signature_hash }] }], { category: 'AUTHENTICATION' }));
    expect(oneTap('K8a%2FAINcGX7')).toEqual({});
    expect(oneTap('K8a/AINcGX7')).toEqual({});
    const wrong = { 'components.1.buttons.0.signature_hash': ['The signature hash has 11 characters.'] };
    expect(oneTap('K8a%2FAINcGX')).toEqual(wrong);
    expect(oneTap('K8a%2FAINcGX7x')).toEqual(wrong);
    expect(oneTap('K8a/AINcGX7xy')).toEqual(wrong);
  });
  it('carousel: marketing only', () => {
    expect(carouselErrors(carousel([card(), card()], { category: 'UTILITY' }))).toEqual({ category: ['Carousel templates are marketing templates.'] });
  });
  it('carousel: 2 to 10 cards', () => {
    expect(carouselErrors(carousel([card()]))).toEqual({ 'components.1.cards': ['A carousel has 2 to 10 cards.'] });
    expect(carouselErrors(carousel(Array.from({ length: 11 }, () => card())))).toEqual({ 'components.1.cards': ['A carousel has 2 to 10 cards.'] });
  });
  it('carousel: each card with an image or video header', () => {
    const errors = carouselErrors(carousel([card(), card(undefined, 'DOCUMENT')]));
    expect(errors['components.1.cards.1.components.0.format']).toEqual(['Each carousel card needs an IMAGE or VIDEO header.']);
  });
  it('carousel: the same layout on every card', () => {
    const errors = carouselErrors(carousel([card(), card([{ type: 'URL', text: 'Go', url: 'https://a.test' }])]));
    expect(errors).toEqual({ 'components.1.cards.1.components': ['Every card has the same header format, components and buttons as the first card.'] });
  });
  it('carousel: at most 2 buttons per card', () => {
    const three = [{ type: 'QUICK_REPLY', text: 'A' }, { type: 'QUICK_REPLY', text: 'B' }, { type: 'QUICK_REPLY', text: 'C' }];
    const errors = carouselErrors(carousel([card(three), card(three)]));
    expect(errors['components.1.cards.0.components.2.buttons']).toEqual(['A carousel card has at most 2 buttons.']);
  });
  it('carousel submission: needs the cards', () => {
    expect(carouselErrors({ ...template([body()]), phone_number: '+1555' } as Input)).toEqual({ components: ['A carousel template needs a CAROUSEL component with its cards.'] });
  });
  it('components: at most one of each kind', () => {
    expect(errorsOf(template([body(), body()]))).toEqual({ 'components.1.type': ['A template has at most one BODY component.'] });
  });
  it('edit: the same rules apply', () => {
    expect(Object.keys(templateErrors(TemplateEdit.safeParse({ category: 'MARKETING', components: [body('x'.repeat(1025), null)] })))).toEqual(['components.0.text']);
  });
});
