import { describe, expect, it } from 'vitest';
import { DEMO_TEMPLATES } from '../../../../contract/demoTemplates';
import type { TemplateDefinition } from '../../../../contract/templates';
import {
  isMappingComplete,
  mappingProblem,
  mediaHeaderFormat,
  renderMessage,
  resolveVariable,
  suggestMapping,
  templateVariables,
  toApiVariables,
  type SampleRecipient,
} from './mapping';

const byName = (name: string) => DEMO_TEMPLATES.find((t) => t.name === name) as TemplateDefinition;
const welcome = byName('welcome_offer');
const shipped = byName('order_shipped');
const maria: SampleRecipient = { name: 'Maria Silva', phone: '+14155550123', columns: { phone: '+14155550123', name: 'Maria Silva', discount: '15%', order: 'A-77' } };

describe('template variables', () => {
  it('lists header, body and URL button variables with Meta’s examples', () => {
    expect(templateVariables(welcome).map((v) => [v.key, v.example])).toEqual([
      ['header.1', 'Maria'],
      ['body.1', 'Maria'],
      ['body.2', '10%'],
    ]);
    expect(templateVariables(shipped).map((v) => v.key)).toEqual(['body.1', 'body.2', 'button.0.1']);
    expect(mediaHeaderFormat(shipped)).toBe('IMAGE');
    expect(mediaHeaderFormat(welcome)).toBeNull();
  });

  it('resolves a CSV column, a contact field or a fixed value per recipient', () => {
    expect(resolveVariable({ source: 'column', value: 'discount' }, maria)).toBe('15%');
    expect(resolveVariable({ source: 'column', value: 'missing' }, maria)).toBe('');
    expect(resolveVariable({ source: 'field', value: 'name' }, maria)).toBe('Maria Silva');
    expect(resolveVariable({ source: 'field', value: 'first_name' }, maria)).toBe('Maria');
    expect(resolveVariable({ source: 'field', value: 'phone' }, maria)).toBe('+14155550123');
    expect(resolveVariable({ source: 'fixed', value: 'SPRING' }, maria)).toBe('SPRING');
    expect(resolveVariable(undefined, maria)).toBe('');
  });

  it('is complete only when every variable has a usable source', () => {
    const vars = templateVariables(welcome);
    const columns = ['phone', 'name', 'discount'];
    const mapping = { 'header.1': { source: 'field' as const, value: 'first_name' }, 'body.1': { source: 'column' as const, value: 'name' } };
    expect(isMappingComplete(vars, mapping, columns)).toBe(false);
    expect(isMappingComplete(vars, { ...mapping, 'body.2': { source: 'fixed', value: '  ' } }, columns)).toBe(false);
    expect(isMappingComplete(vars, { ...mapping, 'body.2': { source: 'column', value: 'gone' } }, columns)).toBe(false);
    expect(isMappingComplete(vars, { ...mapping, 'body.2': { source: 'column', value: 'discount' } }, columns)).toBe(true);
    expect(mappingProblem({ source: 'column', value: 'gone' }, columns)).toBe('unknownColumn');
    expect(mappingProblem({ source: 'fixed', value: '' }, columns)).toBe('blank');
    expect(mappingProblem(undefined, columns)).toBe('missing');
  });

  it('suggests columns named after the variables and keeps the user’s choices', () => {
    const vars = templateVariables(welcome);
    expect(suggestMapping(vars, ['phone', 'var1', 'Body 2'])).toEqual({
      'header.1': { source: 'column', value: 'var1' },
      'body.1': { source: 'column', value: 'var1' },
      'body.2': { source: 'column', value: 'Body 2' },
    });
    const mine = { 'body.1': { source: 'fixed' as const, value: 'friend' } };
    expect(suggestMapping(vars, ['2'], mine)).toEqual({ 'body.1': { source: 'fixed', value: 'friend' }, 'body.2': { source: 'column', value: '2' } });
  });

  it('renders the message one recipient sees, variables filled in', () => {
    const mapping = {
      'header.1': { source: 'field' as const, value: 'first_name' },
      'body.1': { source: 'column' as const, value: 'name' },
      'body.2': { source: 'column' as const, value: 'discount' },
    };
    expect(renderMessage(welcome, mapping, maria)).toEqual({
      header: { kind: 'text', text: 'Welcome, Maria!' },
      body: 'Hi Maria Silva, enjoy 15% off your first order with us.',
      footer: 'Reply STOP to opt out',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Shop now', url: undefined },
        { type: 'QUICK_REPLY', text: 'Not now', url: undefined },
      ],
    });
    // unmapped variables stay visible as {{n}}; the media header shows the uploaded file
    const shippedMessage = renderMessage(shipped, { 'button.0.1': { source: 'column', value: 'order' } }, maria, 'https://cdn.example/box.png');
    expect(shippedMessage.header).toEqual({ kind: 'media', format: 'IMAGE', url: 'https://cdn.example/box.png' });
    expect(shippedMessage.body).toBe('Good news {{1}}: order {{2}} is on its way.');
    expect(shippedMessage.buttons[0].url).toBe('https://example.com/track/A-77');
  });

  it('sends the API variables by place: body and header by number, buttons by index', () => {
    const mapping = {
      'body.1': { source: 'field' as const, value: 'name' },
      'body.2': { source: 'column' as const, value: 'order' },
      'button.0.1': { source: 'column' as const, value: 'order' },
    };
    expect(toApiVariables(mapping, templateVariables(shipped))).toEqual({
      body: { '1': { source: 'field', value: 'name' }, '2': { source: 'column', value: 'order' } },
      buttons: { '0': { source: 'column', value: 'order' } },
    });
    expect(toApiVariables({ 'header.1': { source: 'fixed', value: 'Hey' } }, templateVariables(welcome))).toEqual({ body: {}, header: { '1': { source: 'fixed', value: 'Hey' } } });
  });
});
