/**
 * Makes the test DOM a phone for MUI's `useMediaQuery` (jsdom has no `matchMedia`, so every query is false there
 * and pages render their wide layout): `breakpoints.down(…)` asks for `(max-width:…)`, which a 390-px screen
 * matches, and `up(…)` for `(min-width:…)`, which it does not for `sm` and above. Returns the restore.
 */
export function phoneScreen(): () => void {
  const before = window.matchMedia;
  window.matchMedia = ((query: string) => ({
    matches: /max-width/.test(query),
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
  return () => {
    window.matchMedia = before;
  };
}
