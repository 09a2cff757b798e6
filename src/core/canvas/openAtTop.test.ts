import { describe, expect, it, vi } from 'vitest';
import type { Node } from '@xyflow/react';
import { CANVAS_OPENING_TOP_MARGIN, openAtTop } from './openAtTop';

/** A canvas whose graph's top is at `graphTop` (flow coordinates) under the viewport `viewport`. */
function canvas(nodes: Node[], graphTop: number, viewport = { x: 40, y: -300, zoom: 0.8 }) {
  return {
    getNodes: () => nodes,
    getViewport: () => viewport,
    getNodesBounds: () => ({ x: 0, y: graphTop, width: 300, height: 2000 }),
    setViewport: vi.fn(() => Promise.resolve(true)),
  };
}

const step: Node = { id: 'a', position: { x: 0, y: 0 }, data: {} };

describe('openAtTop', () => {
  it('moves a graph whose top is above the canvas down to the top margin, keeping the zoom and the x', () => {
    const flow = canvas([step], 0); // its top at 0 × 0.8 − 300 = −300 px
    openAtTop(flow);
    expect(flow.setViewport).toHaveBeenCalledWith({ x: 40, y: -300 + CANVAS_OPENING_TOP_MARGIN + 300, zoom: 0.8 });
  });

  it('leaves a graph that already fits (its top inside the canvas) where the fit put it', () => {
    const flow = canvas([step], 0, { x: 40, y: 120, zoom: 1 });
    openAtTop(flow);
    expect(flow.setViewport).not.toHaveBeenCalled();
  });

  it('does nothing on an empty canvas', () => {
    const flow = canvas([], 0);
    openAtTop(flow);
    expect(flow.setViewport).not.toHaveBeenCalled();
  });
});
