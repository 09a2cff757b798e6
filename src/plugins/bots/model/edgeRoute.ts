/**
 * The path of an edge on the bot canvas, around the steps in its way (issue #25: "auto-layout does not weigh
 * long edges"). React Flow's smoothstep edge goes down from the source, across at half height, down into the
 * target: fine between neighbouring ranks, but an edge that skips a rank (an option leading two levels down)
 * runs its middle across the steps between, and an edge back up (a "Main menu" option) loops over them.
 *
 * This is worked out at render time from where the steps are now, so it holds after the builder drags a step
 * as well as after auto-layout (the contract keeps a position per step, no bend points). Orthogonal routes only,
 * as the smoothstep edges beside them, tried simplest first:
 *  1. down, across, down, at the half height or another height that crosses no step;
 *  2. down a little, across to a free lane, along the lane (down, or up for an edge back), across above the
 *     target, down into it; the lane nearest the straight line wins;
 *  3. nothing free (a crowded canvas): the half-height route, as before.
 * A graph rarely has more than a few dozen steps; an edge checks at most 40 lanes × 16 turns against them
 * (on a drag, every frame), and most take the first route tried.
 */

export interface Point {
  x: number;
  y: number;
}

/** A step or option box on the canvas, in flow coordinates. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Route {
  points: Point[];
  /** Where the edge's label sits: the middle of its longest horizontal run, else of its path. */
  label: Point;
  /** False when every route crossed a step and the plain one was kept. */
  clear: boolean;
}

/** Space kept between an edge and a box it goes around. */
export const CLEARANCE = 14;
/** Length of the straight bit out of the source and into the target. */
export const STUB = 22;

function crosses(a: Point, b: Point, box: Box): boolean {
  const x1 = box.x - CLEARANCE / 2;
  const x2 = box.x + box.width + CLEARANCE / 2;
  const y1 = box.y - CLEARANCE / 2;
  const y2 = box.y + box.height + CLEARANCE / 2;
  if (a.x === b.x) {
    const [lo, hi] = a.y < b.y ? [a.y, b.y] : [b.y, a.y];
    return a.x > x1 && a.x < x2 && hi > y1 && lo < y2;
  }
  const [lo, hi] = a.x < b.x ? [a.x, b.x] : [b.x, a.x];
  return a.y > y1 && a.y < y2 && hi > x1 && lo < x2;
}

function isClear(points: Point[], boxes: readonly Box[]): boolean {
  for (let i = 1; i < points.length; i++) {
    for (const box of boxes) if (crosses(points[i - 1], points[i], box)) return false;
  }
  return true;
}

/** Drops points that do not bend the path (repeated, or in line with both neighbours). */
function simplify(points: Point[]): Point[] {
  const out: Point[] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (last && last.x === p.x && last.y === p.y) continue;
    const before = out[out.length - 2];
    if (before && last && ((before.x === last.x && last.x === p.x) || (before.y === last.y && last.y === p.y))) out[out.length - 1] = p;
    else out.push(p);
  }
  return out;
}

function labelOf(points: Point[]): Point {
  let best: { length: number; at: Point } | null = null;
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]];
    if (a.y !== b.y) continue;
    const length = Math.abs(b.x - a.x);
    if (!best || length > best.length) best = { length, at: { x: (a.x + b.x) / 2, y: a.y } };
  }
  if (best && best.length >= 40) return best.at;
  // No real horizontal run: the middle of the path by length.
  const lengths = points.slice(1).map((p, i) => Math.abs(p.x - points[i].x) + Math.abs(p.y - points[i].y));
  let half = lengths.reduce((s, l) => s + l, 0) / 2;
  for (let i = 0; i < lengths.length; i++) {
    if (half <= lengths[i]) {
      const [a, b] = [points[i], points[i + 1]];
      const f = lengths[i] === 0 ? 0 : half / lengths[i];
      return { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f };
    }
    half -= lengths[i];
  }
  return points[0];
}

function route(points: Point[], clear: boolean): Route {
  const simple = simplify(points);
  return { points: simple, label: labelOf(simple), clear };
}

const byCloseness = (values: number[], to: (v: number) => number) => [...new Set(values.map((v) => Math.round(v)))].sort((a, b) => to(a) - to(b));

/** The route from `source` (a bottom handle) to `target` (a top handle) around `boxes` (the source's and target's own boxes left out). */
export function routeEdge(source: Point, target: Point, boxes: readonly Box[]): Route {
  const down = target.y - source.y >= 2 * STUB;
  const middle = (source.y + target.y) / 2;
  const relevant = boxes.filter((b) => b.width > 0 && b.height > 0);

  // 1. One turn: down, across at some height between the two, down.
  if (down) {
    const heights = byCloseness(
      [middle, source.y + STUB, target.y - STUB, ...relevant.flatMap((b) => [b.y - CLEARANCE, b.y + b.height + CLEARANCE])].filter((y) => y >= source.y + STUB && y <= target.y - STUB),
      (y) => Math.abs(y - middle),
    );
    for (const y of heights) {
      const points = [source, { x: source.x, y }, { x: target.x, y }, target];
      if (isClear(points, relevant)) return route(points, true);
    }
  }

  // 2. Along a lane: out of the source, across to the lane, along it, across above the target, into it.
  const lanes = byCloseness(
    [source.x, target.x, (source.x + target.x) / 2, ...relevant.flatMap((b) => [b.x - CLEARANCE, b.x + b.width + CLEARANCE])],
    (x) => Math.abs(x - source.x) + Math.abs(x - target.x),
  ).slice(0, 40);
  const outs = byCloseness([source.y + STUB, ...relevant.map((b) => b.y + b.height + CLEARANCE).filter((y) => y > source.y + STUB)], (y) => y - source.y).slice(0, 4);
  const ins = byCloseness([target.y - STUB, ...relevant.map((b) => b.y - CLEARANCE).filter((y) => y < target.y - STUB)], (y) => target.y - y).slice(0, 4);
  for (const lane of lanes) {
    for (const out of outs) {
      for (const into of ins) {
        if (down && into < out) continue;
        const points = [source, { x: source.x, y: out }, { x: lane, y: out }, { x: lane, y: into }, { x: target.x, y: into }, target];
        if (isClear(points, relevant)) return route(points, true);
      }
    }
  }

  // 3. Nothing free: the plain route.
  const y = down ? middle : source.y + STUB;
  return route(down ? [source, { x: source.x, y }, { x: target.x, y }, target] : [source, { x: source.x, y }, { x: target.x, y: target.y - STUB }, target], false);
}

/** An SVG path through the points, its corners rounded (at most `radius`, less on a short run). */
export function pathOf(points: readonly Point[], radius = 8): string {
  if (points.length === 0) return '';
  let d = `M ${points[0].x} ${points[0].y}`;
  for (let i = 1; i < points.length - 1; i++) {
    const [a, b, c] = [points[i - 1], points[i], points[i + 1]];
    const r = Math.min(radius, Math.abs(b.x - a.x + b.y - a.y) / 2, Math.abs(c.x - b.x + c.y - b.y) / 2);
    const before = { x: b.x - Math.sign(b.x - a.x) * r, y: b.y - Math.sign(b.y - a.y) * r };
    const after = { x: b.x + Math.sign(c.x - b.x) * r, y: b.y + Math.sign(c.y - b.y) * r };
    d += ` L ${before.x} ${before.y} Q ${b.x} ${b.y} ${after.x} ${after.y}`;
  }
  const last = points[points.length - 1];
  return `${d} L ${last.x} ${last.y}`;
}
