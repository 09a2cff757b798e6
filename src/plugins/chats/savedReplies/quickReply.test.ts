import { describe, expect, it } from 'vitest';
import { agentTemplate } from '../testing/fakeAgentTemplates';
import { filterTemplates, insertTemplate, slashQuery } from './quickReply';

const LIST = [agentTemplate('Greeting', 'Hello, how can I help?'), agentTemplate('Refund', 'Your refund is on its way.'), agentTemplate('Hours', 'We help from 9 to 5.')];

describe('quick replies', () => {
  it('a "/" starting a one-line message is a query', () => {
    expect(slashQuery('/')).toBe('');
    expect(slashQuery('/ref')).toBe('ref');
    expect(slashQuery('hello /ref')).toBeNull();
    expect(slashQuery('/ref\nmore')).toBeNull();
  });

  it('filters by name or text, case-insensitively, names first', () => {
    expect(filterTemplates(LIST, '').map((x) => x.name)).toEqual(['Greeting', 'Refund', 'Hours']);
    expect(filterTemplates(LIST, 'REF').map((x) => x.name)).toEqual(['Refund']);
    expect(filterTemplates(LIST, 'help').map((x) => x.name)).toEqual(['Greeting', 'Hours']);
    expect(filterTemplates(LIST, 'hour').map((x) => x.name)).toEqual(['Hours']);
    expect(filterTemplates(LIST, 'zzz')).toEqual([]);
  });

  it('inserts replacing the "/query", or after what was typed', () => {
    expect(insertTemplate('/ref', LIST[1])).toBe('Your refund is on its way.');
    expect(insertTemplate('', LIST[1])).toBe('Your refund is on its way.');
    expect(insertTemplate('Hi Ann,', LIST[1])).toBe('Hi Ann, Your refund is on its way.');
    expect(insertTemplate('Hi Ann,\n', LIST[1])).toBe('Hi Ann,\nYour refund is on its way.');
  });
});
