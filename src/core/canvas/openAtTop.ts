import type { FitViewOptions, Node, ReactFlowInstance } from '@xyflow/react';

/**
 * How the console's canvases (a bot's, a flow's branches) open: the whole graph in view, no smaller than 80 % (a
 * node's buttons stay at least 24 px, WCAG 2.5.8).
 */
export const CANVAS_OPENING_FIT = { padding: 0.2, maxZoom: 1, minZoom: 0.8 } satisfies FitViewOptions;

/** Room kept above the graph's top when it opens at its top. */
export const CANVAS_OPENING_TOP_MARGIN = 24;

/**
 * After the opening fit: a graph taller than the canvas at 80 % opens at its top, where the conversation starts
 * (fitView alone centres it, the start cut off above); the minimap, the controls and "fit view" show the rest.
 */
export function openAtTop<N extends Node>(instance: Pick<ReactFlowInstance<N>, 'getNodes' | 'getViewport' | 'getNodesBounds' | 'setViewport'>): void {
  const nodes = instance.getNodes();
  if (nodes.length === 0) return;
  const { x, y, zoom } = instance.getViewport();
  const top = instance.getNodesBounds(nodes).y * zoom + y;
  if (top < CANVAS_OPENING_TOP_MARGIN) void instance.setViewport({ x, y: y + CANVAS_OPENING_TOP_MARGIN - top, zoom });
}
