import { useEffect, useState, type ReactElement } from 'react';
import Slide from '@mui/material/Slide';

/** Past this many pixels from the top, scrolling down hides the app bar (MUI's useScrollTrigger's default). */
const THRESHOLD_PX = 100;

/** Whether the bar hides at `current` after `previous`: scrolled past the threshold, and not going up (as MUI's trigger). */
export function hiddenAfterScroll(previous: number, current: number): boolean {
  return current >= previous && current > THRESHOLD_PX;
}

/**
 * Whether the app bar is hidden by scrolling: MUI's `useScrollTrigger` less one thing. That hook reads the scroll
 * position when it mounts, which forces the browser to lay out the whole console in the middle of its first render
 * (25–30 ms of the load's longest task at 4× CPU, bench/bundle README; react-admin's app bar and side menu each
 * called it). A page opens at its top, so this one starts shown and reads the position only in scroll events,
 * when the layout is already done.
 */
export function useHiddenOnScroll(): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    let previous = 0;
    const onScroll = () => {
      const current = window.scrollY;
      setHidden(hiddenAfterScroll(previous, current));
      previous = current;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return hidden;
}

/** The app bar's hide-on-scroll (react-admin's `AppBar` container), as react-admin's own, with useHiddenOnScroll. */
export function HideOnScroll({ children, className }: { children: ReactElement; className?: string }) {
  const hidden = useHiddenOnScroll();
  return (
    <Slide appear={false} direction="down" in={!hidden} className={className}>
      {children}
    </Slide>
  );
}
