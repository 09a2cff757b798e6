/**
 * The checks of ./scoring.ts on passages built by hand: the stems are the lower-case words (PostgreSQL's
 * stems in the product), the weights chosen, so each test shows one rule deciding.
 */
import { describe, expect, it } from 'vitest';
import { hasFigure, questionShape } from './questionShape';
import { confidence, rankPassages, scorePassage, type Candidate, type WeightedWord } from './scoring';

const stemsOf = (text: string) => new Set(text.toLowerCase().match(/\p{L}+/gu) ?? []);

let nextId = 1;
function passage(heading: string, text: string): Candidate {
  const sentences = text.split(/(?<=[.!?])\s+|\n/).map((s) => ({ text: s, lexemes: stemsOf(s) }));
  return { id: nextId++, itemId: 1, title: 'Shop', heading, text, rank: 0, lexemes: stemsOf(`${heading} ${text}`), headingLexemes: stemsOf(heading), sentences };
}

/** The question's words with a weight each (its rarity in the product); `common` marks the most used English verbs. */
function words(weights: Record<string, number>, common: string[] = []): WeightedWord[] {
  return Object.entries(weights).map(([word, weight]) => ({ word, stems: [word], passages: 1, weight, common: common.includes(word) }));
}

const score = (question: string, c: Candidate, w: WeightedWord[]) => scorePassage(c, w, questionShape(question)).coverage;

describe('what a question asks', () => {
  it('finds the action of a yes/no or how-to question, with the particle of a common verb, in English and French', () => {
    expect(questionShape('Can I order by phone?').action).toEqual(['order']);
    expect(questionShape('How do I track my order?').action).toEqual(['track']);
    expect(questionShape('I bought it in the sale, can I still return it?').action).toEqual(['return']);
    expect(questionShape('Can I send back an engraved mug?').action).toEqual(['send', 'back']);
    expect(questionShape('Can I pay cash?').action).toEqual(['pay']);
    expect(questionShape('Puis-je commander par téléphone ?').action).toEqual(['commander']);
    expect(questionShape("Est-ce qu'on peut réserver une table ?").action).toEqual(['réserver']);
    expect(questionShape('What are your opening hours?').action).toEqual([]);
    expect(questionShape('Do your prices include VAT?').action).toEqual([]);
  });

  it('tells a question asking for a figure, and the word naming it when there is one', () => {
    expect(questionShape('What size is the dinner plate?').figure).toEqual({ word: 'size' });
    expect(questionShape("What's your VAT number?").figure).toEqual({ word: 'number' });
    expect(questionShape('What is the delivery time to Spain?').figure).toEqual({ word: 'time' });
    expect(questionShape('Quel est votre numéro de TVA ?').figure).toEqual({ word: 'numéro' });
    expect(questionShape('À quelle heure fermez-vous ?').figure).toEqual({ word: 'heure' });
    expect(questionShape('How much is the large candle?').figure).toEqual({ word: null });
    expect(questionShape('How long does delivery take?').figure).toEqual({ word: null });
    expect(questionShape('Combien coûte la livraison ?').figure).toEqual({ word: null });
    expect(questionShape('Is delivery free?').figure).toBeNull();
    expect(questionShape('When is my card charged?').figure).toBeNull();
    expect(questionShape('Which payment methods do you accept?').figure).toBeNull();
  });

  it('finds a figure in digits, in words, a price of nothing or a span of time, but not in "one" or "une" alone', () => {
    const figures = ['It costs 5.50 euros.', 'Three instalments.', 'Delivery is free.', 'La livraison est gratuite.', 'Trois fois sans frais.'];
    figures.push('Refunds are made within a week.', 'Orders leave the next working day.', 'Livraison le lendemain.', 'Expédiée en une semaine.');
    for (const text of figures) expect(hasFigure(text)).toBe(true);
    for (const text of ['Sizes vary from one rug to the next.', 'Add a VAT number to your account.', 'Une facture par commande.', 'Someone answers.']) expect(hasFigure(text)).toBe(false);
  });
});

