import { Suspense, useState, type ReactNode } from 'react';

/**
 * Renders a lazily loaded dialog from the first time it opens on (then keeps it mounted, so it
 * closes with its transition): its chunk is fetched on that first opening, not with the inbox.
 */
export function WhenOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened ? <Suspense fallback={null}>{children}</Suspense> : null;
}
