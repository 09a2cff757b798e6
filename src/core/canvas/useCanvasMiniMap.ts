import { useMediaQuery, useTheme } from '@mui/material';

/**
 * Whether a canvas shows its minimap: from the `sm` breakpoint (600 px) up. On a phone's 390 px the minimap (200 ×
 * 150 px at its corner) covered a third of the graph under it; there the controls' "fit view" shows the whole
 * graph instead. The canvases (a bot's, a flow's branches) ask this before drawing their `MiniMap`.
 */
export function useCanvasMiniMap(): boolean {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.up('sm'), { noSsr: true });
}