describe("a passage's confidence", () => {
  it('weighs what it holds and lacks by rarity: C / (C + 1.5·M)', () => {
    const c = passage('Customer service', 'Customer service answers by phone from 9 am to 5 pm.');
    expect(score('Is there a phone line for orders?', c, words({ phone: 2.93, orders: 0.89 }))).toBeCloseTo(confidence(2.93, 0.89), 5);
  });

  it('is 0 when the passage lacks the action asked about, whatever else it holds', () => {
    const service = passage('Customer service', 'Customer service answers by phone from 9 am to 5 pm.');
    // Without the action's rule this passage holds the rare word and lacks only a frequent one: 0.69.
    expect(confidence(2.93, 0.89)).toBeGreaterThan(0.5);
    expect(score('Can I order by phone?', service, words({ order: 0.89, phone: 2.93 }))).toBe(0);
    const ordering = passage('Ordering', 'You can order by phone from 9 am to 5 pm.');
    expect(score('Can I order by phone?', ordering, words({ order: 0.89, phone: 2.93 }))).toBe(1);
    // The same words asked another way, with no action: the coverage decides.
    expect(score('Is there a phone number for orders?', service, words({ phone: 2.93, number: 2.42, orders: 0.89 }))).toBeGreaterThan(0);
  });

  it('needs the particle of a phrasal verb, but never a common verb alone', () => {
    const w = words({ send: 2.93, back: 2.93, engraved: 2.42, mugs: 2.42 }, ['send']);
    const engraving = passage('Engraving', 'Mugs can be engraved for 8 euros. Engraved items are made to order.');
    // Without the particle's rule: the passage holds the mugs and the engraving, lacks "back", 0.52.
    expect(confidence(4.84, 2.93)).toBeGreaterThan(0.5);
    expect(score('Can I send back engraved mugs?', engraving, w)).toBe(0);
    expect(score('Can I send back engraved mugs?', passage('Returns', 'Engraved mugs cannot be given back.'), w)).toBe(1);
    // "pay" is a common verb: a passage that says "accept" answers "Can I pay cash?".
    const payment = passage('Payment', 'In the shop we accept cash and cards.');
    expect(score('Can I pay cash?', payment, words({ pay: 2.93, cash: 2.93 }, ['pay']))).toBe(1);
  });

  it('is 0 when the question asks for a figure and the passage names what was asked without giving it', () => {
    const ceramics = passage('Ceramics', 'A dinner plate costs 34 euros. Because they are handmade, sizes vary slightly.');
    const w = words({ size: 2.93, dinner: 2.93, plate: 2.93 }).map((x) => (x.word === 'size' ? { ...x, stems: ['size', 'sizes'] } : x));
    // Every word is held: without the figure's rule the confidence is 1.
    expect(score('Is the dinner plate one of the sizes?', ceramics, w)).toBe(1);
    expect(score('What size is the dinner plate?', ceramics, w)).toBe(0);
    const sized = passage('Ceramics', 'A dinner plate costs 34 euros. Sizes: the dinner plate is 27 cm across.');
    expect(score('What size is the dinner plate?', sized, w)).toBe(1);

    const invoices = passage('Invoices', 'For a company invoice with a VAT number, add the number to your account before ordering.');
    expect(score('What is your VAT number?', invoices, words({ vat: 2.42, number: 2.42 }))).toBe(0);
    expect(score('Where do I add my VAT number?', invoices, words({ add: 2.93, vat: 2.42, number: 2.42 }, ['add']))).toBe(1);
  });

  it('is 0 when the question asks for a figure and no sentence holding its words has one; a heading belongs to each sentence', () => {
    const w = words({ gift: 2.93, wrapping: 2.93 });
    // Both words held: without the figure's rule, 1. The figure is in another sentence, about something else.
    const unpriced = passage('Extras', 'Gift wrapping is done by hand at checkout. Delivery takes 2 days.');
    expect(score('Do you do gift wrapping?', unpriced, w)).toBe(1);
    expect(score('How much is gift wrapping?', unpriced, w)).toBe(0);
    expect(score('How much is gift wrapping?', passage('Extras', 'Gift wrapping is done by hand at checkout and costs 3 euros.'), w)).toBe(1);
    expect(score('How much is gift wrapping?', passage('Gift wrapping', 'It is free.'), w)).toBe(1);
  });

  it('ranks by the weight held, a heading word twice, and keeps a passage that does not answer first (a hand-over, not another passage)', () => {
    const service = passage('Customer service', 'Customer service answers by phone.');
    const orders = passage('Orders', 'Orders leave the same day.');
    const w = words({ order: 0.89, phone: 2.93 }).map((x) => (x.word === 'order' ? { ...x, stems: ['order', 'orders'] } : x));
    const ranked = rankPassages([orders, service], w, questionShape('Can I order by phone?'));
    expect(ranked.map((r) => [r.candidate.heading, r.coverage])).toEqual([
      ['Customer service', 0],
      ['Orders', expect.any(Number)],
    ]);
  });
});
