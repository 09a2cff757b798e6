import { useCallback, useRef, useState, type RefCallback } from 'react';
import { flushSync } from 'react-dom';

/**
 * Whether an element is narrower than `width` px, followed as it resizes (a ResizeObserver on the element the
 * returned ref is given to). For a layout that depends on the space a component gets, not on the window's: the
 * room header at 1440 px shares the window with the menu, the room list and the contact panel. Without a
 * ResizeObserver (a test DOM) the element counts as wide.
 *
 * The browser reports an observed element's size after its layout and before it paints, so the first report renders
 * the right form (`flushSync`) before the first paint: the wide form is never shown for a frame, under a pointer or a
 * test about to click it. The element used to be measured in the ref callback too, which forced the page's layout
 * inside React's commit and set state there: on a phone opening a room, a 40-ms layout and a synchronous re-render
 * in the same task as the commit's effects (bench/bundle, issue #26).
 *
 * An element is never wider than the window: in a window narrower than `width` it starts narrow (reading the
 * window's width lays nothing out). On a phone the first report then changes nothing, where it used to render the
 * header again, in its compact form, between the room's first commit and its first paint (160 ms at 4× CPU).
 */
export function useNarrowerThan<T extends HTMLElement>(width: number): [RefCallback<T>, boolean] {
  const [narrow, setNarrow] = useState(() => typeof window !== 'undefined' && window.innerWidth < width);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback(
    (node: T | null) => {
      observer.current?.disconnect();
      observer.current = null;
      if (!node || typeof ResizeObserver === 'undefined') return;
      observer.current = new ResizeObserver(([entry]) => {
        const next = entry.contentRect.width < width;
        flushSync(() => setNarrow(next));
      });
      observer.current.observe(node);
    },
    [width],
  );
  return [ref, narrow];
}
