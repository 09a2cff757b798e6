import { useMemo, type ReactNode } from 'react';
import { ThemeProvider, useTheme, type Theme } from '@mui/material/styles';

type RootStyle = object | ((props: unknown) => object) | undefined;
type Overrides = { styleOverrides?: { root?: RootStyle } } | undefined;

/** A component's root style override with `textTransform: 'none'` added after the theme's own. */
function sentenceCaseRoot(own: Overrides) {
  const root = own?.styleOverrides?.root;
  return {
    ...own,
    styleOverrides: {
      ...own?.styleOverrides,
      root: (props: unknown) => ({ ...(typeof root === 'function' ? root(props) : root), textTransform: 'none' }),
    },
  };
}

/**
 * The console writes button labels in sentence case ("Send template", "Saved replies"), as its other
 * pages do with `textTransform: 'none'`; MUI's default theme shows them in capitals. One scoped theme
 * for the whole inbox (its dialogs and menus included: they render inside this provider) instead of
 * an `sx` on every button.
 */
export function withSentenceCase(outer: Theme): Theme {
  const components = outer.components ?? {};
  return {
    ...outer,
    components: {
      ...components,
      MuiButton: sentenceCaseRoot(components.MuiButton as Overrides),
      MuiToggleButton: sentenceCaseRoot(components.MuiToggleButton as Overrides),
      MuiTab: sentenceCaseRoot(components.MuiTab as Overrides),
    },
  } as Theme;
}

export function SentenceCaseButtons({ children }: { children: ReactNode }) {
  // useTheme gives MUI's default theme when none is provided above (tests), so the merge always has a base.
  const outer = useTheme();
  const theme = useMemo(() => withSentenceCase(outer), [outer]);
  return <ThemeProvider theme={theme}>{children}</ThemeProvider>;
}
