/**
 * dagre orders each rank by where its nodes' neighbours are, but an edge of ours leaves from one of the
 * option buttons in a row under its step, not from the step's centre: to dagre, every edge of a menu step
 * starts at the same point, so the order of the steps the options lead to is a tie it breaks at random, and
 * "Option 1" often leads to the rightmost step across "Option 3"'s edge (issue #25). This pass sorts each
 * rank, top to bottom, by the mean x of the option buttons (or the step's bottom, for its next step) that
 * lead into each node; a rank in dagre's order under nodes that did not move keeps dagre's positions.
 */
import type { BotStep } from './types';

export interface PlacedNode {
  /** Centre x and y of the node's block, as dagre gives them. */
  x: number;
  y: number;
  width: number;
}

export interface PortEdge {
  source: string;
  target: string;
  /** Horizontal offset of where the edge leaves, from the centre of the source's block. */
  offset: number;
}

/** Where each edge of a step leaves: its option buttons (a row centred under the step), then its next step. */
export function portEdges(step: BotStep, optionWidth: number, optionGap: number): PortEdge[] {
  const n = step.options.length;
  const row = n * optionWidth + Math.max(0, n - 1) * optionGap;
  const edges: PortEdge[] = [];
  step.options.forEach((option, i) => {
    if (option.next_step) edges.push({ source: step.id, target: option.next_step, offset: -row / 2 + i * (optionWidth + optionGap) + optionWidth / 2 });
  });
  if (step.next_step_id) edges.push({ source: step.id, target: step.next_step_id, offset: 0 });
  return edges;
}

/**
 * Reorders the ranks of a dagre layout by port, on a copy. A rank is redone when its order by port differs
 * from dagre's, or when a node leading into it was moved: its nodes side by side `gap` apart, in port order,
 * the row centred under the ports that lead into it.
 */
export function orderRanksByPorts(nodes: Record<string, PlacedNode>, edges: PortEdge[], gap: number): Record<string, PlacedNode> {
  const out: Record<string, PlacedNode> = {};
  for (const [id, n] of Object.entries(nodes)) out[id] = { ...n };
  const ranks = new Map<number, string[]>();
  for (const [id, n] of Object.entries(out)) ranks.set(n.y, [...(ranks.get(n.y) ?? []), id]);
  const moved = new Set<string>();
  for (const y of [...ranks.keys()].sort((a, b) => a - b)) {
    const rank = ranks.get(y)!.sort((a, b) => out[a].x - out[b].x);
    const into = (id: string) => edges.filter((e) => e.target === id && out[e.source] && out[e.source].y < y);
    // The mean x of the ports above that lead here; a node nothing above leads to keeps its own x.
    const key = new Map<string, number>();
    for (const id of rank) {
      const ports = into(id).map((e) => out[e.source].x + e.offset);
      key.set(id, ports.length ? ports.reduce((s, x) => s + x, 0) / ports.length : out[id].x);
    }
    const sorted = [...rank].sort((a, b) => key.get(a)! - key.get(b)! || out[a].x - out[b].x);
    const reordered = sorted.some((id, i) => id !== rank[i]);
    if (!reordered && !rank.some((id) => into(id).some((e) => moved.has(e.source)))) continue;
    const lefts: number[] = [];
    let cursor = 0;
    for (const id of sorted) {
      lefts.push(cursor);
      cursor += out[id].width + gap;
    }
    const centres = sorted.map((id, i) => lefts[i] + out[id].width / 2);
    const shift = sorted.reduce((s, id) => s + key.get(id)!, 0) / sorted.length - centres.reduce((s, x) => s + x, 0) / centres.length;
    sorted.forEach((id, i) => {
      const x = Math.round(centres[i] + shift);
      if (x !== out[id].x) moved.add(id);
      out[id].x = x;
    });
  }
  return out;
}
