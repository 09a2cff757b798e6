/**
 * Bot graph ↔ React Flow nodes and edges (spec §2 bot flow canvas): an init-step node, step nodes
 * (label: the first message's text, plus media and actions), option button nodes under their step,
 * edges between steps and options labelled in upper case with the option text or a shortened id.
 * The graph is the one source of truth: nodes and edges are derived from it on every change, and
 * every edit (connect, delete, move) is a pure function graph → graph.
 */
import type { Edge, Node } from '@xyflow/react';
import { OPTION_GAP, OPTION_OFFSET, OPTION_WIDTH, positionsFor, STEP_HEIGHT, STEP_WIDTH, startStepId } from './layout';
import type { BotGraph, BotStep, StepLayout, StepOption } from './types';
import type { StepWarning } from './warnings';
import type { DraftProblem } from './problems';

export const INIT_NODE_ID = 'init';
export const OPTION_PREFIX = 'option:';
/** Handle of a step's own "next step" link (bottom right of the step node). */
export const NEXT_HANDLE = 'next';
/** Handle the dashed links from a step to its options start from (not connectable). */
export const OPTIONS_HANDLE = 'options';

export interface StepNodeData extends Record<string, unknown> {
  step: BotStep;
  label: string;
  isStart: boolean;
  /** The bot's fallback step (followed after an answer the bot does not understand twice). */
  isFallback: boolean;
  warnings: StepWarning[];
  /** What the step still lacks before the bot can be published. */
  problems: DraftProblem[];
  active: boolean;
}
export interface OptionNodeData extends Record<string, unknown> {
  option: StepOption;
  stepId: string;
  label: string;
  active: boolean;
}
export interface InitNodeData extends Record<string, unknown> {
  label: string;
}
export type StepNode = Node<StepNodeData, 'step'>;
export type OptionNode = Node<OptionNodeData, 'option'>;
export type InitNode = Node<InitNodeData, 'init'>;
export type BotNode = StepNode | OptionNode | InitNode;

/** The first 6 characters of an id (spec: "a shortened id"). */
export function shortId(id: string): string {
  return id.replace(/-/g, '').slice(0, 6);
}

/** A step's label: its first message text; its shortened id when it has none. */
export function stepLabel(step: BotStep): string {
  const text = step.messages.find((m) => (m.text ?? '').trim())?.text?.trim();
  return text || shortId(step.id);
}

/** An option edge's label: the option text in upper case, else its shortened id. */
export function optionEdgeLabel(option: StepOption): string {
  return (option.text.trim() || shortId(option.id)).toUpperCase();
}

export const optionNodeId = (optionId: string) => `${OPTION_PREFIX}${optionId}`;
export const isOptionNodeId = (id: string) => id.startsWith(OPTION_PREFIX);
export const optionIdOf = (nodeId: string) => nodeId.slice(OPTION_PREFIX.length);

/** Top-left of each option node, in a centred row under its step. */
export function optionPositions(step: BotStep, at: StepLayout): StepLayout[] {
  const n = step.options.length;
  const row = n * OPTION_WIDTH + Math.max(0, n - 1) * OPTION_GAP;
  const left = at.x + STEP_WIDTH / 2 - row / 2;
  return step.options.map((_, i) => ({ x: left + i * (OPTION_WIDTH + OPTION_GAP), y: at.y + STEP_HEIGHT + OPTION_OFFSET }));
}

export interface FlowOptions {
  warnings?: Record<string, StepWarning[]>;
  problems?: Record<string, DraftProblem[]>;
  selectedIds?: ReadonlySet<string>;
  /** Step the test chat is at (highlighted). */
  activeStepId?: string | null;
  initLabel?: string;
  /** The label of a step's "then go to" edge (translated); the target's id would mean nothing to a person. */
  nextLabel?: string;
}

