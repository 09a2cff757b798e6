import { describe, expect, it } from 'vitest';
import { TemplateDefinition } from '../../../../contract/templates';
import { addButton, kindsAvailable } from './ButtonsEditor';
import {
  componentsOf,
  counter,
  definitionOf,
  draftErrors,
  draftFromTemplate,
  duplicateDraft,
  editOf,
  examplesFor,
  fieldOfPath,
  fillVariables,
  initialDraft,
  insertVariable,
  newButton,
  renumberVariables,
  serverErrors,
  type EditorDraft,
} from './model';
import { formatSpans } from '../../../core/components/whatsappPreview/formatSpans';
import { editorPath, readEditorQuery } from './paths';

const draft = (patch: Partial<EditorDraft> = {}): EditorDraft => ({ ...initialDraft('MARKETING', 'text'), name: 'spring_sale', ...patch });

describe('variables', () => {
  it('inserts the next {{n}} at the cursor, after the highest one, and puts the cursor after it', () => {
    expect(insertVariable('Hello ', 6)).toEqual({ text: 'Hello {{1}}', cursor: 11, number: 1 });
    expect(insertVariable('Hi {{1}}, order  is ready', 16)).toEqual({ text: 'Hi {{1}}, order {{2}} is ready', cursor: 21, number: 2 });
    // In the middle, before an existing variable: still the next number.
    expect(insertVariable('A {{1}} B', 1).text).toBe('A{{2}} {{1}} B');
    // A selection is replaced.
    expect(insertVariable('Dear NAME,', 5, 9).text).toBe('Dear {{1}},');
  });

  it('keeps one example per variable, values kept when the text changes', () => {
    expect(examplesFor('Hi {{1}} and {{2}}', ['Ana'])).toEqual(['Ana', '']);
    expect(examplesFor('Hi {{1}}', ['Ana', 'Bo'])).toEqual(['Ana']);
    expect(examplesFor('No variables', ['Ana'])).toEqual([]);
  });

  it('renumbers variables by first appearance, examples following their variable', () => {
    expect(renumberVariables('Hi {{3}}, see {{1}} and {{3}}', ['one', 'two', 'three'])).toEqual({ text: 'Hi {{1}}, see {{2}} and {{1}}', examples: ['three', 'one'] });
  });

  it('fills the samples in for the preview, keeping {{n}} while a sample is empty', () => {
    expect(fillVariables('Hi {{1}}, your order {{2}} is ready.', ['Ana', ' '])).toBe('Hi Ana, your order {{2}} is ready.');
  });
});

describe('counters', () => {
  it('counts characters against the limit', () => {
    expect(counter('x'.repeat(61), 60)).toEqual({ used: 61, limit: 60, over: true });
    expect(counter('Hello', 60)).toEqual({ used: 5, limit: 60, over: false });
  });
});

describe('the submitted template is exactly Meta’s format', () => {
  it('text header with a variable, body with examples, footer, quick replies, URL with a variable, phone, copy code', () => {
    const buttons = [
      { ...newButton('QUICK_REPLY'), text: 'Yes' },
      { ...newButton('QUICK_REPLY'), text: 'No' },
      { ...newButton('URL'), text: 'Track', url: 'https://shop.test/t/{{1}}', urlExample: 'https://shop.test/t/42' },
      { ...newButton('PHONE_NUMBER'), text: 'Call us', phone: '+15550001234' },
      { ...newButton('COPY_CODE'), code: 'SAVE10' },
    ];
    const d = draft({ header: 'TEXT', headerText: 'Hello {{1}}', headerExample: 'Ana', body: 'Hi {{1}}, order {{2}} is ready.', bodyExamples: ['Ana', '42'], footer: 'Reply STOP to opt out', buttons });
    const definition = definitionOf(d);
    expect(definition).toEqual({
      name: 'spring_sale',
      language: 'en_US',
      category: 'MARKETING',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}', example: { header_text: ['Ana'] } },
        { type: 'BODY', text: 'Hi {{1}}, order {{2}} is ready.', example: { body_text: [['Ana', '42']] } },
        { type: 'FOOTER', text: 'Reply STOP to opt out' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'QUICK_REPLY', text: 'Yes' },
            { type: 'QUICK_REPLY', text: 'No' },
            { type: 'URL', text: 'Track', url: 'https://shop.test/t/{{1}}', example: ['https://shop.test/t/42'] },
            { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+15550001234' },
            { type: 'COPY_CODE', example: 'SAVE10' },
          ],
        },
      ],
    });
    expect(TemplateDefinition.safeParse(definition).success).toBe(true);
    expect(draftErrors(d)).toEqual({});
  });

  it('a media header carries the upload’s handle; no example keys when there are no variables', () => {
    const d = draft({ header: 'IMAGE', media: { handle: '4::aW1hZ2U=:abc', previewUrl: null, fileName: 'a.png', fileType: 'image/png' }, body: 'Our new collection is here.' });
    expect(componentsOf(d)).toEqual([
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW1hZ2U=:abc'] } },
      { type: 'BODY', text: 'Our new collection is here.' },
    ]);
    expect(editOf(d)).toEqual({ category: 'MARKETING', components: componentsOf(d) });
  });

  it('authentication: Meta’s preset body (no text), code expiry in the footer, one OTP button', () => {
    const d = { ...initialDraft('AUTHENTICATION', 'authentication'), name: 'login_code', codeExpiry: '5' };
    expect(definitionOf(d).components).toEqual([
      { type: 'BODY', add_security_recommendation: true },
      { type: 'FOOTER', code_expiration_minutes: 5 },
      { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
    ]);
    expect(draftErrors(d)).toEqual({});
    const oneTap = { ...d, otpType: 'ONE_TAP' as const, otpText: 'Autofill', packageName: 'com.example.app' };
    expect(definitionOf(oneTap).components[2]).toEqual({ type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'ONE_TAP', text: 'Autofill', autofill_text: 'Autofill', package_name: 'com.example.app' }] });
    expect(draftErrors(oneTap)).toEqual({});
  });
});

