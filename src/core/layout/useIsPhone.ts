import { useMediaQuery, type Theme } from '@mui/material';

/**
 * True on a phone-sized screen (under the theme's `sm`, 600 px): lists then show each row as one stacked cell
 * instead of columns that would scroll sideways. A media query rather than CSS `display` per column, so the
 * controls a row holds (a role select, a capacity) exist once, in the layout in use.
 */
export function useIsPhone(): boolean {
  return useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
}