export function toFlow(graph: BotGraph, options: FlowOptions = {}): { nodes: BotNode[]; edges: Edge[] } {
  const positions = positionsFor(graph);
  const start = startStepId(graph);
  const ids = new Set(graph.steps.map((s) => s.id));
  const selected = options.selectedIds ?? new Set<string>();
  const nodes: BotNode[] = [];
  const edges: Edge[] = [];

  const startAt = start ? positions[start] : undefined;
  nodes.push({
    id: INIT_NODE_ID,
    type: 'init',
    position: startAt ? { x: startAt.x + STEP_WIDTH / 2 - 60, y: startAt.y - 110 } : { x: 300 + STEP_WIDTH / 2 - 60, y: 190 },
    data: { label: options.initLabel ?? 'Start' },
    deletable: false,
    selectable: false,
  });
  if (start) {
    // Unlabelled: the start node names it already, and a step id would mean nothing to a person.
    edges.push({ id: `edge:init`, source: INIT_NODE_ID, target: start, type: 'smoothstep' });
  }

  for (const step of graph.steps) {
    const at = positions[step.id];
    nodes.push({
      id: step.id,
      type: 'step',
      position: at,
      width: STEP_WIDTH,
      height: STEP_HEIGHT,
      selected: selected.has(step.id),
      data: {
        step,
        label: stepLabel(step),
        isStart: step.id === start,
        isFallback: !!graph.fallback_step_id && step.id === graph.fallback_step_id,
        warnings: options.warnings?.[step.id] ?? [],
        problems: options.problems?.[step.id] ?? [],
        active: options.activeStepId === step.id,
      },
    });
    const optionAt = optionPositions(step, at);
    step.options.forEach((option, i) => {
      const nodeId = optionNodeId(option.id);
      nodes.push({
        id: nodeId,
        type: 'option',
        position: optionAt[i],
        width: OPTION_WIDTH,
        draggable: false,
        selected: selected.has(nodeId),
        data: { option, stepId: step.id, label: option.text || shortId(option.id), active: options.activeStepId === step.id },
      });
      edges.push({ id: `edge:step-option:${option.id}`, source: step.id, sourceHandle: OPTIONS_HANDLE, target: nodeId, deletable: false, style: { strokeDasharray: '4 3' } });
      if (option.next_step && ids.has(option.next_step)) {
        edges.push({
          id: `edge:option:${option.id}`,
          source: nodeId,
          target: option.next_step,
          // Routed around the steps between (canvas/RoutedEdge.tsx): a long edge, or one back up to a menu.
          type: 'routed',
          label: optionEdgeLabel(option),
          selected: selected.has(`edge:option:${option.id}`),
        });
      }
    });
    if (step.next_step_id && ids.has(step.next_step_id)) {
      edges.push({
        id: `edge:next:${step.id}`,
        source: step.id,
        sourceHandle: NEXT_HANDLE,
        target: step.next_step_id,
        type: 'routed',
        label: (options.nextLabel ?? 'Then').toUpperCase(),
        selected: selected.has(`edge:next:${step.id}`),
      });
    }
  }
  return { nodes, edges };
}

// ---------- edits (graph → graph) ----------

function mapStep(graph: BotGraph, stepId: string, fn: (step: BotStep) => BotStep): BotGraph {
  return { ...graph, steps: graph.steps.map((s) => (s.id === stepId ? fn(s) : s)) };
}

/** The step that owns an option. */
export function stepOfOption(graph: BotGraph, optionId: string): BotStep | undefined {
  return graph.steps.find((s) => s.options.some((o) => o.id === optionId));
}

/** A connection dragged on the canvas: option → step, step (next handle) → step, init → step. */
export function connect(graph: BotGraph, connection: { source: string; target: string; sourceHandle?: string | null }): BotGraph {
  const { source, target } = connection;
  if (!graph.steps.some((s) => s.id === target)) return graph;
  if (source === INIT_NODE_ID) return { ...graph, step: target };
  if (isOptionNodeId(source)) {
    const optionId = optionIdOf(source);
    const owner = stepOfOption(graph, optionId);
    if (!owner) return graph;
    return mapStep(graph, owner.id, (s) => ({ ...s, options: s.options.map((o) => (o.id === optionId ? { ...o, next_step: target } : o)) }));
  }
  if (source === target) return graph;
  if (!graph.steps.some((s) => s.id === source)) return graph;
  return mapStep(graph, source, (s) => ({ ...s, next_step_id: target }));
}

/** Whether a drag may end there: onto a step, never from a step onto itself. */
export function isValidConnection(graph: BotGraph, connection: { source: string; target: string }): boolean {
  if (!graph.steps.some((s) => s.id === connection.target)) return false;
  return connection.source !== connection.target;
}

