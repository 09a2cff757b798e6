import { describe, expect, it } from 'vitest';
import { FlowSaveBody, type FlowStep } from '../../../../contract/flows';
import {
  addOption,
  addStep,
  computeLayout,
  connect,
  isValidConnection,
  NEXT_HANDLE,
  optionEdgeId,
  optionHandle,
  positionsFor,
  removeEdge,
  removeOption,
  removeSteps,
  renameOption,
  setStepMessage,
  setStepType,
  START_NODE_ID,
  stepNodeId,
  toFlow,
} from './model';

const STEPS: FlowStep[] = [
  { step_id: 'pick', next_step_id: null, step_msg: 'What interests you?', type: 'options', options: [{ text: 'Products', next_step_id: 'products' }, { text: 'Delivery', next_step_id: 'delivery' }] },
  { step_id: 'products', next_step_id: 'delivery', step_msg: 'Lamps and linen.', type: 'text', options: [] },
  { step_id: 'delivery', next_step_id: null, step_msg: 'Fast delivery.', type: 'text', options: [] },
];
const labels = { next: 'Next', then: 'then', start: 'start' };

describe('branching view model', () => {
  it('shows steps as nodes and options as edges labelled with their text, the next step as a "Next" edge', () => {
    const { nodes, edges } = toFlow(STEPS, positionsFor(STEPS, {}), { labels, intro: 'Hello' });
    expect(nodes.map((n) => n.id)).toEqual([START_NODE_ID, 'step:pick', 'step:products', 'step:delivery']);
    const byId = Object.fromEntries(edges.map((e) => [e.id, e]));
    expect(byId['edge:start']).toMatchObject({ source: START_NODE_ID, target: 'step:pick' });
    expect(byId[optionEdgeId('pick', 0)]).toMatchObject({ source: 'step:pick', sourceHandle: optionHandle(0), target: 'step:products', label: 'Products' });
    expect(byId[optionEdgeId('pick', 1)]).toMatchObject({ target: 'step:delivery', label: 'Delivery' });
    expect(byId['edge:next:products']).toMatchObject({ sourceHandle: NEXT_HANDLE, target: 'step:delivery', label: 'Next' });
    // a step without a next step goes on in order: a dashed "then" edge that cannot be selected
    expect(byId['edge:then:pick']).toMatchObject({ target: 'step:products', label: 'then', selectable: false, deletable: false });
    expect(byId['edge:then:delivery']).toBeUndefined();
  });

  it('lays the flow out in layers with dagre: the start above the first step, targets below their source', () => {
    const p = computeLayout(STEPS);
    expect(p[START_NODE_ID].y).toBeLessThan(p.pick.y);
    expect(p.pick.y).toBeLessThan(p.products.y);
    expect(p.products.y).toBeLessThan(p.delivery.y);
    // moved nodes keep their place, a new step gets dagre's
    const kept = { ...p, pick: { x: 999, y: 999 } };
    const { steps } = addStep(STEPS, 'New step');
    const placed = positionsFor(steps, kept);
    expect(placed.pick).toEqual({ x: 999, y: 999 });
    expect(placed.step_4).toEqual(expect.objectContaining({ x: expect.any(Number), y: expect.any(Number) }));
  });

  it('connects an option or a next step by dragging onto a step; other drags change nothing', () => {
    const { steps, stepId } = addStep(STEPS, 'Returns are free.');
    expect(stepId).toBe('step_4');
    const viaOption = connect(steps, { source: stepNodeId('pick'), sourceHandle: optionHandle(1), target: stepNodeId(stepId) })!;
    expect(viaOption[0].options[1]).toEqual({ text: 'Delivery', next_step_id: 'step_4' });
    const viaNext = connect(steps, { source: stepNodeId('delivery'), sourceHandle: NEXT_HANDLE, target: stepNodeId(stepId) })!;
    expect(viaNext[2].next_step_id).toBe('step_4');
    expect(connect(steps, { source: stepNodeId('delivery'), sourceHandle: NEXT_HANDLE, target: stepNodeId('delivery') })).toBeNull();
    expect(connect(steps, { source: START_NODE_ID, target: stepNodeId(stepId) })).toBeNull();
    expect(connect(steps, { source: stepNodeId('pick'), sourceHandle: optionHandle(7), target: stepNodeId(stepId) })).toBeNull();
    expect(isValidConnection(steps, { source: stepNodeId('pick'), sourceHandle: optionHandle(0), target: stepNodeId('pick') })).toBe(true);
    expect(isValidConnection(steps, { source: stepNodeId('pick'), sourceHandle: NEXT_HANDLE, target: stepNodeId('pick') })).toBe(false);
    expect(isValidConnection(steps, { source: stepNodeId('pick'), sourceHandle: NEXT_HANDLE, target: START_NODE_ID })).toBe(false);
  });

  it('deleting a step clears every link to it; deleting an edge clears that link', () => {
    const after = removeSteps(STEPS, ['delivery']);
    expect(after.map((s) => s.step_id)).toEqual(['pick', 'products']);
    expect(after[0].options[1].next_step_id).toBeNull();
    expect(after[1].next_step_id).toBeNull();
    expect(removeEdge(STEPS, optionEdgeId('pick', 0))[0].options[0].next_step_id).toBeNull();
    expect(removeEdge(STEPS, 'edge:next:products')[1].next_step_id).toBeNull();
    // what is left is a flow the server takes (every target names a step of the flow)
    const body = { flow_name: 'F', description: 'D', company_name: 'C', company_domain: 'c.test', extra_context: [], steps: after };
    expect(FlowSaveBody.safeParse(body).success).toBe(true);
  });

  it('edits a step: message, type, options added as "Button", renamed and removed', () => {
    let steps = setStepMessage(STEPS, 'delivery', 'Delivery in 2 days.');
    steps = setStepType(steps, 'delivery', 'options');
    steps = addOption(steps, 'delivery');
    expect(steps[2]).toMatchObject({ step_msg: 'Delivery in 2 days.', type: 'options', options: [{ text: 'Button', next_step_id: null }] });
    steps = renameOption(steps, 'delivery', 0, 'Track');
    expect(steps[2].options[0].text).toBe('Track');
    steps = removeOption(steps, 'delivery', 0);
    expect(steps[2].options).toEqual([]);
    // at most 10 options
    let many = STEPS;
    for (let i = 0; i < 12; i++) many = addOption(many, 'products');
    expect(many[1].options).toHaveLength(10);
  });
});
