import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { PluginStrings, useFeature, whenIdle } from '../../core';
import { ContactSheetButton, PanelSpace, usePanelPlacement } from './panel/placement';

const loadPanel = () => import('./panel/RoomContactPanel').then((m) => ({ default: m.RoomContactPanel }));

/** On a phone, the panel's code is fetched this long after the room opened (when the page is idle), not with it. */
const PHONE_PREFETCH_DELAY_MS = 5000;

/**
 * What the inbox places beside a room's thread: the room's contact panel (its code loaded when first
 * shown), nothing while the `contacts` feature is off. The inbox's route loads this plugin's strings with
 * its page (translationsOf), so PluginStrings here finds them ready; it only waits where a page did not.
 *
 * A panel whose code cannot be fetched (the server or the network gone while it loads) is left out, and fetched
 * again when another room opens: it used to take the whole inbox down to the error page (an end-to-end run that
 * stopped the server just as a room opened). `React.lazy` keeps a failed import, so each attempt is a lazy of its own.
 * (Not a module-level `lazyPage`, retried by the boundary's reset as the inbox's room pane is: the console's unit tests
 * share modules from file to file, and a panel loaded by one file's test would be loaded already in the next.)
 */
export function ContactPanelSlot({ roomId, onOpenRoom }: { roomId: number; onOpenRoom: (roomId: number) => void }) {
  const enabled = useFeature('contacts');
  const [attempt, setAttempt] = useState(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new lazy per attempt is the point
  const RoomContactPanel = useMemo(() => lazy(loadPanel), [attempt]);
  const phone = usePanelPlacement() === 'sheet';
  // A phone shows only the sheet's button until it is pressed: the panel's code is not fetched beside the room's
  // first render (7 files, 40 KB on a phone's network, bench/bundle README), but when the page is idle, later.
  const [sheetAsked, setSheetAsked] = useState(false);
  useEffect(() => {
    if (!enabled || !phone) return;
    let cancelIdle = () => {};
    const timer = setTimeout(() => (cancelIdle = whenIdle(() => void loadPanel().catch(() => undefined))), PHONE_PREFETCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      cancelIdle();
    };
  }, [enabled, phone]);
  if (!enabled) return null;
  if (phone && !sheetAsked) {
    return (
      <PluginStrings plugins={['contacts']}>
        <ContactSheetButton onClick={() => setSheetAsked(true)} />
      </PluginStrings>
    );
  }
  return (
    <ErrorBoundary
      fallback={null}
      resetKeys={[roomId]}
      onReset={() => {
        setAttempt((n) => n + 1);
        setSheetAsked(false); // the next room shows the phone's button again, not a sheet opening by itself
      }}
    >
      {/* While the panel's code loads, its space is kept: the thread and its header do not move when it arrives. */}
      <Suspense fallback={phone ? <ContactSheetButton busy /> : <PanelSpace />}>
        <PluginStrings plugins={['contacts']}>
          <RoomContactPanel roomId={roomId} onOpenRoom={onOpenRoom} sheetOpen={phone && sheetAsked} />
        </PluginStrings>
      </Suspense>
    </ErrorBoundary>
  );
}
