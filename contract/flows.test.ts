import { describe, expect, it } from 'vitest';
import { diffFlows, findFlowGraphProblems, FlowCreateBody, FlowFieldsSchema, flowErrorMessage, FlowSaveBody, isValidMediaUrl, type FlowFields } from './flows';

const base = { flow_name: 'Tour', description: 'About', company_name: 'Acme', company_domain: 'acme.test', extra_context: [] as string[] };
const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) => (r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]);

describe('FlowCreateBody (spec §5 creation form)', () => {
  it('takes exactly the five fields and trims empty context items', () => {
    expect(FlowCreateBody.parse({ ...base, extra_context: ['  a ', '', ' '] })).toEqual({ ...base, extra_context: ['a'] });
    expect(FlowCreateBody.safeParse({ ...base, intro_msg: 'x' }).success).toBe(false);
  });
  it.each([
    ['flow_name', ''],
    ['flow_name', 'x'.repeat(129)],
    ['description', ' '],
    ['description', 'x'.repeat(129)],
    ['company_name', ''],
    ['company_domain', 'x'.repeat(129)],
  ])('refuses %s = %j on that field', (field, value) => {
    const r = FlowCreateBody.safeParse({ ...base, [field]: value });
    expect(issues(r).map(([p]) => p)).toEqual([field]);
  });
  it('accepts 128 characters', () => {
    expect(FlowCreateBody.safeParse({ ...base, flow_name: 'x'.repeat(128), description: 'x'.repeat(128), company_domain: 'x'.repeat(128) }).success).toBe(true);
  });
});

describe('FlowFieldsSchema (spec §5 flow as read)', () => {
  it('applies defaults: empty messages, null media and call to action', () => {
    expect(FlowFieldsSchema.parse(base)).toEqual({ ...base, intro_msg: '', intro_media_url: null, find_out_more_msg: '', find_out_more_media_url: null, call_to_action: null, keywords: [], steps: [] });
  });
  it.each([
    ['intro_msg', 'x'.repeat(513)],
    ['find_out_more_msg', 'x'.repeat(513)],
    ['intro_media_url', 'not a url'],
    ['find_out_more_media_url', 'ftp://files.acme.test/a.png'],
    ['call_to_action', 'x'.repeat(21)],
  ])('refuses %s = %j on that field', (field, value) => {
    expect(issues(FlowFieldsSchema.safeParse({ ...base, [field]: value })).map(([p]) => p)).toEqual([field]);
  });
  it('accepts the limits and valid media', () => {
    const ok = FlowFieldsSchema.safeParse({ ...base, intro_msg: 'x'.repeat(512), find_out_more_msg: 'x'.repeat(512), call_to_action: 'x'.repeat(20), intro_media_url: 'https://cdn.acme.test/a.png', find_out_more_media_url: '/media/company/1/a.png' });
    expect(ok.success).toBe(true);
  });
  it('media URLs: http(s) without credentials or an uploaded file', () => {
    expect(isValidMediaUrl('http://acme.test/a.png')).toBe(true);
    expect(isValidMediaUrl('https://user:pw@acme.test/a.png')).toBe(false);
    expect(isValidMediaUrl('javascript:alert(1)')).toBe(false);
    expect(isValidMediaUrl('/media/../etc/passwd')).toBe(false);
  });
});

describe('step references', () => {
  const step = (step_id: string, next_step_id: string | null, targets: (string | null)[] = []) => ({ step_id, next_step_id, step_msg: 'm', type: 'text' as const, options: targets.map((t, i) => ({ text: `o${i}`, next_step_id: t })) });
  it('finds duplicates and dangling next steps and option targets, by path', () => {
    expect(findFlowGraphProblems([step('a', 'b', ['c', null]), step('b', null), step('a', 'zz')])).toEqual([
      { path: ['steps', 2, 'step_id'], message: 'Two steps have the same step_id.' },
      { path: ['steps', 0, 'options', 0, 'next_step_id'], message: 'This step does not exist in this flow.' },
      { path: ['steps', 2, 'next_step_id'], message: 'This step does not exist in this flow.' },
    ]);
    expect(findFlowGraphProblems([step('a', 'b', ['b', null]), step('b', 'a')])).toEqual([]);
  });
  it('FlowSaveBody refuses them on the field', () => {
    expect(issues(FlowSaveBody.safeParse({ ...base, steps: [step('a', 'nope')] }))).toEqual([['steps.0.next_step_id', 'This step does not exist in this flow.']]);
  });
});

describe('diffFlows', () => {
  const flow = (patch: Partial<FlowFields> = {}): FlowFields => FlowFieldsSchema.parse({ ...base, ...patch });
  const s = (id: string, msg = 'm') => ({ step_id: id, next_step_id: null, step_msg: msg, type: 'text' as const, options: [] });
  it('names changed fields and step changes', () => {
    expect(diffFlows(flow({ steps: [s('a'), s('b'), s('c')] }), flow({ intro_msg: 'hi', steps: [s('b'), s('a', 'new'), s('d')] }))).toEqual({
      fields: ['intro_msg', 'steps'],
      steps_added: ['d'],
      steps_removed: ['c'],
      steps_changed: ['a'],
      steps_reordered: true,
    });
    expect(diffFlows(flow(), flow())).toEqual({ fields: [], steps_added: [], steps_removed: [], steps_changed: [], steps_reordered: false });
  });
});

describe('flowErrorMessage (spec §8)', () => {
  it('composes Error + error value or the action, then the message in parentheses', () => {
    expect(flowErrorMessage('create', { error: 'Invalid flow_name', message: 'Taken.' })).toBe('Error Invalid flow_name(Taken.)');
    expect(flowErrorMessage('create', null, 'Network Error')).toBe('Error saving flow(Network Error)');
    expect(flowErrorMessage('update', {})).toBe('Error updating flow(An error occurred)');
    expect(flowErrorMessage('delete', { message: 'Not found.' })).toBe('Error deleting flow(Not found.)');
  });
});
