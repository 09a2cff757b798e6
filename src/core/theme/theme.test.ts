import { createTheme, getContrastRatio } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { BUTTON_HOVER, darkTheme, LIGHT_FORM_TOOLBAR, LIGHT_STATUS_TEXT, lightTheme, SHRINKING_FIELDSETS, statusTextColor, withMotionPreference } from './theme';

describe('withMotionPreference', () => {
  it('leaves the theme as it is when the visitor has not asked for less motion', () => {
    expect(withMotionPreference(lightTheme, false)).toBe(lightTheme);
  });

  it('moves nothing when the visitor asks for less motion: no transition, no duration, no ripple', () => {
    for (const theme of [lightTheme, darkTheme]) {
      const reduced = createTheme(withMotionPreference(theme, true));
      expect(reduced.transitions.create(['opacity', 'transform'])).toBe('none');
      expect(Object.values(reduced.transitions.duration)).toEqual(Object.values(reduced.transitions.duration).map(() => 0));
      // Menus and popovers grow over a duration computed from their height.
      expect(reduced.transitions.getAutoHeightDuration(400)).toBe(0);
      expect(reduced.components?.MuiButtonBase?.defaultProps?.disableRipple).toBe(true);
      // The rest of the theme is kept: its palette and its own component overrides.
      expect(reduced.palette.mode).toBe(createTheme(theme).palette.mode);
      expect(reduced.components?.MuiCssBaseline).toEqual(theme.components?.MuiCssBaseline);
    }
    const normal = createTheme(lightTheme);
    expect(normal.transitions.create('opacity')).not.toBe('none');
    expect(normal.transitions.duration.standard).toBeGreaterThan(0);
  });
});

describe('primary buttons under the pointer', () => {
  it('keep their text readable in both themes (WCAG AA, 4.5:1)', () => {
    for (const [theme, hover] of [[lightTheme, BUTTON_HOVER.light], [darkTheme, BUTTON_HOVER.dark]] as const) {
      const built = createTheme(theme);
      const overrides = built.components?.MuiButton?.styleOverrides as { containedPrimary: { '&:hover': { backgroundColor: string } } };
      expect(overrides.containedPrimary['&:hover'].backgroundColor).toBe(hover);
      expect(getContrastRatio(built.palette.primary.contrastText, hover)).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('the dark theme', () => {
  it('writes its status colours readably on its own surfaces (an outlined chip, a text button; WCAG AA, 4.5:1)', () => {
    const built = createTheme(darkTheme);
    for (const colour of ['primary', 'secondary', 'error', 'warning', 'info', 'success'] as const) {
      for (const surface of [built.palette.background.default, built.palette.background.paper]) {
        expect(getContrastRatio(built.palette[colour].main, surface), `${colour} on ${surface}`).toBeGreaterThanOrEqual(4.5);
      }
      // and a filled one its text
      expect(getContrastRatio(built.palette[colour].contrastText, built.palette[colour].main), `text on ${colour}`).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('the light theme', () => {
  it('writes its orange and light blue as text in a tone that reads on its surfaces (WCAG AA, 4.5:1)', () => {
    const built = createTheme(lightTheme);
    for (const status of ['warning', 'info'] as const) {
      const text = statusTextColor(status)(built);
      expect(text).toBe(LIGHT_STATUS_TEXT[status]);
      for (const surface of [built.palette.background.default, built.palette.background.paper]) {
        expect(getContrastRatio(text, surface), `${status} text on ${surface}`).toBeGreaterThanOrEqual(4.5);
      }
      // The spec's colour itself would not: the reason for the darker tone.
      expect(getContrastRatio(built.palette[status].main, built.palette.background.paper)).toBeLessThan(4.5);
    }
    // The dark theme keeps its own tones.
    const dark = createTheme(darkTheme);
    expect(statusTextColor('warning')(dark)).toBe(dark.palette.warning.main);
  });

  it('gives outlined chips and outlined or text buttons of those colours that tone, and no other colour', () => {
    const components = createTheme(lightTheme).components!;
    const chip = components.MuiChip?.styleOverrides?.root as Record<string, { color: string }>;
    const button = components.MuiButton?.styleOverrides?.root as Record<string, { color: string }>;
    expect(chip).toEqual({
      '&.MuiChip-outlined.MuiChip-colorWarning': { color: LIGHT_STATUS_TEXT.warning },
      '&.MuiChip-outlined.MuiChip-colorInfo': { color: LIGHT_STATUS_TEXT.info },
    });
    expect(button).toEqual({
      '&.MuiButton-outlined.MuiButton-colorWarning, &.MuiButton-text.MuiButton-colorWarning': { color: LIGHT_STATUS_TEXT.warning },
      '&.MuiButton-outlined.MuiButton-colorInfo, &.MuiButton-text.MuiButton-colorInfo': { color: LIGHT_STATUS_TEXT.info },
    });
    // The primary button's hover is still there beside them, and the dark theme has none of them.
    expect(components.MuiButton?.styleOverrides?.containedPrimary).toBeDefined();
    expect(createTheme(darkTheme).components?.MuiChip).toBeUndefined();
  });
});

describe('a form’s toolbar in the light theme', () => {
  it('keeps its Delete button’s red readable (WCAG AA, 4.5:1)', () => {
    const built = createTheme(lightTheme);
    const toolbar = (built.components as { RaToolbar?: { styleOverrides: { root: { backgroundColor: string } } } }).RaToolbar;
    expect(toolbar?.styleOverrides.root.backgroundColor).toBe(LIGHT_FORM_TOOLBAR);
    expect(getContrastRatio(built.palette.error.main, LIGHT_FORM_TOOLBAR)).toBeGreaterThanOrEqual(4.5);
  });
});

describe('the baseline styles of both themes', () => {
  const baselineOf = (theme: typeof lightTheme) =>
    (createTheme(theme).components as { MuiCssBaseline?: { styleOverrides: Record<string, Record<string, unknown>> } }).MuiCssBaseline?.styleOverrides ?? {};

  it('let a fieldset shrink with its container (a browser keeps it as wide as its content: a form wider than a phone)', () => {
    for (const theme of [lightTheme, darkTheme]) expect(baselineOf(theme).fieldset).toEqual(SHRINKING_FIELDSETS.fieldset);
  });

  it('keep the keyboard focus ring beside it', () => {
    for (const theme of [lightTheme, darkTheme]) {
      const ring = Object.entries(baselineOf(theme)).find(([selector]) => selector === 'body :focus-visible:not(input):not(textarea)');
      expect(ring?.[1]).toMatchObject({ outline: expect.stringMatching(/^3px solid /) });
    }
  });
});

describe('buttons and tabs', () => {
  it('keep the case their labels are written in, in both themes (not MUI’s upper case)', () => {
    for (const theme of [lightTheme, darkTheme]) {
      const made = createTheme(theme);
      expect(made.typography.button.textTransform).toBe('none');
      // The rest of the typography is react-admin's.
      expect(made.typography.h6.fontWeight).toBe(400);
    }
  });
});
