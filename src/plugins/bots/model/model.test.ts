import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { graph, step } from './fixtures';
import { addOption, addStep, connect, INIT_NODE_ID, moveStep, optionNodeId, removeEdge, removeNodes, setFallback, shortId, stepLabel, toFlow } from './graph';
import { autoLayout, computeLayout, OPTION_GAP, OPTION_WIDTH, positionsFor, START_POSITION, STEP_WIDTH, stepBlockHeight, stepBlockWidth } from './layout';
import { orderRanksByPorts, portEdges, type PlacedNode, type PortEdge } from './portOrder';
import { graphWarnings } from './warnings';
import { canRedo, canUndo, createHistory, record, redo, undo } from './history';

describe('graph → nodes and edges', () => {
  const g = graph([step('welcome', { yes: 'order', no: null }), step('order', {}, { next_step_id: 'welcome' })]);

  it('has an init node, a node per step and per option, labelled by the first message', () => {
    const { nodes } = toFlow(g);
    expect(nodes.map((n) => n.id)).toEqual([INIT_NODE_ID, 'welcome', optionNodeId('yes'), optionNodeId('no'), 'order']);
    expect(nodes.find((n) => n.id === 'welcome')?.data.label).toBe('Message of welcome');
    expect(nodes.find((n) => n.id === 'welcome')?.data.isStart).toBe(true);
  });

  it('labels option edges with the option text in upper case, next-step edges with a word, never an id', () => {
    const { edges } = toFlow(g, { nextLabel: 'Ensuite' });
    expect(edges.find((e) => e.id === 'edge:option:yes')).toMatchObject({ source: optionNodeId('yes'), target: 'order', label: 'YES' });
    expect(edges.some((e) => e.id === 'edge:option:no')).toBe(false); // leads nowhere
    expect(edges.find((e) => e.id === 'edge:next:order')).toMatchObject({ source: 'order', target: 'welcome', label: 'ENSUITE' });
    expect(edges.find((e) => e.id === 'edge:init')).toMatchObject({ source: INIT_NODE_ID, target: 'welcome' });
    expect(edges.find((e) => e.id === 'edge:init')?.label).toBeUndefined();
  });

  it('an option without text is labelled by its short id', () => {
    const g2 = graph([{ ...step('a'), options: [{ id: 'abcdef-123', text: ' ', next_step: 'a', step: 'a' }] }]);
    expect(toFlow(g2).edges.find((e) => e.id === 'edge:option:abcdef-123')?.label).toBe('ABCDEF');
  });

  it('places option nodes under their step', () => {
    const g2 = graph([step('a', { o1: null, o2: null }, { layout: { x: 100, y: 100 } })]);
    const { nodes } = toFlow(g2);
    const a = nodes.find((n) => n.id === 'a')!;
    const o1 = nodes.find((n) => n.id === optionNodeId('o1'))!;
    const o2 = nodes.find((n) => n.id === optionNodeId('o2'))!;
    expect(o1.position.y).toBeGreaterThan(a.position.y);
    expect(o2.position.x).toBeGreaterThan(o1.position.x);
  });

  it('step label falls back to the short id without text', () => {
    expect(stepLabel({ ...step('0123456789'), messages: [] })).toBe('012345');
    expect(shortId('ab-cd-ef-gh')).toBe('abcdef');
  });
});

describe('edits', () => {
  const g = graph([step('a', { o: null }), step('b')]);

  it('connects an option, a step and the init node by dragging', () => {
    expect(connect(g, { source: optionNodeId('o'), target: 'b' }).steps[0].options[0].next_step).toBe('b');
    expect(connect(g, { source: 'a', sourceHandle: 'next', target: 'b' }).steps[0].next_step_id).toBe('b');
    expect(connect(g, { source: INIT_NODE_ID, target: 'b' }).step).toBe('b');
    expect(connect(g, { source: 'a', target: 'a' })).toBe(g);
    expect(connect(g, { source: 'a', target: 'missing' })).toBe(g);
  });

  it('removing a step clears every link to it and moves the start', () => {
    const linked = connect(connect(g, { source: optionNodeId('o'), target: 'b' }), { source: 'b', target: 'a' });
    const without = removeNodes(linked, ['a']);
    expect(without.steps.map((s) => s.id)).toEqual(['b']);
    expect(without.steps[0].next_step_id).toBeNull();
    expect(without.step).toBe('b');
    const noOption = removeNodes(linked, [optionNodeId('o')]);
    expect(noOption.steps[0].options).toEqual([]);
  });

  it('removing an edge clears the link', () => {
    const linked = connect(g, { source: optionNodeId('o'), target: 'b' });
    expect(removeEdge(linked, 'edge:option:o').steps[0].options[0].next_step).toBeNull();
  });

  it('adds a step and an option labelled "Button"', () => {
    const { graph: g2, stepId } = addStep(graph([]), 'Hello', undefined, 'first');
    expect(stepId).toBe('first');
    expect(g2.step).toBe('first');
    expect(g2.steps[0].layout).toEqual({ x: 300, y: 300 });
    const g3 = addOption(g2, 'first', undefined, 'opt');
    expect(g3.steps[0].options[0]).toMatchObject({ id: 'opt', text: 'Button', next_step: null, step: 'first' });
  });

  it('moves a step to a rounded position', () => {
    expect(moveStep(g, 'b', { x: 10.6, y: 20.2 }).steps[1].layout).toEqual({ x: 11, y: 20 });
  });
});

