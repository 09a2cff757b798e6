/**
 * Where the inbox's contact panel sits, decided the same way by the panel and by the space the slot keeps for it
 * while the panel's code loads (ContactPanelSlot): without that space the thread first took the whole width, then
 * narrowed when the panel arrived, and the room header's buttons moved under the pointer (an end-to-end run
 * clicked "Assign" as it slid 48 px to the left: the press landed on it, the release beside it, no click).
 * Small on purpose: the slot is in the inbox's own chunk, the panel's code is not.
 */
import { Box, CircularProgress, Fab, useMediaQuery, useTheme } from '@mui/material';
import { mdiAccountBoxOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../core';

const OPEN_KEY = 'contacts.panel.open';

/** The narrowest screen (px) on which the panel is a column beside the thread. */
export const COLUMN_MIN_SCREEN = 1360;

/** The column's width: 280 px up to 1536 px, 300 px above (at 1440 px a 300-px column left the thread 524 px). */
export const COLUMN_WIDTH = { xs: 280, xl: 300 } as const;

/** Whether the column is shown (the user's last choice; shown unless hidden). */
export function readPanelOpen(): boolean {
  try {
    return localStorage.getItem(OPEN_KEY) !== 'false';
  } catch {
    return true;
  }
}

export function writePanelOpen(open: boolean): void {
  try {
    localStorage.setItem(OPEN_KEY, String(open));
  } catch {
    // private mode: the choice lasts for this page only
  }
}

/**
 * - `sheet`: a phone; a floating button opens a bottom sheet (nothing beside the thread);
 * - `overlay`: a laptop below COLUMN_MIN_SCREEN; a thin rail whose button opens a drawer over the thread;
 * - `column`: a wide screen; the column beside the thread, or the rail when the user hid it (`open` false).
 */
export type PanelPlacement = 'sheet' | 'overlay' | 'column';

export function usePanelPlacement(): PanelPlacement {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'));
  // The column needs room beside the menu (240 px), the room list (360) and a thread that can show its header
  // with every control (about 535): below 1360 px it opens over the thread instead of squeezing the page sideways.
  const roomForColumn = useMediaQuery(`(min-width:${COLUMN_MIN_SCREEN}px)`);
  if (!wide) return 'sheet';
  return roomForColumn ? 'column' : 'overlay';
}

/** The thin rail's frame (its one button inside). */
export const railSx = { borderLeft: 1, borderColor: 'divider', p: 0.5 } as const;

/** The column's frame. */
export const columnSx = { width: COLUMN_WIDTH, flexShrink: 0, boxSizing: 'border-box', borderLeft: 1, borderColor: 'divider' } as const;

/** The space the panel will take beside the thread, kept empty while its code loads. */
export function PanelSpace() {
  const placement = usePanelPlacement();
  if (placement === 'sheet') return null;
  if (placement === 'column' && readPanelOpen()) return <Box data-testid="contact-panel-space" sx={columnSx} />;
  // The rail: the same frame around a box of an icon button's size (40 px).
  return (
    <Box data-testid="contact-panel-space" sx={railSx}>
      <Box sx={{ width: 40, height: 40 }} />
    </Box>
  );
}

/**
 * The phone's one way to the panel: a floating button over the thread that opens the bottom sheet. Here, not in
 * the panel's code, so that a phone opening a room does not fetch that code (and the phone number library it
 * brings, 26 KB) beside the thread's first render: the slot loads it when the button is pressed (ContactPanelSlot).
 * `busy` while it loads.
 */
export function ContactSheetButton({ onClick, busy = false }: { onClick?: () => void; busy?: boolean }) {
  const { t } = useTranslation();
  const theme = useTheme();
  return (
    <Fab
      size="small"
      color="primary"
      aria-label={t('contacts.panel.show')}
      aria-busy={busy || undefined}
      onClick={busy ? undefined : onClick}
      sx={{ position: 'fixed', right: 12, bottom: 96, zIndex: theme.zIndex.appBar - 1 }}
    >
      {busy ? <CircularProgress size={20} color="inherit" /> : <MdiIcon path={mdiAccountBoxOutline} />}
    </Fab>
  );
}
