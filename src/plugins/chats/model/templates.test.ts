import { describe, expect, it } from 'vitest';
import type { MessageTemplate } from '../../../../contract/channels';
import { approvedTemplates, parametersComplete, templateBody, templateKey } from './templates';

const tpl = (name: string, status: string, body = 'Hello {{1}}, order {{2}} is ready'): MessageTemplate => ({
  id: `id-${name}`,
  name,
  language: 'en_US',
  status,
  category: 'UTILITY',
  components: [{ type: 'HEADER', format: 'TEXT', text: 'Header' }, { type: 'BODY', text: body }],
});

describe('template choice', () => {
  it('keeps approved templates only', () => {
    const list = [tpl('a', 'APPROVED'), tpl('b', 'PENDING'), tpl('c', 'REJECTED'), tpl('d', 'approved')];
    expect(approvedTemplates(list).map((x) => x.name)).toEqual(['a', 'd']);
  });

  it('every {{n}} of the body needs a value; whitespace does not count', () => {
    const t = tpl('a', 'APPROVED');
    expect(templateBody(t)).toBe('Hello {{1}}, order {{2}} is ready');
    expect(parametersComplete(t, ['Ann'])).toBe(false);
    expect(parametersComplete(t, ['Ann', '  '])).toBe(false);
    expect(parametersComplete(t, ['Ann', '42'])).toBe(true);
    expect(parametersComplete(tpl('b', 'APPROVED', 'No parameters'), [])).toBe(true);
    expect(templateKey({ id: '', name: 'x', language: 'fr' })).toBe('x:fr');
  });
});
