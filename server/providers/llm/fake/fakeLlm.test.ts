import { describe, expect, it } from 'vitest';
import { formatContext, QUESTION_LABEL } from '../context';
import { composeAnswer, firstSentences, NO_ANSWER } from './fakeLlm';

const ask = (passages: { title: string; text: string }[], question: string) =>
  composeAnswer([
    { role: 'system', content: 'Answer only from the passages.' },
    { role: 'user', content: `${formatContext(passages)}\n\n${QUESTION_LABEL} ${question}` },
  ]);

describe('the fake chat-completions model', () => {
  it('splits sentences at their ends only, never at a decimal point', () => {
    expect(firstSentences('Standard delivery costs 5.50 euros in France and 9.50 euros elsewhere. It is free from 60 euros. Express costs 12 euros.', 2)).toBe(
      'Standard delivery costs 5.50 euros in France and 9.50 euros elsewhere. It is free from 60 euros.',
    );
    expect(firstSentences('Is it open? Yes! From 10 am.', 2)).toBe('Is it open? Yes!');
    expect(firstSentences('No end at all', 2)).toBe('No end at all');
    expect(firstSentences('Version 2.1.3 is out.\nUpgrade now. Later text.', 2)).toBe('Version 2.1.3 is out. Upgrade now.');
  });

  it('answers with the first two sentences of the passage sharing the most words, cited; NO_ANSWER when none shares a word', () => {
    const passages = [
      { title: 'Payment', text: 'We accept Visa and PayPal. No cheques.' },
      { title: 'Shipping costs', text: 'Standard delivery costs 5.50 euros in France. Express delivery costs 12 euros. Lockers cost 3.90 euros.' },
    ];
    expect(ask(passages, 'How much does delivery cost in France?')).toBe('Standard delivery costs 5.50 euros in France. Express delivery costs 12 euros. [2]');
    expect(ask(passages, 'Is there parking nearby?')).toBe(NO_ANSWER);
  });
});
