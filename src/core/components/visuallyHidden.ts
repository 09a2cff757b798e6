/**
 * Styles (for `sx`) of an element read by assistive technology but not shown: 1 × 1 px, clipped. The sizes
 * are strings on purpose: MUI reads a number between 0 and 1 in `sx` as a fraction, so `width: 1` is 100 %
 * (the copies this replaces made the page as wide as its container, /stats and /account scrolled sideways).
 */
export const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  clipPath: 'inset(50%)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;