describe('schema errors land on the field they are about', () => {
  it('name: Meta’s naming rule', () => {
    expect(draftErrors(draft({ name: 'Spring Sale', body: 'Hi there' })).name).toBe('Use lowercase letters, digits and underscores only.');
    expect(draftErrors(draft({ name: '', body: 'Hi there' })).name).toBe('This field may not be blank.');
  });

  it('body: numbering gaps, a variable at the start or end, missing examples, length', () => {
    expect(draftErrors(draft({ body: 'Hi {{2}} there' })).body).toBe('Variables must be numbered from {{1}} without gaps: {{1}} is missing.');
    expect(draftErrors(draft({ body: '{{1}} is here', bodyExamples: ['Ana'] })).body).toBe('The body may not start or end with a variable.');
    expect(draftErrors(draft({ body: 'Hi {{1}} there', bodyExamples: [''] }))['bodyExamples.0']).toBe('This field may not be blank.');
    expect(draftErrors(draft({ body: 'x'.repeat(1025) })).body).toBe('Ensure this field has no more than 1024 characters.');
    expect(draftErrors(draft({ body: '' })).body).toBe('The body needs its text.');
  });

  it('header, footer and media', () => {
    expect(draftErrors(draft({ header: 'TEXT', headerText: 'A {{1}} and {{2}}', body: 'Hi there' })).headerText).toBe('A header may contain at most one variable.');
    expect(draftErrors(draft({ header: 'TEXT', headerText: 'Hello {{1}}', body: 'Hi there' })).headerExample).toBe('Give an example value for {{1}}.');
    expect(draftErrors(draft({ footer: 'Bye {{1}}', body: 'Hi there' })).footer).toBe('The footer may not contain variables.');
    expect(draftErrors(draft({ footer: 'x'.repeat(61), body: 'Hi there' })).footer).toBe('Ensure this field has no more than 60 characters.');
    expect(draftErrors(draft({ header: 'VIDEO', body: 'Hi there' })).media).toBe('Upload a sample video for the header.');
  });

  it('buttons: each field by index, and the rules about the whole set', () => {
    const errors = draftErrors(
      draft({
        body: 'Hi there',
        buttons: [
          { ...newButton('QUICK_REPLY'), text: '' },
          { ...newButton('URL'), text: 'Go', url: 'shop.test/{{1}}' },
          { ...newButton('PHONE_NUMBER'), text: 'Call', phone: 'call me' },
        ],
      }),
    );
    expect(errors['buttons.0.text']).toBe('This field may not be blank.');
    expect(errors['buttons.1.url']).toBe('The URL must start with https:// or http://.');
    expect(errors['buttons.2.phone']).toBe('Enter a phone number with its country code, e.g. +15550001234.');
    expect(draftErrors(draft({ body: 'Hi there', buttons: [{ ...newButton('URL'), text: 'Go', url: 'https://a.test/{{1}}' }] }))['buttons.0.urlExample']).toBe('Give an example URL for {{1}}.');
    expect(draftErrors({ ...draft({ body: 'Hi there', buttons: [{ ...newButton('COPY_CODE'), code: 'X' }] }), category: 'UTILITY' })['buttons.0']).toBe('Copy code buttons are for marketing templates only.');
    const mixed = draftErrors(draft({ body: 'Hi there', buttons: [{ ...newButton('QUICK_REPLY'), text: 'A' }, { ...newButton('URL'), text: 'B', url: 'https://a.test' }, { ...newButton('QUICK_REPLY'), text: 'C' }] }));
    expect(mixed.buttons).toBe('Group the quick reply buttons together, before or after the other buttons.');
  });

  it('authentication: the code expiry between 1 and 90, the one-tap package name', () => {
    const auth = { ...initialDraft('AUTHENTICATION', 'authentication'), name: 'login_code' };
    expect(draftErrors({ ...auth, codeExpiry: '91' }).codeExpiry).toBe('The code expiry is between 1 and 90 minutes.');
    expect(draftErrors({ ...auth, codeExpiry: 'soon' }).codeExpiry).toBe('Enter a whole number of minutes between 1 and 90.');
    expect(draftErrors({ ...auth, otpType: 'ONE_TAP' }).packageName).toBe('One-tap and zero-tap buttons need the Android package name.');
  });

  it('maps the server’s 400 (dotted contract paths, duplicate name, detail) onto the form', () => {
    const components = componentsOf(draft({ header: 'TEXT', headerText: 'Hi', body: 'Hello', buttons: [newButton('QUICK_REPLY')] }));
    expect(serverErrors({ name: ['A template with this name and language already exists in this WhatsApp account.'] }, components)).toEqual({ name: 'A template with this name and language already exists in this WhatsApp account.' });
    expect(serverErrors({ 'components.2.buttons.0.text': ['This field may not be blank.'], detail: 'Meta said no.' }, components)).toEqual({ 'buttons.0.text': 'This field may not be blank.', form: 'Meta said no.' });
    expect(fieldOfPath('components.0.text', components)).toBe('headerText');
    expect(fieldOfPath('components.1.example.body_text', components)).toBe('bodyExamples');
  });
});

