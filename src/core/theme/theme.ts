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
  warning: { main: BRAND.warning },
  info: { main: BRAND.info },
  success: { main: BRAND.success },
  whatsapp: { main: BRAND.whatsapp, contrastText: '#FFFFFF' },
};

const buttonHover = {
  MuiButton: {
    styleOverrides: {
      containedPrimary: { '&:hover': { backgroundColor: BRAND.buttonHover } },
    },
  },
};

export const lightTheme: RaThemeOptions = {
  ...defaultLightTheme,
  palette: {
    ...defaultLightTheme.palette,
    mode: 'light',
    primary: { main: BRAND.primary, contrastText: '#FFFFFF' },
    background: { default: BRAND.background, paper: '#FFFFFF' },
    ...shared,
  },
  components: { ...defaultLightTheme.components, ...buttonHover },
};

export const darkTheme: RaThemeOptions = {
  ...defaultDarkTheme,
  palette: {
    ...defaultDarkTheme.palette,
    mode: 'dark',
    // navy is unreadable on a dark background: the dark theme leads with the light blue
    primary: { main: BRAND.secondary, contrastText: BRAND.primary },
    ...shared,
    secondary: { main: BRAND.accent },
  },
  components: { ...defaultDarkTheme.components, ...buttonHover },
};