/** Removes an edge: clears the option's or the step's next step. */
export function removeEdge(graph: BotGraph, edgeId: string): BotGraph {
  if (edgeId.startsWith('edge:option:')) {
    const optionId = edgeId.slice('edge:option:'.length);
    const owner = stepOfOption(graph, optionId);
    if (!owner) return graph;
    return mapStep(graph, owner.id, (s) => ({ ...s, options: s.options.map((o) => (o.id === optionId ? { ...o, next_step: null } : o)) }));
  }
  if (edgeId.startsWith('edge:next:')) return mapStep(graph, edgeId.slice('edge:next:'.length), (s) => ({ ...s, next_step_id: null }));
  return graph;
}

/** Removes steps (and every link to them) and options. */
export function removeNodes(graph: BotGraph, nodeIds: string[]): BotGraph {
  const optionIds = new Set(nodeIds.filter(isOptionNodeId).map(optionIdOf));
  const stepIds = new Set(nodeIds.filter((id) => id !== INIT_NODE_ID && !isOptionNodeId(id)));
  const steps = graph.steps
    .filter((s) => !stepIds.has(s.id))
    .map((s) => {
      const options = s.options
        .filter((o) => !optionIds.has(o.id))
        .map((o) => (o.next_step && stepIds.has(o.next_step) ? { ...o, next_step: null } : o));
      const next_step_id = s.next_step_id && stepIds.has(s.next_step_id) ? null : s.next_step_id;
      const changed = options.length !== s.options.length || options.some((o, i) => o !== s.options[i]) || next_step_id !== s.next_step_id;
      return changed ? { ...s, options, next_step_id } : s;
    });
  const step = graph.step && stepIds.has(graph.step) ? (steps[0]?.id ?? null) : graph.step;
  // a deleted fallback step leaves the fallback to a person
  if (graph.fallback_step_id && stepIds.has(graph.fallback_step_id)) return { ...graph, step, fallback_step_id: null, steps };
  return { ...graph, step, steps };
}

/** Moves a step (its options follow, being placed under it). */
export function moveStep(graph: BotGraph, stepId: string, position: StepLayout): BotGraph {
  return mapStep(graph, stepId, (s) => ({ ...s, layout: { x: Math.round(position.x), y: Math.round(position.y) } }));
}

/** A client-chosen step or option id (contract STEP_ID_PATTERN). */
export function newId(): string {
  return globalThis.crypto.randomUUID();
}

/** A new step with one message; placed at `position`, or under the lowest step. */
export function addStep(graph: BotGraph, text: string, position?: StepLayout, id = newId()): { graph: BotGraph; stepId: string } {
  const positions = positionsFor(graph);
  const lowest = Object.values(positions).reduce<StepLayout | null>((acc, p) => (!acc || p.y > acc.y ? p : acc), null);
  const layout = position ?? (lowest ? { x: lowest.x, y: lowest.y + STEP_HEIGHT + OPTION_OFFSET + 120 } : { x: 300, y: 300 });
  const order = graph.steps.reduce((max, s) => Math.max(max, s.position ?? 0), 0) + 1;
  const step: BotStep = { id, messages: [{ text, media_url: null, type: 'text' }], options: [], next_step_id: null, layout, actions: [], input: null, position: order };
  // saved positions of the others are kept as they are shown now (no jump when the computed layout changes)
  const steps = graph.steps.map((s) => (s.layout ? s : { ...s, layout: positions[s.id] }));
  return { graph: { ...graph, step: graph.step ?? id, steps: [...steps, step] }, stepId: id };
}

/** A new option on a step, labelled "Button" (spec §9). */
export function addOption(graph: BotGraph, stepId: string, text = 'Button', id = newId()): BotGraph {
  return mapStep(graph, stepId, (s) => ({ ...s, options: [...s.options, { id, text, next_step: null, step: stepId }] }));
}

/** Chooses the bot's fallback: a step, or null to hand over to a person. */
export function setFallback(graph: BotGraph, stepId: string | null): BotGraph {
  const next = stepId && graph.steps.some((s) => s.id === stepId) ? stepId : null;
  if ((graph.fallback_step_id ?? null) === next) return graph;
  return { ...graph, fallback_step_id: next };
}

export function updateStep(graph: BotGraph, step: BotStep): BotGraph {
  return mapStep(graph, step.id, () => step);
}
