/**
 * The branching view's model (spec §2 /flows/branch/{flowName}): a flow's steps as nodes, options as
 * labelled edges to their next step, a step's own next_step_id as a "next" edge, and the order's
 * implicit "then" (a step with no next step goes on with the following one) as a dashed edge.
 * The flow's steps are the one source of truth: nodes and edges are derived from them, and every
 * edit is a pure function steps → steps. Positions are dagre's layered layout, kept per step for the
 * session (a flow stores no layout): moved nodes stay where they were put, new ones are placed by dagre.
 */
import { Graph, layout as dagreLayout } from '@dagrejs/dagre';
import type { Edge, Node } from '@xyflow/react';
import { FLOW_EXTRA_LIMITS, STEP_ID_PATTERN, type FlowStep, type FlowStepType } from '../../../../contract/flows';

export const START_NODE_ID = 'start';
export const STEP_PREFIX = 'step:';
export const NEXT_HANDLE = 'next';
export const IN_HANDLE = 'in';
export const OPTION_HANDLE_PREFIX = 'option-';
export const STEP_WIDTH = 280;
/** A step node without options; each option adds a row. */
export const STEP_BASE_HEIGHT = 118;
export const OPTION_ROW_HEIGHT = 34;
export const START_WIDTH = 220;
export const START_HEIGHT = 64;
/** Spec §9: a new option's default label. */
export const NEW_OPTION_TEXT = 'Button';

export interface Position {
  x: number;
  y: number;
}
export type Positions = Record<string, Position>;

export interface StepNodeData extends Record<string, unknown> {
  step: FlowStep;
  index: number;
  isFirst: boolean;
}
export interface StartNodeData extends Record<string, unknown> {
  intro: string;
}
export type StepNode = Node<StepNodeData, 'step'>;
export type StartNode = Node<StartNodeData, 'start'>;
export type BranchNode = StepNode | StartNode;

export const stepNodeId = (stepId: string) => `${STEP_PREFIX}${stepId}`;
export const isStepNodeId = (id: string) => id.startsWith(STEP_PREFIX);
export const stepIdOf = (nodeId: string) => nodeId.slice(STEP_PREFIX.length);
export const optionHandle = (index: number) => `${OPTION_HANDLE_PREFIX}${index}`;
export const optionEdgeId = (stepId: string, index: number) => `edge:option:${index}:${stepId}`;
export const nextEdgeId = (stepId: string) => `edge:next:${stepId}`;

export function stepHeight(step: FlowStep): number {
  return STEP_BASE_HEIGHT + step.options.length * OPTION_ROW_HEIGHT;
}

/** Where each step goes next: its options' targets and its next step. */
function targets(step: FlowStep): string[] {
  const out = step.options.map((o) => o.next_step_id).filter((t): t is string => !!t);
  if (step.next_step_id) out.push(step.next_step_id);
  return out;
}

