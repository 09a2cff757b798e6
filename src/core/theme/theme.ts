import { grey } from '@mui/material/colors';
import type { Theme } from '@mui/material/styles';
import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

/** Spec §9 palette. */
export const BRAND = {
  primary: '#0B1F3A', // dark navy
  secondary: '#4FC3F7', // light blue
  accent: '#FF8A00', // orange
  error: '#D32F2F',
  warning: '#ED6C02',
  info: '#29B6F6',
  success: '#2E7D32',
  background: '#F5F7FB',
  buttonHover: '#1E63B8', // blue shown when hovering primary buttons
  whatsapp: '#25D366',
} as const;

declare module '@mui/material/styles' {
  interface Palette {
    accent: Palette['primary'];
    whatsapp: Palette['primary'];
  }
  interface PaletteOptions {
    accent?: PaletteOptions['primary'];
    whatsapp?: PaletteOptions['primary'];
  }
}

const shared = {
  secondary: { main: BRAND.secondary, contrastText: '#0B1F3A' },
  accent: { main: BRAND.accent, contrastText: '#FFFFFF' },
  error: { main: BRAND.error },
  // Dark text on the spec's orange: white on it is 3.1:1, under WCAG AA's 4.5:1 for chip-sized text.
  warning: { main: BRAND.warning, contrastText: '#0B1F3A' },
  info: { main: BRAND.info },
  success: { main: BRAND.success },
  whatsapp: { main: BRAND.whatsapp, contrastText: '#FFFFFF' },
};

/**
 * The hover colour of primary buttons: the spec's blue behind the light theme's white text (5.6:1); the dark
 * theme's primary buttons are light blue with navy text, which the spec's blue would leave at 2.8:1, so they
 * lighten instead (9.8:1, WCAG AA).
 */
export const BUTTON_HOVER = { light: BRAND.buttonHover, dark: '#81D4FA' } as const;

/**
 * The light theme writes the spec's orange and light blue, when they are text (an outlined chip or button, a text
 * button, a caption), in a darker tone of each: on white they are 3.1:1 and 2.3:1, under WCAG AA's 4.5:1. Their
 * fills and borders keep the spec's colours. The dark theme's tones read on its surfaces as they are.
 */
export const LIGHT_STATUS_TEXT = { warning: '#A54B01', info: '#01579B' } as const;

/** The colour of a status written as text (a caption, an icon's label) in either theme: `sx={{ color: statusTextColor('warning') }}`. */
export const statusTextColor = (status: keyof typeof LIGHT_STATUS_TEXT) => (theme: Theme) =>
  theme.palette.mode === 'light' ? LIGHT_STATUS_TEXT[status] : theme.palette[status].main;

const STATUS_TEXT_SELECTORS = (component: 'Chip' | 'Button', colour: 'Warning' | 'Info') =>
  component === 'Chip'
    ? `&.MuiChip-outlined.MuiChip-color${colour}`
    : `&.MuiButton-outlined.MuiButton-color${colour}, &.MuiButton-text.MuiButton-color${colour}`;

const statusText = (component: 'Chip' | 'Button') => ({
  [STATUS_TEXT_SELECTORS(component, 'Warning')]: { color: LIGHT_STATUS_TEXT.warning },
  [STATUS_TEXT_SELECTORS(component, 'Info')]: { color: LIGHT_STATUS_TEXT.info },
});

const buttonHover = (mode: 'light' | 'dark') => ({
  MuiButton: {
    styleOverrides: {
      ...(mode === 'light' ? { root: statusText('Button') } : {}),
      containedPrimary: { '&:hover': { backgroundColor: BUTTON_HOVER[mode] } },
    },
  },
  ...(mode === 'light' ? { MuiChip: { styleOverrides: { root: statusText('Chip') } } } : {}),
});

