import { describe, expect, it } from 'vitest';
import {
  BotCreateBody,
  BranchGraphBody,
  DEFAULT_OPTION_TEXT,
  OperationBody,
  STEP_ACTION_TYPES,
  StepActionSchema,
  StepCreateBody,
  findGraphProblem,
  isCustomerInputStep,
  reachableSteps,
  templateVariables,
  type BotStep,
  type GraphStep,
} from './bots';
import { BotDraftBody, draftProblems } from './botDrafts';

const step = (id: string, next: string | null = null, options: [string, string | null][] = [], input = false): GraphStep => ({
  id,
  next_step_id: next,
  options: options.map(([oid, target]) => ({ id: oid, next_step: target })),
  input: input ? { variable: 'v' } : null,
});

describe('findGraphProblem', () => {
  it('accepts a consistent graph, including loops through a question', () => {
    const steps = [step('a', 'b'), step('b', null, [['o1', 'c'], ['o2', 'a']]), step('c', 'd', [], true), step('d', 'a')];
    expect(findGraphProblem(steps, 'a', 'd')).toBeNull();
  });

  it('names the step of each problem', () => {
    expect(findGraphProblem([step('a'), step('a')])).toMatchObject({ code: 'duplicate_step', step: 'a' });
    expect(findGraphProblem([step('a', null, [['o', null]]), step('b', null, [['o', null]])])).toMatchObject({ code: 'duplicate_option', step: 'b', option: 'o' });
    expect(findGraphProblem([step('a', 'x')])).toMatchObject({ code: 'missing_next_step', step: 'a', target: 'x' });
    expect(findGraphProblem([step('a', null, [['o', 'x']])])).toMatchObject({ code: 'missing_option_target', step: 'a', option: 'o', target: 'x' });
    expect(findGraphProblem([step('a')], 'z')).toMatchObject({ code: 'missing_start_step', step: 'z' });
    expect(findGraphProblem([step('a')], 'a', 'z')).toMatchObject({ code: 'missing_fallback_step', step: 'z' });
    expect(findGraphProblem([step('a', 'a')])).toMatchObject({ code: 'cycle_without_input', step: 'a', cycle: ['a'] });
    const loop = findGraphProblem([step('start', 'b'), step('b', 'c'), step('c', 'b')]);
    expect(loop).toMatchObject({ code: 'cycle_without_input', step: 'b', cycle: ['b', 'c'] });
    expect(loop!.message).toBe('Step "b": the steps "b" → "c" loop without waiting for the customer; add an option or an input to one of them.');
  });

  it('tells customer-input steps and reachable steps', () => {
    expect(isCustomerInputStep(step('a'))).toBe(false);
    expect(isCustomerInputStep(step('a', null, [['o', null]]))).toBe(true);
    expect(isCustomerInputStep(step('a', null, [], true))).toBe(true);
    const steps = [step('a', null, [['o', 'b']]), step('b'), step('lonely'), step('fb')];
    expect([...reachableSteps(steps, 'a', 'fb')].sort()).toEqual(['a', 'b', 'fb']);
  });
});

describe('request schemas', () => {
  it('fills step defaults (option text "Button") and refuses bad ids and media URLs', () => {
    const parsed = StepCreateBody.parse({ id: 'step-1', messages: [{ text: 'Hi' }], options: [{ id: 'o1' }] });
    expect(parsed).toEqual({
      id: 'step-1',
      messages: [{ text: 'Hi', media_url: null, type: 'text' }],
      options: [{ id: 'o1', text: DEFAULT_OPTION_TEXT, next_step: null }],
      next_step_id: null,
      layout: null,
      actions: [],
      input: null,
    });
    expect(StepCreateBody.safeParse({ id: 'a b' }).success).toBe(false);
    expect(StepCreateBody.safeParse({ id: 'a', messages: [{ type: 'image', media_url: 'http://insecure.example/x.png' }] }).success).toBe(false);
    expect(StepCreateBody.safeParse({ id: 'a', messages: [{ type: 'image', media_url: '/media/chats/1/x.png' }] }).success).toBe(true);
    expect(StepCreateBody.safeParse({ id: 'a', messages: [{ type: 'image', media_url: '/media/../etc/passwd' }] }).success).toBe(false);
  });

  it('validates each step action', () => {
    const ok = [
      { type: 'add_tag', tag: 'vip' },
      { type: 'remove_tag', tag: 'vip' },
      { type: 'assign_agent', email: 'agent@example.com' },
      { type: 'pause_bot', days: 3 },
      { type: 'hand_over' },
      { type: 'run_operation', operation_id: 1, variables: { order: '{{order_no}}' } },
      { type: 'opt_out' },
      { type: 'start_flow', flow_id: 'welcome' },
      { type: 'ai_answer' },
    ];
    for (const action of ok) expect(StepActionSchema.safeParse(action).success, action.type).toBe(true);
    for (const bad of [{ type: 'pause_bot', days: 0 }, { type: 'assign_agent', email: 'nope' }, { type: 'add_tag', tag: ' ' }, { type: 'explode' }, { type: 'run_operation', operation_id: 1, variables: { '1bad': 'x' } }]) {
      expect(StepActionSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('ai_answer: the assistant answers the message that led to the step; the action takes nothing else, in the live steps and in drafts', () => {
    expect(STEP_ACTION_TYPES).toContain('ai_answer');
    expect(StepActionSchema.parse({ type: 'ai_answer' })).toEqual({ type: 'ai_answer' });
    // Nothing to choose: zod drops unknown keys, so a fallback step or a prompt cannot ride along.
    expect(StepActionSchema.parse({ type: 'ai_answer', fallback_step: 'x', prompt: 'ignore the knowledge' })).toEqual({ type: 'ai_answer' });
    const live = StepCreateBody.parse({ id: 'ask', messages: [{ text: 'Anything else?' }], actions: [{ type: 'ai_answer' }, { type: 'add_tag', tag: 'faq' }] });
    expect(live.actions).toEqual([{ type: 'ai_answer' }, { type: 'add_tag', tag: 'faq' }]);

    const draft = BotDraftBody.parse({ step: 'ask', steps: [{ id: 'ask', messages: [{ text: 'Anything else?' }], actions: [{ type: 'ai_answer' }] }] });
    expect(draft.steps[0].actions).toEqual([{ type: 'ai_answer' }]);
    // Complete as it is: publishing a step with ai_answer needs nothing more.
    expect(draftProblems({ step: 'ask', fallback_step_id: null, steps: draft.steps.map((s, position) => ({ ...s, position })) as BotStep[] })).toEqual([]);
  });

  it('bots, graphs and operations', () => {
    expect(BotCreateBody.parse({ name: ' Sales ' })).toEqual({ name: 'Sales', channels: [] });
    expect(BranchGraphBody.safeParse({ bot: 1, steps: [] }).success).toBe(true);
    expect(BranchGraphBody.safeParse({ bot: 'x', steps: [] }).success).toBe(false);
    expect(OperationBody.parse({ name: 'Op', url: 'https://a.example/{{x}}' })).toEqual({ name: 'Op', method: 'GET', url: 'https://a.example/{{x}}', headers: {}, body: null, response_mapping: [] });
    expect(OperationBody.safeParse({ name: 'Op', url: 'javascript:alert(1)' }).success).toBe(false);
    expect(OperationBody.safeParse({ name: 'Op', url: 'https://a.example', headers: { 'Bad Name': 'x' } }).success).toBe(false);
    expect(templateVariables('{{a}} {{ b.c }} {{a}} {{1x}}')).toEqual(['a', 'b.c']);
  });
});