describe('layout', () => {
  it('puts the start step at 300,300 when it has no layout', () => {
    const g = graph([step('a', { o: 'b' }), step('b')]);
    const positions = positionsFor(g);
    expect(positions.a).toEqual(START_POSITION);
    expect(positions.b.y).toBeGreaterThan(300);
  });

  it('keeps saved layouts and computes the rest around the start step', () => {
    const g = graph([step('a', { o: 'b' }, { layout: { x: 0, y: 0 } }), step('b', {}, { layout: { x: 900, y: 40 } }), step('c')]);
    const positions = positionsFor(g);
    expect(positions.a).toEqual({ x: 0, y: 0 });
    expect(positions.b).toEqual({ x: 900, y: 40 });
    expect(positions.c).toBeDefined();
  });

  it('computes a layered layout: a target below its source, siblings side by side', () => {
    const g = graph([step('a', { o1: 'b', o2: 'c' }), step('b'), step('c')]);
    const layout = computeLayout(g);
    expect(layout.b.y).toBeGreaterThan(layout.a.y);
    expect(layout.b.y).toBe(layout.c.y);
    expect(layout.b.x).not.toBe(layout.c.x);
  });

  it('auto-layout saves a position for every step with the start at 300,300', () => {
    const g = graph([step('a', { o1: 'b' }, { layout: { x: 5, y: 5 } }), step('b', {}, { layout: { x: 5, y: 5 } })], 'a');
    const laid = autoLayout(g);
    expect(laid.steps[0].layout).toEqual({ x: 300, y: 300 });
    expect(laid.steps[1].layout!.y).toBeGreaterThan(300);
  });
});

describe('warnings', () => {
  it('flags too many buttons, long button text, long body, dead ends and unreachable steps', () => {
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`o${i}`, 'end']));
    const g = graph([
      step('start', many),
      step('end', {}, { messages: [{ text: 'x'.repeat(1025), media_url: null, type: 'text' }] }),
      step('orphan', { 'a button text that is far too long': 'end' }),
    ]);
    const w = graphWarnings(g);
    expect(w.start.map((x) => x.code)).toContain('tooManyButtons');
    expect(w.end.map((x) => x.code)).toEqual(expect.arrayContaining(['bodyTooLong', 'deadEnd']));
    expect(w.orphan.map((x) => x.code)).toEqual(expect.arrayContaining(['buttonTooLong', 'unreachable']));
    expect(w.start.map((x) => x.code)).not.toContain('unreachable');
  });

  it('four to ten buttons become a WhatsApp list; a hand-over is not a dead end', () => {
    const g = graph([step('s', { a: 'h', b: 'h', c: 'h', d: 'h' }), step('h', {}, { actions: [{ type: 'hand_over' }] })]);
    const w = graphWarnings(g);
    expect(w.s.map((x) => x.code)).toEqual(['shownAsList']);
    expect(w.h).toEqual([]);
    expect(graphWarnings(g, ['messenger']).s).toEqual([]);
  });
});

describe('undo and redo', () => {
  it('goes back and forth, coalescing changes with one key', () => {
    let h = createHistory(1);
    h = record(h, 2);
    h = record(h, 3, 'drag');
    h = record(h, 4, 'drag');
    expect(h.past).toEqual([1, 2]);
    h = undo(h);
    expect(h.present).toBe(2);
    expect(canRedo(h)).toBe(true);
    h = redo(h);
    expect(h.present).toBe(4);
    h = undo(undo(h));
    expect(h.present).toBe(1);
    expect(canUndo(h)).toBe(false);
    h = record(h, 5);
    expect(h.future).toEqual([]);
  });
});

describe('the fallback step', () => {
  const g = graph([step('a'), step('b')]);

  it('marks the fallback step node, only it', () => {
    const { nodes } = toFlow(setFallback(g, 'b'));
    expect(nodes.filter((n) => n.type === 'step' && n.data.isFallback).map((n) => n.id)).toEqual(['b']);
    expect(toFlow(g).nodes.some((n) => n.type === 'step' && n.data.isFallback)).toBe(false);
  });

  it('chooses a step or a person (null); an unknown step is a person; deleting the fallback step clears it', () => {
    expect(setFallback(g, 'b').fallback_step_id).toBe('b');
    expect(setFallback(setFallback(g, 'b'), null).fallback_step_id).toBeNull();
    expect(setFallback(g, 'nope').fallback_step_id ?? null).toBeNull();
    expect(setFallback(g, null)).toBe(g);
    expect(removeNodes(setFallback(g, 'b'), ['b']).fallback_step_id).toBeNull();
    expect(removeNodes(setFallback(g, 'b'), ['a']).fallback_step_id).toBe('b');
  });
});

