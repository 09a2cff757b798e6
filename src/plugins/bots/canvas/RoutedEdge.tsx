/**
 * The canvas's edge from an option (or a step's "then") to the step it leads to, routed around the steps in its
 * way (model/edgeRoute.ts, issue #25) instead of React Flow's smoothstep, which runs a long edge, or one back up
 * to a menu, straight across the steps between.
 */
import { memo } from 'react';
import { BaseEdge, useStore, type EdgeProps, type ReactFlowState } from '@xyflow/react';
import { pathOf, routeEdge, type Box } from '../model/edgeRoute';

/** Every node's box on the canvas but the edge's own two ends, in flow coordinates. */
function boxesBut(source: string, target: string) {
  return (state: ReactFlowState): Box[] => {
    const boxes: Box[] = [];
    for (const node of state.nodeLookup.values()) {
      if (node.id === source || node.id === target || node.hidden) continue;
      const width = node.measured?.width ?? node.width ?? 0;
      const height = node.measured?.height ?? node.height ?? 0;
      boxes.push({ x: node.internals.positionAbsolute.x, y: node.internals.positionAbsolute.y, width, height });
    }
    return boxes;
  };
}

/** Re-renders only when a box moved or changed size, not on every change of the store (a pan, a selection). */
function sameBoxes(a: Box[], b: Box[]): boolean {
  return a.length === b.length && a.every((box, i) => box.x === b[i].x && box.y === b[i].y && box.width === b[i].width && box.height === b[i].height);
}

export const RoutedEdge = memo(function RoutedEdge(props: EdgeProps) {
  const { id, source, target, sourceX, sourceY, targetX, targetY, label, labelStyle, labelShowBg, labelBgStyle, labelBgPadding, labelBgBorderRadius, style, markerEnd, markerStart, interactionWidth } = props;
  const boxes = useStore(boxesBut(source, target), sameBoxes);
  const route = routeEdge({ x: sourceX, y: sourceY }, { x: targetX, y: targetY }, boxes);
  return (
    <BaseEdge
      id={id}
      path={pathOf(route.points)}
      labelX={route.label.x}
      labelY={route.label.y}
      label={label}
      labelStyle={labelStyle}
      labelShowBg={labelShowBg}
      labelBgStyle={labelBgStyle}
      labelBgPadding={labelBgPadding}
      labelBgBorderRadius={labelBgBorderRadius}
      style={style}
      markerEnd={markerEnd}
      markerStart={markerStart}
      interactionWidth={interactionWidth}
    />
  );
});

export const edgeTypes = { routed: RoutedEdge };
