import { describe, expect, it } from 'vitest';
import { CarouselSubmission } from '../../../../contract/templates';
import {
  addCard,
  carouselErrors,
  carouselFieldOfPath,
  carouselFromTemplate,
  carouselSubmission,
  initialCarousel,
  moveCard,
  removeCard,
  setLayout,
  updateCard,
  type CarouselDraft,
} from './model';

const media = (n: number) => ({ handle: `4::h${n}`, previewUrl: null, fileName: `${n}.png`, fileType: 'image/png' });

function filled(): CarouselDraft {
  let draft: CarouselDraft = { ...initialCarousel(), name: 'summer_cards', body: 'Hi {{1}}, see our picks.', bodyExamples: ['Ana'] };
  draft = addCard(draft);
  draft.cards.forEach((_, i) => {
    draft = updateCard(draft, i, { media: media(i), body: `Card ${i + 1}`, buttons: [{ text: 'Buy', url: '', urlExample: '', phone: '' }, { text: 'See', url: `https://shop.test/${i}`, urlExample: '', phone: '' }] });
  });
  return draft;
}

describe('carousel builder', () => {
  it('submits exactly Meta’s carousel format with the channel’s number', () => {
    const submission = carouselSubmission(filled(), '+1 555 0100');
    expect(submission).toEqual({
      name: 'summer_cards',
      language: 'en_US',
      category: 'MARKETING',
      phone_number: '+1 555 0100',
      components: [
        { type: 'BODY', text: 'Hi {{1}}, see our picks.', example: { body_text: [['Ana']] } },
        {
          type: 'CAROUSEL',
          cards: [0, 1, 2].map((i) => ({
            components: [
              { type: 'HEADER', format: 'IMAGE', example: { header_handle: [`4::h${i}`] } },
              { type: 'BODY', text: `Card ${i + 1}` },
              { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Buy' }, { type: 'URL', text: 'See', url: `https://shop.test/${i}` }] },
            ],
          })),
        },
      ],
    });
    expect(CarouselSubmission.safeParse(submission).success).toBe(true);
    expect(carouselErrors(filled())).toEqual({});
  });

  it('reorders, adds (at most 10) and removes (at least 2) cards', () => {
    const draft = filled();
    const moved = moveCard(draft, 0, 2);
    expect(moved.cards.map((c) => c.body)).toEqual(['Card 2', 'Card 3', 'Card 1']);
    expect(moveCard(moved, 2, 0).cards.map((c) => c.body)).toEqual(['Card 1', 'Card 2', 'Card 3']);
    expect(moveCard(draft, 0, 5)).toBe(draft);
    let many = draft;
    for (let i = 0; i < 20; i++) many = addCard(many);
    expect(many.cards).toHaveLength(10);
    let few = removeCard(draft, 1);
    expect(few.cards.map((c) => c.body)).toEqual(['Card 1', 'Card 3']);
    few = removeCard(few, 0);
    expect(few.cards).toHaveLength(2);
  });

  it('one button layout for every card, at most two', () => {
    const draft = setLayout(filled(), ['URL', 'PHONE_NUMBER', 'QUICK_REPLY']);
    expect(draft.layout).toEqual(['URL', 'PHONE_NUMBER']);
    expect(draft.cards.every((c) => c.buttons.length === 2)).toBe(true);
    expect(carouselErrors(setLayout(filled(), [])).layout).toBe('Each carousel card needs at least one button.');
  });

  it('errors land on the card and field they are about', () => {
    let draft = filled();
    draft = updateCard(draft, 1, { media: null, body: '' });
    draft = updateCard(draft, 2, { buttons: [{ text: '', url: '', urlExample: '', phone: '' }, { text: 'See', url: 'ftp://x', urlExample: '', phone: '' }] });
    const errors = carouselErrors({ ...draft, name: 'Bad Name' });
    expect(errors.name).toBe('Use lowercase letters, digits and underscores only.');
    expect(errors['cards.1.media']).toBe('Upload a sample image for the header.');
    expect(errors['cards.1.body']).toBe('The body needs its text.');
    expect(errors['cards.2.buttons.0.text']).toBe('This field may not be blank.');
    expect(errors['cards.2.buttons.1.url']).toBe('The URL must start with https:// or http://.');
    expect(carouselErrors(updateCard(filled(), 0, { body: 'x'.repeat(161) }))['cards.0.body']).toBe('Ensure this field has no more than 160 characters.');
    expect(carouselErrors(removeCard({ ...filled(), cards: filled().cards.slice(0, 1) }, 0)).cards).toBe('A carousel has 2 to 10 cards.');
    expect(carouselFieldOfPath('components.1.cards.3.components.2.buttons.1.example')).toBe('cards.3.buttons.1.urlExample');
    expect(carouselFieldOfPath('components.0.example.body_text')).toBe('bodyExamples');
  });

  it('reads an existing carousel back (edit, duplicate) to the same components', () => {
    const submission = carouselSubmission(filled(), '1');
    const draft = carouselFromTemplate({ name: submission.name, language: submission.language, components: submission.components });
    expect(carouselSubmission(draft, '1')).toEqual(submission);
  });
});
