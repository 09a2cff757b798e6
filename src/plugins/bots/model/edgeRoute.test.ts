import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CLEARANCE, pathOf, routeEdge, type Box, type Point } from './edgeRoute';

/** True when a segment of the route runs through a box (its clearance included). */
function hits(points: Point[], box: Box): boolean {
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]];
    const inX = (x: number) => x > box.x - CLEARANCE / 2 && x < box.x + box.width + CLEARANCE / 2;
    const inY = (y: number) => y > box.y - CLEARANCE / 2 && y < box.y + box.height + CLEARANCE / 2;
    if (a.x === b.x ? inX(a.x) && Math.max(a.y, b.y) > box.y - CLEARANCE / 2 && Math.min(a.y, b.y) < box.y + box.height + CLEARANCE / 2 : inY(a.y) && Math.max(a.x, b.x) > box.x - CLEARANCE / 2 && Math.min(a.x, b.x) < box.x + box.width + CLEARANCE / 2) return true;
  }
  return false;
}

const orthogonal = (points: Point[]) => points.every((p, i) => i === 0 || p.x === points[i - 1].x || p.y === points[i - 1].y);

describe('routeEdge', () => {
  it('between neighbouring ranks: down, across at half height, down (as smoothstep)', () => {
    const r = routeEdge({ x: 100, y: 0 }, { x: 400, y: 200 }, []);
    expect(r.points).toEqual([{ x: 100, y: 0 }, { x: 100, y: 100 }, { x: 400, y: 100 }, { x: 400, y: 200 }]);
    expect(r).toMatchObject({ clear: true, label: { x: 250, y: 100 } });
  });

  it('an edge that skips a rank crosses below or above the step in its way, not through it', () => {
    const between: Box = { x: 150, y: 150, width: 260, height: 150 };
    const r = routeEdge({ x: 100, y: 0 }, { x: 400, y: 450 }, [between]);
    expect(r.clear).toBe(true);
    expect(hits(r.points, between)).toBe(false);
    expect(orthogonal(r.points)).toBe(true);
  });

  it('a long edge straight down a column of steps takes a lane beside them', () => {
    const column: Box[] = [{ x: 0, y: 100, width: 260, height: 150 }, { x: 0, y: 340, width: 260, height: 150 }];
    const r = routeEdge({ x: 130, y: 60 }, { x: 130, y: 600 }, column);
    expect(r.clear).toBe(true);
    for (const box of column) expect(hits(r.points, box)).toBe(false);
    expect(r.points.some((p) => p.x < 0 || p.x > 260)).toBe(true);
  });

  it('an edge back up (a "main menu" option) goes round the steps between instead of over them', () => {
    // The menu (the target) and its option row; the step below it and that step's "Main menu" option (the source).
    const menuOption: Box = { x: 70, y: 198, width: 120, height: 40 };
    const step: Box = { x: 0, y: 330, width: 260, height: 150 };
    const r = routeEdge({ x: 130, y: 568 }, { x: 130, y: 0 }, [menuOption, step]);
    expect(r.clear).toBe(true);
    expect(hits(r.points, step)).toBe(false);
    expect(hits(r.points, menuOption)).toBe(false);
    expect(r.points[r.points.length - 1]).toEqual({ x: 130, y: 0 });
    expect(r.points[r.points.length - 2].y).toBeLessThan(0);
    expect(orthogonal(r.points)).toBe(true);
  });

  it('keeps the plain route when nothing is free', () => {
    // A band across the whole canvas right above the target: no way into it from above.
    const wall: Box = { x: -5000, y: 150, width: 10_000, height: 40 };
    expect(routeEdge({ x: 0, y: 0 }, { x: 0, y: 200 }, [wall]).clear).toBe(false);
  });

  it('any canvas of separate steps: a route it calls clear crosses none of them, starts at the source and ends at the target', () => {
    const box = fc.record({ col: fc.integer({ min: 0, max: 5 }), row: fc.integer({ min: 0, max: 5 }) });
    fc.assert(
      fc.property(fc.uniqueArray(box, { minLength: 0, maxLength: 14, selector: (b) => `${b.col}:${b.row}` }), fc.nat(5), fc.nat(5), fc.nat(5), fc.nat(5), (cells, sc, sr, tc, tr) => {
        // A grid of 320 × 260 cells, a step (260 × 150) in some: the layout's ranks and gaps.
        const at = (col: number, row: number): Box => ({ x: col * 320, y: row * 260, width: 260, height: 150 });
        const boxes = cells.filter((c) => !(c.col === sc && c.row === sr) && !(c.col === tc && c.row === tr)).map((c) => at(c.col, c.row));
        const source = { x: sc * 320 + 130, y: sr * 260 + 150 };
        const target = { x: tc * 320 + 130, y: tr * 260 };
        const r = routeEdge(source, target, boxes);
        expect(r.points[0]).toEqual(source);
        expect(r.points[r.points.length - 1]).toEqual(target);
        expect(orthogonal(r.points)).toBe(true);
        // The grid always leaves lanes between the columns and rows: every edge finds a clear route.
        expect(r.clear).toBe(true);
        for (const b of boxes) expect(hits(r.points, b)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

describe('pathOf', () => {
  it('rounds the corners, less on a short run', () => {
    expect(pathOf([{ x: 0, y: 0 }, { x: 0, y: 100 }, { x: 100, y: 100 }])).toBe('M 0 0 L 0 92 Q 0 100 8 100 L 100 100');
    expect(pathOf([{ x: 0, y: 0 }, { x: 0, y: 6 }, { x: 100, y: 6 }])).toBe('M 0 0 L 0 3 Q 0 6 3 6 L 100 6');
  });
});
