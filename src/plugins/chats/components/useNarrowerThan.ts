import { useCallback, useRef, useState, type RefCallback } from 'react';

/**
 * Whether an element is narrower than `width` px, followed as it resizes (a ResizeObserver on the element the
 * returned ref is given to). For a layout that depends on the space a component gets, not on the window's: the
 * room header at 1440 px shares the window with the menu, the room list and the contact panel. Without a
 * ResizeObserver (a test DOM) the element counts as wide.
 */
export function useNarrowerThan<T extends HTMLElement>(width: number): [RefCallback<T>, boolean] {
  const [narrow, setNarrow] = useState(false);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback(
    (node: T | null) => {
      observer.current?.disconnect();
      observer.current = null;
      if (!node || typeof ResizeObserver === 'undefined') return;
      // Measured at once too (a ref set during the commit re-renders before the first paint): the layout never shows
      // the wide form for a frame, under a pointer or a test about to click it.
      const now = node.getBoundingClientRect().width;
      if (now > 0) setNarrow(now < width);
      observer.current = new ResizeObserver(([entry]) => setNarrow(entry.contentRect.width < width));
      observer.current.observe(node);
    },
    [width],
  );
  return [ref, narrow];
}
