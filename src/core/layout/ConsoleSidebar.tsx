import type { ReactNode } from 'react';
import { Box, Drawer, useMediaQuery, useTheme, type Theme } from '@mui/material';
import { useSidebarState } from 'react-admin';
import { useHiddenOnScroll } from './HideOnScroll';

/** The side menu's width open and folded: the theme's `sidebar` (react-admin's themes say 240 and 50). */
function sidebarWidths(theme: Theme): { open: number; folded: number } {
  const sidebar = (theme as Theme & { sidebar?: { width?: number; closedWidth?: number } }).sidebar;
  return { open: sidebar?.width ?? 240, folded: sidebar?.closedWidth ?? 50 };
}

/**
 * The side menu's drawer (react-admin's `Layout` `sidebar`): a drawer over the page on a phone, a column beside it
 * from 600 px, open or folded to its icons (react-admin's sidebar state).
 *
 * Why not react-admin's `Sidebar`: it calls MUI's `useScrollTrigger` to follow the app bar as it hides, and that
 * hook reads the scroll position when it mounts, forcing the browser to lay out the whole console inside the
 * load's longest task (24 ms of a /chats load at 4× CPU, bench/bundle README). This one follows the app bar with
 * useHiddenOnScroll, which reads the position in scroll events only.
 */
export function ConsoleSidebar({ children, appBarAlwaysOn = false }: { children?: ReactNode; appBarAlwaysOn?: boolean }) {
  const isXSmall = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [open, setOpen] = useSidebarState();
  const appBarHidden = useHiddenOnScroll() && !appBarAlwaysOn;
  const widths = sidebarWidths(useTheme());

  if (isXSmall) {
    return (
      <Drawer
        variant="temporary"
        open={open}
        onClose={() => setOpen(false)}
        slotProps={{ paper: { sx: { width: widths.open, bgcolor: 'background.default' } } }}
      >
        {children}
      </Drawer>
    );
  }
  return (
    <Drawer
      variant="permanent"
      open={open}
      sx={(theme) => ({
        height: 'calc(100vh - 3em)',
        // The app bar (6 spacing units high) slides away: the menu follows it up.
        marginTop: appBarHidden ? theme.spacing(-6) : 0,
        transition: theme.transitions.create('margin', {
          easing: appBarHidden ? theme.transitions.easing.sharp : theme.transitions.easing.easeOut,
          duration: appBarHidden ? theme.transitions.duration.leavingScreen : theme.transitions.duration.enteringScreen,
        }),
        '& .MuiDrawer-paper': {
          position: 'relative',
          width: open ? widths.open : widths.folded,
          transition: theme.transitions.create('width', { easing: theme.transitions.easing.sharp, duration: theme.transitions.duration.leavingScreen }),
          backgroundColor: 'transparent',
          border: 'none',
          zIndex: 'inherit',
        },
      })}
    >
      {/* Fixed, so the menu stays in view while the page scrolls; its own scrollbar hidden. */}
      <Box
        sx={{
          position: 'fixed',
          height: 'calc(100vh - 3em)',
          overflowX: 'hidden',
          scrollbarWidth: 'none',
          '&::-webkit-scrollbar': { display: 'none' },
        }}
      >
        {children}
      </Box>
    </Drawer>
  );
}