/** Edges that cross between the same two ranks: their ports' order against their targets'. */
function crossings(nodes: Record<string, PlacedNode>, edges: PortEdge[]): number {
  const segments = edges
    .filter((e) => nodes[e.source] && nodes[e.target] && nodes[e.source].y < nodes[e.target].y)
    .map((e) => ({ from: nodes[e.source].x + e.offset, to: nodes[e.target].x, rank: nodes[e.source].y, targetRank: nodes[e.target].y }));
  let count = 0;
  for (let i = 0; i < segments.length; i++) {
    for (let j = i + 1; j < segments.length; j++) {
      const a = segments[i];
      const b = segments[j];
      if (a.rank !== b.rank || a.targetRank !== b.targetRank) continue;
      if ((a.from - b.from) * (a.to - b.to) < 0) count += 1;
    }
  }
  return count;
}

describe('auto-layout follows the option buttons (issue #25)', () => {
  // Each case is one dagre ordered against the buttons: option 1 led to the rightmost step.
  const cases = {
    'a menu whose options lead right to left': graph([step('a', { o1: 'd', o2: 'c', o3: 'b' }), step('b'), step('c'), step('d')]),
    'a menu in mixed order': graph([step('a', { o1: 'c', o2: 'b', o3: 'd' }), step('b'), step('c'), step('d')]),
    'two levels of menus sharing a step': graph([step('a', { o1: 'b', o2: 'c' }), step('b', { p1: 'e', p2: 'd' }), step('c', { q1: 'd', q2: 'f' }), step('d'), step('e'), step('f')]),
    'options and a next step': graph([step('a', { o1: 'c', o2: 'b' }, { next_step_id: 'd' }), step('b'), step('c'), step('d')]),
  };
  for (const [name, g] of Object.entries(cases)) {
    it(`no edge crosses another: ${name}`, () => {
      const layout = computeLayout(g);
      const nodes = Object.fromEntries(g.steps.map((s) => [s.id, { x: layout[s.id].x + STEP_WIDTH / 2, y: layout[s.id].y + stepBlockHeight(s) / 2, width: stepBlockWidth(s) }]));
      const edges = g.steps.flatMap((s) => portEdges(s, OPTION_WIDTH, OPTION_GAP));
      expect(crossings(nodes, edges)).toBe(0);
      // and no two steps of a rank overlap
      const byRank = new Map<number, typeof g.steps>();
      for (const s of g.steps) byRank.set(nodes[s.id].y, [...(byRank.get(nodes[s.id].y) ?? []), s]);
      for (const rank of byRank.values()) {
        const spans = rank.map((s) => [nodes[s.id].x - nodes[s.id].width / 2, nodes[s.id].x + nodes[s.id].width / 2]).sort((p, q) => p[0] - q[0]);
        for (let i = 1; i < spans.length; i++) expect(spans[i][0]).toBeGreaterThanOrEqual(spans[i - 1][1]);
      }
    });
  }

  it('keeps dagre’s layout where it already follows the buttons', () => {
    const g = graph([step('a', { o1: 'b', o2: 'c' }), step('b', {}, { next_step_id: 'c' }), step('c')]);
    const nodes = (layout: Record<string, { x: number; y: number }>) => Object.fromEntries(g.steps.map((s) => [s.id, { x: layout[s.id].x + STEP_WIDTH / 2, y: layout[s.id].y, width: stepBlockWidth(s) }]));
    const layout = computeLayout(g);
    expect(orderRanksByPorts(nodes(layout), g.steps.flatMap((s) => portEdges(s, OPTION_WIDTH, OPTION_GAP)), 60)).toEqual(nodes(layout));
  });
});

describe('auto-layout of any menu tree', () => {
  it('crosses no edges: every step of a tree of menus (up to 25 steps, up to four buttons each) sits in its button’s order', () => {
    // A tree: each button leads to a step of its own, so a layout without crossings always exists.
    const tree = fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(tree, (fanOuts) => {
        const steps = [step('s0')];
        let next = 1;
        for (let i = 0; i < steps.length && i < fanOuts.length; i++) {
          const options: Record<string, string> = {};
          for (let k = 0; k < fanOuts[i] && next < 25; k++) options[`${steps[i].id}o${k}`] = `s${next++}`;
          steps[i] = step(steps[i].id, options);
          for (const target of Object.values(options)) steps.push(step(target));
        }
        const g = graph(steps);
        const layout = computeLayout(g);
        const nodes = Object.fromEntries(g.steps.map((s) => [s.id, { x: layout[s.id].x + STEP_WIDTH / 2, y: layout[s.id].y + stepBlockHeight(s) / 2, width: stepBlockWidth(s) }]));
        return crossings(nodes, g.steps.flatMap((s) => portEdges(s, OPTION_WIDTH, OPTION_GAP))) === 0;
      }),
      { numRuns: 60 },
    );
  });
});