/**
 * Focus rings of the keyboard (WCAG 2.2, 2.4.7 focus visible and 1.4.11 contrast ≥ 3:1): a 3 px
 * outline on whatever has :focus-visible, in a colour that stands out from the surface around it —
 * a dark blue on the light pages (6:1 on white), the light blue on the navy top bar and on every
 * dark-theme surface (8:1). MUI removes the browser's outline on its buttons; `body` in the selector
 * outranks that rule. Text fields keep their own focus underline/border. Rows of lists and menus
 * (the side menu, the user menu) draw it inside, since their containers clip what overflows.
 */
export const FOCUS_RING = { light: BRAND.buttonHover, onNavy: BRAND.secondary, dark: BRAND.secondary } as const;

function focusRing(mode: 'light' | 'dark') {
  const ring = (color: string) => ({ outline: `3px solid ${color}`, outlineOffset: 2 });
  const base = mode === 'light' ? FOCUS_RING.light : FOCUS_RING.dark;
  const notTextField = ':focus-visible:not(input):not(textarea)';
  return {
    [`body ${notTextField}`]: ring(base),
    [`body .MuiAppBar-root ${notTextField}`]: ring(mode === 'light' ? FOCUS_RING.onNavy : FOCUS_RING.dark),
    [`body .MuiMenuItem-root${notTextField}, body .MuiListItemButton-root${notTextField}, body .MuiTab-root${notTextField}`]: {
      outlineOffset: -3,
    },
  };
}

/**
 * A fieldset, unlike a div, is never narrower than its content's widest unbreakable part (the browsers' own
 * `min-inline-size: min-content`): a flow step's options (a select showing a long step's message) made the flow
 * editor 558 px wide on a 390-px phone. Fieldsets shrink with their container, as the rest of a form does.
 */
export const SHRINKING_FIELDSETS = { fieldset: { minWidth: 0 } };

function cssBaseline(mode: 'light' | 'dark') {
  return { MuiCssBaseline: { styleOverrides: { ...focusRing(mode), ...SHRINKING_FIELDSETS } } };
}

/**
 * A checkbox given `aria-label` is named by it (WCAG 4.1.2). MUI's Checkbox puts that attribute on its root, a span
 * with no role (axe: aria-prohibited-attr), and leaves the input itself unnamed (axe: label, critical);
 * react-admin's row checkbox of every DataTable with bulk actions ("Select this row") is written that way. Both
 * themes give the label to the input (a default `inputProps`, which MUI calls with the props) and take it off the
 * root. Defaults only: a checkbox that passes its own `inputProps` or `slotProps.input` names its input itself, and
 * one that passes `slotProps` keeps its root as it says (MUI drops a function default of a slot the component sets).
 */
type CheckboxOwnerState = { 'aria-label'?: string };
export const checkboxNamedByItsInput = {
  MuiCheckbox: {
    defaultProps: {
      inputProps: (ownerState: CheckboxOwnerState) => (ownerState['aria-label'] === undefined ? {} : { 'aria-label': ownerState['aria-label'] }),
      slotProps: { root: (ownerState: CheckboxOwnerState) => (ownerState['aria-label'] === undefined ? {} : { 'aria-label': undefined }) },
    },
  },
};

/**
 * react-admin's list shows its bulk actions' toolbar (Unselect, the actions) over the list's top when rows are
 * selected, and keeps it in the page at zero height otherwise: its buttons stayed reachable by Tab while unseen
 * (WCAG 2.4.7) and, overflowing that zero height, overlapped the Create button and the columns' sort labels (axe:
 * target-size). Collapsed, it is hidden.
 */
const hiddenBulkActionsWhenCollapsed = {
  RaBulkActionsToolbar: { styleOverrides: { root: { '& .RaBulkActionsToolbar-collapsed': { visibility: 'hidden' } } } },
};

/**
 * A form's toolbar (Save, Delete) in the light theme: react-admin's grey 300 left the Delete button's red at 3.8:1;
 * on grey 100 it reads at 4.6:1 (WCAG AA 4.5:1, theme.test.ts).
 */