/** dagre's layered layout (top to bottom) of the whole flow: top-left corners by step id, the start node under START_NODE_ID. */
export function computeLayout(steps: readonly FlowStep[]): Positions {
  const g = new Graph();
  g.setGraph({ rankdir: 'TB', nodesep: 70, ranksep: 80, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  const ids = new Set(steps.map((s) => s.step_id));
  g.setNode(START_NODE_ID, { width: START_WIDTH, height: START_HEIGHT });
  for (const step of steps) g.setNode(stepNodeId(step.step_id), { width: STEP_WIDTH, height: stepHeight(step) });
  if (steps[0]) g.setEdge(START_NODE_ID, stepNodeId(steps[0].step_id));
  steps.forEach((step, i) => {
    const to = targets(step).filter((t) => ids.has(t) && t !== step.step_id);
    for (const t of to) g.setEdge(stepNodeId(step.step_id), stepNodeId(t));
    if (!step.next_step_id && steps[i + 1]) g.setEdge(stepNodeId(step.step_id), stepNodeId(steps[i + 1].step_id));
  });
  dagreLayout(g);
  const out: Positions = {};
  const start = g.node(START_NODE_ID);
  out[START_NODE_ID] = { x: Math.round(start.x - START_WIDTH / 2), y: Math.round(start.y - START_HEIGHT / 2) };
  for (const step of steps) {
    const n = g.node(stepNodeId(step.step_id));
    out[step.step_id] = { x: Math.round(n.x - STEP_WIDTH / 2), y: Math.round(n.y - stepHeight(step) / 2) };
  }
  return out;
}

/** Kept positions, and dagre's for the steps (or start node) that have none yet. */
export function positionsFor(steps: readonly FlowStep[], kept: Positions): Positions {
  const missing = [START_NODE_ID, ...steps.map((s) => s.step_id)].some((id) => !kept[id]);
  if (!missing) return kept;
  const computed = computeLayout(steps);
  const out: Positions = { ...computed };
  for (const [id, p] of Object.entries(kept)) if (id === START_NODE_ID || steps.some((s) => s.step_id === id)) out[id] = p;
  // a new step placed by dagre may land on a moved one: then it goes under the lowest node
  const placed = Object.entries(out).filter(([id]) => kept[id]);
  for (const step of steps) {
    if (kept[step.step_id]) continue;
    const p = out[step.step_id];
    const clash = placed.some(([, q]) => Math.abs(q.x - p.x) < STEP_WIDTH && Math.abs(q.y - p.y) < STEP_BASE_HEIGHT);
    if (clash) {
      const lowest = Math.max(...Object.values(out).map((q) => q.y)) + STEP_BASE_HEIGHT + 80;
      out[step.step_id] = { x: p.x, y: lowest };
    }
    placed.push([step.step_id, out[step.step_id]]);
  }
  return out;
}

export interface ToFlowOptions {
  selected?: ReadonlySet<string>;
  labels: { next: string; then: string; start: string };
  intro: string;
}

/** The nodes and edges React Flow shows. */
export function toFlow(steps: readonly FlowStep[], positions: Positions, options: ToFlowOptions): { nodes: BranchNode[]; edges: Edge[] } {
  const selected = options.selected ?? new Set<string>();
  const ids = new Set(steps.map((s) => s.step_id));
  const nodes: BranchNode[] = [
    {
      id: START_NODE_ID,
      type: 'start',
      position: positions[START_NODE_ID] ?? { x: 0, y: 0 },
      data: { intro: options.intro },
      deletable: false,
      selectable: false,
      connectable: false,
    },
  ];
  const edges: Edge[] = [];
  if (steps[0]) edges.push({ id: 'edge:start', source: START_NODE_ID, target: stepNodeId(steps[0].step_id), targetHandle: IN_HANDLE, label: options.labels.start, deletable: false, selectable: false, focusable: false });
  steps.forEach((step, index) => {
    const id = stepNodeId(step.step_id);
    nodes.push({
      id,
      type: 'step',
      position: positions[step.step_id] ?? { x: 0, y: 0 },
      width: STEP_WIDTH,
      height: stepHeight(step),
      selected: selected.has(id),
      data: { step, index, isFirst: index === 0 },
    });
    step.options.forEach((option, i) => {
      if (!option.next_step_id || !ids.has(option.next_step_id)) return;
      const edgeId = optionEdgeId(step.step_id, i);
      edges.push({
        id: edgeId,
        source: id,
        sourceHandle: optionHandle(i),
        target: stepNodeId(option.next_step_id),
        targetHandle: IN_HANDLE,
        type: 'smoothstep',
        label: option.text,
        selected: selected.has(edgeId),
        data: { kind: 'option' },
      });
    });
    if (step.next_step_id && ids.has(step.next_step_id)) {
      const edgeId = nextEdgeId(step.step_id);
      edges.push({
        id: edgeId,
        source: id,
        sourceHandle: NEXT_HANDLE,
        target: stepNodeId(step.next_step_id),
        targetHandle: IN_HANDLE,
        type: 'smoothstep',
        label: options.labels.next,
        selected: selected.has(edgeId),
        data: { kind: 'next' },
      });
    } else if (!step.next_step_id && steps[index + 1]) {
      // the flow goes on in order: shown, not editable (connect the next handle to change it)
      edges.push({
        id: `edge:then:${step.step_id}`,
        source: id,
        sourceHandle: NEXT_HANDLE,
        target: stepNodeId(steps[index + 1].step_id),
        targetHandle: IN_HANDLE,
        label: options.labels.then,
        deletable: false,
        selectable: false,
        focusable: false,
        style: { strokeDasharray: '5 4' },
        data: { kind: 'then' },
      });
    }
  });
  return { nodes, edges };
}

// ---------- edits (steps → steps) ----------

function mapStep(steps: readonly FlowStep[], stepId: string, fn: (s: FlowStep) => FlowStep): FlowStep[] {
  return steps.map((s) => (s.step_id === stepId ? fn(s) : s));
}

/** A fresh step id: `step_N`, the smallest N not taken (contract STEP_ID_PATTERN). */
export function newStepId(steps: readonly FlowStep[]): string {
  const taken = new Set(steps.map((s) => s.step_id));
  let n = steps.length + 1;
  while (taken.has(`step_${n}`)) n++;
  return `step_${n}`;
}

export function addStep(steps: readonly FlowStep[], message: string): { steps: FlowStep[]; stepId: string } {
  const stepId = newStepId(steps);
  return { steps: [...steps, { step_id: stepId, next_step_id: null, step_msg: message, type: 'text', options: [] }], stepId };
}

/** Removes steps and every link to them (the links become null: "the next in order"). */
export function removeSteps(steps: readonly FlowStep[], stepIds: readonly string[]): FlowStep[] {
  const gone = new Set(stepIds);
  return steps
    .filter((s) => !gone.has(s.step_id))
    .map((s) => {
      const next = s.next_step_id && gone.has(s.next_step_id) ? null : s.next_step_id;
      const options = s.options.map((o) => (o.next_step_id && gone.has(o.next_step_id) ? { ...o, next_step_id: null } : o));
      const changed = next !== s.next_step_id || options.some((o, i) => o !== s.options[i]);
      return changed ? { ...s, next_step_id: next, options } : s;
    });
}

export function setStepMessage(steps: readonly FlowStep[], stepId: string, message: string): FlowStep[] {
  return mapStep(steps, stepId, (s) => ({ ...s, step_msg: message }));
}

export function setStepType(steps: readonly FlowStep[], stepId: string, type: FlowStepType): FlowStep[] {
  return mapStep(steps, stepId, (s) => ({ ...s, type }));
}

export function setNextStep(steps: readonly FlowStep[], stepId: string, target: string | null): FlowStep[] {
  if (target === stepId) return [...steps];
  return mapStep(steps, stepId, (s) => ({ ...s, next_step_id: target }));
}

/** A new option "Button" (spec §9); a step with options is of type `options`. At most FLOW_EXTRA_LIMITS.options. */
export function addOption(steps: readonly FlowStep[], stepId: string, text = NEW_OPTION_TEXT): FlowStep[] {
  return mapStep(steps, stepId, (s) => (s.options.length >= FLOW_EXTRA_LIMITS.options ? s : { ...s, type: 'options', options: [...s.options, { text, next_step_id: null }] }));
}

export function renameOption(steps: readonly FlowStep[], stepId: string, index: number, text: string): FlowStep[] {
  return mapStep(steps, stepId, (s) => ({ ...s, options: s.options.map((o, i) => (i === index ? { ...o, text } : o)) }));
}

export function setOptionTarget(steps: readonly FlowStep[], stepId: string, index: number, target: string | null): FlowStep[] {
  return mapStep(steps, stepId, (s) => ({ ...s, options: s.options.map((o, i) => (i === index ? { ...o, next_step_id: target } : o)) }));
}

export function removeOption(steps: readonly FlowStep[], stepId: string, index: number): FlowStep[] {
  return mapStep(steps, stepId, (s) => ({ ...s, options: s.options.filter((_, i) => i !== index) }));
}

/** A connection dragged on the canvas: an option's handle or a step's next handle onto a step. */
export function connect(steps: readonly FlowStep[], connection: { source: string; target: string; sourceHandle?: string | null }): FlowStep[] | null {
  const { source, target, sourceHandle } = connection;
  if (!isStepNodeId(source) || !isStepNodeId(target)) return null;
  const from = stepIdOf(source);
  const to = stepIdOf(target);
  const step = steps.find((s) => s.step_id === from);
  if (!step || !steps.some((s) => s.step_id === to)) return null;
  if (sourceHandle?.startsWith(OPTION_HANDLE_PREFIX)) {
    const index = Number(sourceHandle.slice(OPTION_HANDLE_PREFIX.length));
    if (!Number.isInteger(index) || !step.options[index]) return null;
    return setOptionTarget(steps, from, index, to);
  }
  if (sourceHandle === NEXT_HANDLE) return from === to ? null : setNextStep(steps, from, to);
  return null;
}

/** Whether a drag may end there: on a step; a step's own next step never itself. */
export function isValidConnection(steps: readonly FlowStep[], connection: { source: string; target: string; sourceHandle?: string | null }): boolean {
  if (!isStepNodeId(connection.target)) return false;
  if (connection.sourceHandle === NEXT_HANDLE && connection.source === connection.target) return false;
  return steps.some((s) => s.step_id === stepIdOf(connection.target));
}

/** Removes an option or next edge: the link becomes null. */
export function removeEdge(steps: readonly FlowStep[], edgeId: string): FlowStep[] {
  const option = /^edge:option:(\d+):(.+)$/.exec(edgeId);
  if (option) return setOptionTarget(steps, option[2], Number(option[1]), null);
  if (edgeId.startsWith('edge:next:')) return setNextStep(steps, edgeId.slice('edge:next:'.length), null);
  return [...steps];
}

export function isValidStepId(id: string): boolean {
  return STEP_ID_PATTERN.test(id) && id.length <= FLOW_EXTRA_LIMITS.stepId;
}
