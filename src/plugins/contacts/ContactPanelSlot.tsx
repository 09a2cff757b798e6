import { lazy, Suspense } from 'react';
import { PluginStrings, useFeature } from '../../core';
import { PanelSpace } from './panel/placement';

const RoomContactPanel = lazy(() => import('./panel/RoomContactPanel').then((m) => ({ default: m.RoomContactPanel })));

/**
 * What the inbox places beside a room's thread: the room's contact panel (its code loaded when first
 * shown), nothing while the `contacts` feature is off. The inbox's route loads this plugin's strings with
 * its page (translationsOf), so PluginStrings here finds them ready; it only waits where a page did not.
 */
export function ContactPanelSlot({ roomId, onOpenRoom }: { roomId: number; onOpenRoom: (roomId: number) => void }) {
  const enabled = useFeature('contacts');
  if (!enabled) return null;
  return (
    // While the panel's code loads, its space is kept: the thread and its header do not move when it arrives.
    <Suspense fallback={<PanelSpace />}>
      <PluginStrings plugins={['contacts']}>
        <RoomContactPanel roomId={roomId} onOpenRoom={onOpenRoom} />
      </PluginStrings>
    </Suspense>
  );
}
