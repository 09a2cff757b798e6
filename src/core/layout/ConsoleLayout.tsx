import { memo, type ReactNode } from 'react';
import { Layout } from 'react-admin';
import { AccessGuard, RequireSession } from '../routing/guards';
import { ConsoleAppBar } from './ConsoleAppBar';
import { ConsoleMenu } from './ConsoleMenu';
import { ConsoleSidebar } from './ConsoleSidebar';
import { PendingInvitationsNotice } from './PendingInvitationsNotice';

/**
 * The page keeps the screen's width, whatever it holds: react-admin's layout is at least as wide as its content
 * (`min-width: fit-content` on its root, and the content column a flex item that grows to its widest child), so
 * one wide table made every part of the page, its title and forms included, scroll sideways on a phone
 * (/broadcast was 975 px wide at 390, /stats 1054, /templates 920, /contacts 776). A wide table now scrolls inside
 * its own box (react-admin's DataTable wrapper, MUI's TableContainer).
 */
const PAGE_FITS_THE_SCREEN = {
  minWidth: 0,
  '& .RaLayout-content': { minWidth: 0 },
  // A list's column likewise (a flex item of the list's row), and its table scrolls in its own wrapper.
  '& .RaList-main': { minWidth: 0 },
  // Positioned, so that what a cell places absolutely (text for screen readers only) is clipped with the table
  // instead of widening the page (/flows was 545 px wide at 390 for a 1-px hidden label).
  '& .RaDataTable-tableWrapper': { overflowX: 'auto', position: 'relative' },
  '& .MuiTableContainer-root': { position: 'relative' },
} as const;

/**
 * The app bar and the menu re-render only for their own state, not each time react-admin re-renders the layout:
 * while the console mounts, react-admin registers its resources from effects (registered, unregistered and
 * registered again), and each pass re-rendered both (about 25 ms each at 4× CPU, bench/bundle README).
 */
const MemoAppBar = memo(ConsoleAppBar);
const MemoMenu = memo(ConsoleMenu);

/**
 * The dashboard shell. Everything inside needs login and a selected company, and the global
 * access guard decides before any page content renders.
 */
export function ConsoleLayout({ children }: { children?: ReactNode }) {
  return (
    <RequireSession>
      <Layout appBar={MemoAppBar} menu={MemoMenu} sidebar={ConsoleSidebar} sx={PAGE_FITS_THE_SCREEN}>
        <PendingInvitationsNotice />
        <AccessGuard>{children}</AccessGuard>
      </Layout>
    </RequireSession>
  );
}
