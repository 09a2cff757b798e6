import { describe, expect, it } from 'vitest';
import { flowFixture } from '../testing/fixtures';
import { draftProblems, isDirty, moveItem, nextStepId, previewItems, removeStep, renameStep, toDraft, toSaveBody } from './draft';

describe('flow draft', () => {
  const flow = flowFixture(1, 'Shop tour');

  it('round-trips a flow into the save body; empty media and call to action become null; a text step sends no options', () => {
    const d = toDraft(flow);
    expect(isDirty(d, flow)).toBe(false);
    const body = toSaveBody({ ...d, intro_media_url: '  ', call_to_action: '', steps: d.steps.map((s) => ({ ...s, type: 'text' as const })) });
    expect(body.intro_media_url).toBeNull();
    expect(body.call_to_action).toBeNull();
    expect(body.steps!.every((s) => s.options!.length === 0)).toBe(true);
  });

  it("reports §5's problems by path (the contract's save schema)", () => {
    const d = toDraft(flow);
    const problems = draftProblems({ ...d, flow_name: ' ', call_to_action: 'x'.repeat(21), intro_media_url: 'not a url', steps: [...d.steps, { ...d.steps[2], key: 'dup' }] });
    expect(problems).toMatchObject({
      flow_name: 'This field may not be blank.',
      call_to_action: 'Ensure this field has no more than 20 characters.',
      intro_media_url: 'Enter a valid URL.',
      'steps.3.step_id': 'Two steps have the same step_id.',
    });
    expect(draftProblems(d)).toEqual({});
  });

  it('moves, renames (with its references) and removes (clearing references) steps', () => {
    const d = toDraft(flow);
    expect(moveItem(d.steps, 2, 0).map((s) => s.step_id)).toEqual(['bye', 'pick', 'products']);
    const renamed = renameStep(d.steps, d.steps[1].key, 'catalogue');
    expect(renamed[0].options[0].next_step_id).toBe('catalogue');
    const removed = removeStep(renamed, renamed[1].key);
    expect(removed.map((s) => s.step_id)).toEqual(['pick', 'bye']);
    expect(removed[0].options[0].next_step_id).toBeNull();
    expect(nextStepId(d.steps)).toBe('step_4');
    expect(isDirty({ ...d, steps: moveItem(d.steps, 2, 0) }, flow)).toBe(true);
  });

  it('previews what the customer gets, in order', () => {
    const d = { ...toDraft(flow), intro_media_url: 'https://cdn.acme.test/a.png' };
    expect(previewItems(d).map((i) => [i.kind, i.text || i.mediaUrl, i.buttons])).toEqual([
      ['text', 'Welcome!', []],
      ['media', 'https://cdn.acme.test/a.png', []],
      ['step', 'What interests you?', ['Products']],
      ['step', 'Lamps and linen.', []],
      ['step', 'Bye!', []],
      ['text', 'More on acme.test.', []],
      ['cta', 'Shop now', ['Shop now']],
    ]);
  });
});