export const LIGHT_FORM_TOOLBAR = grey[100];

/**
 * Buttons and tabs in sentence case, as the console writes them ("Save business hours", "Add an article"), not MUI's
 * upper case: the labels read as written in both languages (a French label in capitals loses its accents' ease), and a
 * screen shows one case, not react-admin's upper-case toolbars beside the pages' own sentence-case buttons.
 */
export const SENTENCE_CASE_BUTTONS = { button: { textTransform: 'none' as const } };

export const lightTheme: RaThemeOptions = {
  ...defaultLightTheme,
  typography: { ...defaultLightTheme.typography, ...SENTENCE_CASE_BUTTONS },
  palette: {
    ...defaultLightTheme.palette,
    mode: 'light',
    primary: { main: BRAND.primary, contrastText: '#FFFFFF' },
    background: { default: BRAND.background, paper: '#FFFFFF' },
    ...shared,
  },
  components: {
    ...defaultLightTheme.components,
    ...buttonHover('light'),
    ...cssBaseline('light'),
    ...checkboxNamedByItsInput,
    ...hiddenBulkActionsWhenCollapsed,
    RaToolbar: { styleOverrides: { root: { backgroundColor: LIGHT_FORM_TOOLBAR } } },
  },
};

export const darkTheme: RaThemeOptions = {
  ...defaultDarkTheme,
  typography: { ...defaultDarkTheme.typography, ...SENTENCE_CASE_BUTTONS },
  palette: {
    ...defaultDarkTheme.palette,
    mode: 'dark',
    // navy is unreadable on a dark background: the dark theme leads with the light blue
    primary: { main: BRAND.secondary, contrastText: BRAND.primary },
    ...shared,
    secondary: { main: BRAND.accent },
    // The brand's status colours are too dark to read as text on the dark surfaces (the background #121212 and
    // react-admin's paper #313131; WCAG AA asks 4.5:1): red 3.8:1 and 2.6:1 (the lighter #E57373 used before still
    // 4.35:1 on paper), green 3.7:1 and 2.5:1 (a "Resolved" chip), orange 6.0:1 and 4.2:1. These tones read at
    // 5.5:1 or more on both, with dark text when filled (theme.test.ts).
    error: { main: '#EF9A9A', contrastText: '#000000' },
    warning: { main: '#FFA726', contrastText: BRAND.primary },
    success: { main: '#66BB6A', contrastText: '#000000' },
  },
  components: { ...defaultDarkTheme.components, ...buttonHover('dark'), ...cssBaseline('dark'), ...checkboxNamedByItsInput, ...hiddenBulkActionsWhenCollapsed },
};

/** The durations of MUI's transitions (theme.transitions.duration), all zero. */
const NO_DURATION = { shortest: 0, shorter: 0, short: 0, standard: 0, complex: 0, enteringScreen: 0, leavingScreen: 0 };

/** True when the visitor's system asks for less motion (`prefers-reduced-motion: reduce`). */
function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * WCAG 2.3.3 (animation from interactions): for a visitor whose system asks for less motion, the theme moves
 * nothing: no CSS transitions (`transitions.create`), dialogs, menus, drawers and collapses that open and
 * close at once (every duration, the menus' height-based one included), and no ripple on buttons. Progress
 * indicators keep spinning: they say that something is still under way. Otherwise the theme as it is.
 */
export function withMotionPreference(theme: RaThemeOptions, reduce: boolean = prefersReducedMotion()): RaThemeOptions {
  if (!reduce) return theme;
  const components = theme.components ?? {};
  return {
    ...theme,
    transitions: { ...theme.transitions, duration: NO_DURATION, create: () => 'none', getAutoHeightDuration: () => 0 },
    components: {
      ...components,
      MuiButtonBase: { ...components.MuiButtonBase, defaultProps: { ...components.MuiButtonBase?.defaultProps, disableRipple: true } },
    },
  };
}
