/**
 * Where each step sits on the canvas (spec §2: "Layout falls back to x 300, y 300 for the start step,
 * otherwise to a computed grid"). A step's saved `layout` wins; the start step without one sits at
 * 300,300; every other step without one gets the layered position dagre computes for the whole graph,
 * shifted so that the start step keeps its place.
 */
import { Graph, layout as dagreLayout } from '@dagrejs/dagre';
import { orderRanksByPorts, portEdges, type PlacedNode } from './portOrder';
import type { BotGraph, BotStep, StepLayout } from './types';

export const START_POSITION: StepLayout = { x: 300, y: 300 };
export const STEP_WIDTH = 260;
export const STEP_HEIGHT = 150;
export const OPTION_WIDTH = 120;
export const OPTION_HEIGHT = 40;
export const OPTION_GAP = 12;
/** Vertical distance between a step's bottom and its option row. */
export const OPTION_OFFSET = 48;

/** Width of a step with its row of options under it. */
export function stepBlockWidth(step: BotStep): number {
  const optionsWidth = step.options.length * OPTION_WIDTH + Math.max(0, step.options.length - 1) * OPTION_GAP;
  return Math.max(STEP_WIDTH, optionsWidth);
}

/** Height of a step with its option row. */
export function stepBlockHeight(step: BotStep): number {
  return STEP_HEIGHT + (step.options.length ? OPTION_OFFSET + OPTION_HEIGHT : 0);
}

/** The start step: `graph.step` when it names a step, else the first step. */
export function startStepId(graph: BotGraph): string | null {
  if (graph.step && graph.steps.some((s) => s.id === graph.step)) return graph.step;
  return graph.steps[0]?.id ?? null;
}

const NODE_SEP = 60;

/** A layered (top to bottom) layout of every step, top-left corners, from dagre, each rank in its option buttons' order. */
export function computeLayout(graph: BotGraph): Record<string, StepLayout> {
  const g = new Graph();
  g.setGraph({ rankdir: 'TB', nodesep: NODE_SEP, ranksep: 90, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  const ids = new Set(graph.steps.map((s) => s.id));
  // A step's edges leave from its option buttons and its bottom: dagre gets the edges, the ordering their ports.
  const edges = graph.steps.flatMap((step) => portEdges(step, OPTION_WIDTH, OPTION_GAP)).filter((e) => ids.has(e.target) && e.target !== e.source);
  for (const step of graph.steps) g.setNode(step.id, { width: stepBlockWidth(step), height: stepBlockHeight(step) });
  for (const edge of edges) g.setEdge(edge.source, edge.target);
  dagreLayout(g);
  const placed: Record<string, PlacedNode> = {};
  for (const step of graph.steps) placed[step.id] = { x: g.node(step.id).x, y: g.node(step.id).y, width: stepBlockWidth(step) };
  const ordered = orderRanksByPorts(placed, edges, NODE_SEP);
  const out: Record<string, StepLayout> = {};
  for (const step of graph.steps) {
    const node = ordered[step.id];
    // dagre gives centres of the whole block; the step node is centred horizontally on it
    out[step.id] = { x: Math.round(node.x - STEP_WIDTH / 2), y: Math.round(node.y - stepBlockHeight(step) / 2) };
  }
  return out;
}

/** Moves a computed layout so that `anchorId` lands on `anchor`. */
function anchored(layout: Record<string, StepLayout>, anchorId: string | null, anchor: StepLayout): Record<string, StepLayout> {
  const origin = anchorId ? layout[anchorId] : undefined;
  if (!origin) return layout;
  const dx = anchor.x - origin.x;
  const dy = anchor.y - origin.y;
  const out: Record<string, StepLayout> = {};
  for (const [id, p] of Object.entries(layout)) out[id] = { x: p.x + dx, y: p.y + dy };
  return out;
}

function valid(layout: StepLayout | null | undefined): layout is StepLayout {
  return !!layout && Number.isFinite(layout.x) && Number.isFinite(layout.y);
}

/** The position of every step: saved layout, else 300,300 for the start step, else the computed one. */
export function positionsFor(graph: BotGraph): Record<string, StepLayout> {
  const start = startStepId(graph);
  const out: Record<string, StepLayout> = {};
  const missing = graph.steps.filter((s) => !valid(s.layout));
  if (!missing.length) {
    for (const step of graph.steps) out[step.id] = { ...(step.layout as StepLayout) };
    return out;
  }
  const startStep = graph.steps.find((s) => s.id === start);
  const anchor = startStep && valid(startStep.layout) ? startStep.layout : START_POSITION;
  const computed = anchored(computeLayout(graph), start, anchor);
  for (const step of graph.steps) {
    if (valid(step.layout)) out[step.id] = { ...step.layout };
    else if (step.id === start) out[step.id] = { ...START_POSITION };
    else out[step.id] = computed[step.id];
  }
  return out;
}

/** The auto-layout button: every step placed by dagre, the start step at 300,300. */
export function autoLayout(graph: BotGraph): BotGraph {
  const layout = anchored(computeLayout(graph), startStepId(graph), START_POSITION);
  return { ...graph, steps: graph.steps.map((s) => ({ ...s, layout: layout[s.id] })) };
}
