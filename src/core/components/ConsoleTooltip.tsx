import { Tooltip, type TooltipProps } from '@mui/material';
import { useForkRef } from '@mui/material/utils';
import { cloneElement, forwardRef, useEffect, useRef, type ReactElement, type Ref } from 'react';

/**
 * MUI's Tooltip, with its child's node handed to it after the commit instead of during it.
 *
 * MUI's Tooltip keeps its child's node in state, set from a ref callback. React runs ref callbacks inside the commit,
 * where a state update is synchronous: each tooltip that mounts re-renders at once, and that synchronous render first
 * runs every passive effect of the commit in the same task (React flushes pending effects before any render). On a
 * phone's first load that made one long task of the layout's commit and all its effects (sockets, requests): 16–41 ms
 * of effects and 14 ms of re-render pulled into the commit's task (bench/bundle, issue #26). Here the child's node
 * reaches the tooltip from a passive effect, at the effects' own priority, and the commit's effects run in a task of
 * their own. Until then the tooltip has no anchor, as MUI's own does before its first hover (it takes the node from
 * the hover's event when it has none).
 *
 * Same props and behaviour as MUI's Tooltip (title, placement, delays, `describeChild`, the child's accessible name);
 * the console uses this one (eslint forbids MUI's elsewhere).
 */
export const ConsoleTooltip = forwardRef<HTMLElement, TooltipProps>(function ConsoleTooltip({ children, ...props }, ref) {
  // The child's own ref and the one given to this tooltip point at the child's node from the commit, as with MUI's.
  const { ref: childRef, ...childProps } = children.props as { ref?: Ref<HTMLElement> };
  const nowRef = useForkRef(childRef, ref);
  return (
    <Tooltip {...props}>
      <LateRef {...childProps} element={children} nowRef={nowRef} />
    </Tooltip>
  );
});

interface LateRefProps {
  /** The tooltip's child, rendered with the props the tooltip gives (the child's own props already among them). */
  element: ReactElement;
  /** Attached in the commit: the child's own ref and the tooltip's forwarded one. */
  nowRef: Ref<HTMLElement> | null;
  /** The tooltip's ref (its `setChildNode`), attached after the commit. */
  ref?: Ref<HTMLElement>;
  [prop: string]: unknown;
}

/**
 * The tooltip's child. The tooltip reads the child's props from this element (they were copied onto it, so the
 * tooltip composes the child's own handlers and class name with its own) and passes its ref here, attached in an
 * effect.
 */
function LateRef({ element, nowRef, ref, ...props }: LateRefProps) {
  const node = useRef<HTMLElement | null>(null);
  const attachNow = useForkRef(nowRef, node);
  // After every commit, cheap: the tooltip's ref follows the child's node if the node or the ref changed.
  const attached = useRef<{ ref: Ref<HTMLElement> | undefined; node: HTMLElement | null; detach: () => void } | null>(null);
  useEffect(() => {
    if (attached.current?.ref === ref && attached.current?.node === node.current) return;
    attached.current?.detach();
    attached.current = { ref, node: node.current, detach: attachRef(ref, node.current) };
  });
  useEffect(
    () => () => {
      attached.current?.detach();
      attached.current = null;
    },
    [],
  );
  return cloneElement(element, { ...props, ref: attachNow } as object);
}

/** Sets a ref to a node and returns how to unset it (a callback ref's own cleanup, as React 19 does, else a reset to null). */
function attachRef<T>(ref: Ref<T> | undefined, value: T | null): () => void {
  if (typeof ref === 'function') {
    const cleanup = ref(value);
    return typeof cleanup === 'function' ? cleanup : () => ref(null);
  }
  if (ref) (ref as { current: T | null }).current = value;
  return () => {
    if (ref) (ref as { current: T | null }).current = null;
  };
}