describe('buttons keep quick replies grouped and follow Meta’s counts', () => {
  it('adds a button beside its group', () => {
    let buttons = addButton([], 'QUICK_REPLY');
    buttons = addButton(buttons, 'URL');
    buttons = addButton(buttons, 'QUICK_REPLY');
    expect(buttons.map((b) => b.kind)).toEqual(['QUICK_REPLY', 'QUICK_REPLY', 'URL']);
    expect(kindsAvailable(buttons, 'UTILITY')).toEqual(['QUICK_REPLY', 'URL', 'PHONE_NUMBER']);
    expect(kindsAvailable(addButton(buttons, 'URL'), 'MARKETING')).toEqual(['QUICK_REPLY', 'PHONE_NUMBER', 'COPY_CODE']);
  });
});

describe('edit and duplicate', () => {
  const template = {
    name: 'order_ready',
    language: 'fr',
    category: 'UTILITY' as const,
    components: [
      { type: 'HEADER' as const, format: 'IMAGE' as const, example: { header_handle: ['https://scontent.test/a.png'] } },
      { type: 'BODY' as const, text: 'Bonjour {{1}}, prête.', example: { body_text: [['Ana']] } },
      { type: 'BUTTONS' as const, buttons: [{ type: 'URL' as const, text: 'Voir', url: 'https://s.test/{{1}}', example: ['https://s.test/1'] }] },
    ],
  };
  it('reads a template back into the form (round trip to the same components)', () => {
    const d = draftFromTemplate(template);
    expect(d).toMatchObject({ name: 'order_ready', language: 'fr', header: 'IMAGE', body: 'Bonjour {{1}}, prête.', bodyExamples: ['Ana'] });
    expect(componentsOf(d)).toEqual(template.components);
  });
  it('duplicates under a new name, asking for the media again when Meta listed it as a URL', () => {
    const d = duplicateDraft(template);
    expect(d.name).toBe('order_ready_copy');
    expect(d.media).toBeNull();
    expect(draftErrors(d).media).toBe('Upload a sample image for the header.');
  });
});

describe('preview formatting and paths', () => {
  it('splits WhatsApp formatting', () => {
    expect(formatSpans('Get *20%* off _today_ ~only~')).toEqual([
      { text: 'Get ' },
      { text: '20%', bold: true },
      { text: ' off ' },
      { text: 'today', italic: true },
      { text: ' ' },
      { text: 'only', strike: true },
    ]);
  });
  it('builds and reads the editor URL contract', () => {
    expect(editorPath('MARKETING', 'media', { channel: 3 })).toBe('/templates/create-whatsapp-template/marketing/media?channel=3');
    expect(editorPath('MARKETING', 'carousel', { channel: 3, duplicate: 9 })).toBe('/templates/create-whatsapp-carousel?channel=3&duplicate=9');
    expect(readEditorQuery('?channel=3&template=12')).toEqual({ channel: 3, template: 12, duplicate: null });
    expect(readEditorQuery('?channel=x')).toEqual({ channel: null, template: null, duplicate: null });
  });
});
