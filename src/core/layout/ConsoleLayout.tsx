import { memo, Suspense, type ReactNode } from 'react';
import { styled } from '@mui/material/styles';
import { Button } from '@mui/material';
import { Loading, useTranslate } from 'react-admin';
import { AccessGuard, RequireSession } from '../routing/guards';
import { ConsoleAppBar } from './ConsoleAppBar';
import { ConsoleMenu } from './ConsoleMenu';
import { ConsoleSidebar } from './ConsoleSidebar';
import { ErrorPageBoundary } from './ErrorPageBoundary';
import { PendingInvitationsNotice } from './PendingInvitationsNotice';

/**
 * The app bar and the menu re-render only for their own state, not each time react-admin re-renders the layout:
 * while the console mounts, react-admin registers its resources from effects (registered, unregistered and
 * registered again), and each pass re-rendered both (about 25 ms each at 4× CPU, bench/bundle README).
 */
const MemoAppBar = memo(ConsoleAppBar);
const MemoMenu = memo(ConsoleMenu);

/** react-admin's class names, kept so that its components' styles and our tests find the same parts. */
export const ConsoleLayoutClasses = {
  appFrame: 'RaLayout-appFrame',
  contentWithSidebar: 'RaLayout-contentWithSidebar',
  content: 'RaLayout-content',
} as const;

/**
 * react-admin's layout frame, with one difference: the page keeps the screen's width whatever it holds. react-admin's
 * root is at least as wide as its content (`min-width: fit-content`, and the content column a flex item that grows
 * to its widest child), so one wide table made every part of the page, its title and forms included, scroll
 * sideways on a phone (/broadcast was 975 px wide at 390, /stats 1054, /templates 920, /contacts 776). A wide table
 * scrolls inside its own box instead (react-admin's DataTable wrapper, MUI's TableContainer).
 */
const Frame = styled('div', { name: 'RaLayout', overridesResolver: (_props, styles) => styles.root })(({ theme }) => ({
  display: 'flex',
  flexDirection: 'column',
  zIndex: 1,
  minHeight: '100vh',
  backgroundColor: theme.palette.background.default,
  position: 'relative',
  width: '100%',
  minWidth: 0,
  [`& .${ConsoleLayoutClasses.appFrame}`]: {
    display: 'flex',
    flexDirection: 'column',
    flexGrow: 1,
    marginTop: theme.spacing(6),
    [theme.breakpoints.down('sm')]: { marginTop: theme.spacing(7) },
  },
  [`& .${ConsoleLayoutClasses.contentWithSidebar}`]: {
    display: 'flex',
    flexGrow: 1,
    transition: theme.transitions.create('margin', {
      easing: theme.transitions.easing.easeOut,
      duration: theme.transitions.duration.enteringScreen,
    }),
  },
  [`& .${ConsoleLayoutClasses.content}`]: {
    backgroundColor: theme.palette.background.default,
    zIndex: 2,
    display: 'flex',
    flexDirection: 'column',
    flexGrow: 1,
    flexBasis: 0,
    minWidth: 0,
    padding: 0,
    paddingRight: theme.spacing(1),
    paddingLeft: theme.spacing(1),
  },
  // A list's column likewise (a flex item of the list's row), and its table scrolls in its own wrapper.
  '& .RaList-main': { minWidth: 0 },
  // Positioned, so that what a cell places absolutely (text for screen readers only) is clipped with the table
  // instead of widening the page (/flows was 545 px wide at 390 for a 1-px hidden label).
  '& .RaDataTable-tableWrapper': { overflowX: 'auto', position: 'relative' },
  '& .MuiTableContainer-root': { position: 'relative' },
}));

/** Off the screen until focused (react-admin's skip link's look). */
const SkipLink = styled(Button)(({ theme }) => ({
  position: 'fixed',
  padding: theme.spacing(1),
  left: theme.spacing(2),
  top: theme.spacing(-10),
  zIndex: 5000,
  transition: theme.transitions.create(['top', 'opacity'], {
    easing: theme.transitions.easing.easeIn,
    duration: theme.transitions.duration.leavingScreen,
  }),
  '&:focus': {
    top: theme.spacing(2),
    transition: theme.transitions.create(['top', 'opacity'], {
      easing: theme.transitions.easing.easeOut,
      duration: theme.transitions.duration.enteringScreen,
    }),
  },
}));

/**
 * The keyboard's first stop: moves the focus to the page. react-admin's `SkipNavigationButton` is its `Button`, which
 * on a phone is an icon button inside a tooltip, and a tooltip re-renders itself right after it mounts (MUI keeps its
 * child's node in state): a synchronous render inside the load's longest task, for a link a phone never shows.
 */
function SkipToContent() {
  const translate = useTranslate();
  const skip = () => {
    const main = document.getElementById('main-content');
    if (!main) return;
    main.setAttribute('tabIndex', '-1');
    main.focus();
    main.blur(); // the next Tab starts from the page, without a focus ring on the whole of it
    main.removeAttribute('tabIndex');
  };
  return (
    <SkipLink className="skip-nav-button" variant="contained" onClick={skip}>
      {translate('ra.navigation.skip_nav')}
    </SkipLink>
  );
}

/**
 * The dashboard shell: react-admin's `Layout` (skip link, app bar, side menu, the page inside an error boundary and a
 * suspense boundary), written here because react-admin's always renders its preferences `Inspector`, which reads
 * `document.body.clientWidth` on every render and so forces the browser to lay out the whole console inside the
 * load's longest task (62 ms of a /dashboard load at 4× CPU, bench/bundle README). The console has no preferences
 * editor, so nothing is lost. Everything inside needs login and a selected company, and the global access guard
 * decides before any page content renders.
 */
export function ConsoleLayout({ children }: { children?: ReactNode }) {
  return (
    <RequireSession>
      <Frame className="layout">
        <SkipToContent />
        <div className={ConsoleLayoutClasses.appFrame}>
          <MemoAppBar />
          <main className={ConsoleLayoutClasses.contentWithSidebar}>
            <ConsoleSidebar>
              <MemoMenu />
            </ConsoleSidebar>
            <div id="main-content" className={ConsoleLayoutClasses.content}>
              <ErrorPageBoundary>
                <Suspense fallback={<Loading />}>
                  <PendingInvitationsNotice />
                  <AccessGuard>{children}</AccessGuard>
                </Suspense>
              </ErrorPageBoundary>
            </div>
          </main>
        </div>
      </Frame>
    </RequireSession>
  );
}
