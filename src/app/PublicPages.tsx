/**
 * The pages a signed-out visitor opens (sign-in, sign-up, password reset, the sandbox simulator),
 * without react-admin's shell or any plugin: main.tsx loads this chunk for /auth/* and /sandbox/*
 * and the shell (ConsoleShell) only once a signed-in route opens. It builds a console with the core
 * APIs only; the session lives in localStorage, so the shell picks it up after sign-in. No
 * react-admin context (its query client, store, notifications): the pages' forms are plain MUI
 * (pages/shared/form.tsx), alerts go through the AlertApi, the theme is MUI's ThemeProvider.
 */
import { Suspense, useState } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import CssBaseline from '@mui/material/CssBaseline';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { AlertHost, ConsoleProvider, createConsole, darkTheme, i18nApiRef, lightTheme, withMotionPreference } from '../core';

import { publicRouteElements } from './publicRoutes';
import { pageTranslations } from './pages/translations';

/** Paths served by this chunk; every other path loads the shell. Keep in step with the routes below. */
export const PUBLIC_PATH = /^\/(auth|sandbox)(\/|$)/;

/**
 * The theme the shell's store holds (react-admin's localStorageStore(undefined, 'console'), key
 * `theme`): the theme chosen there applies here too. Light when none or unreadable.
 */
function storedThemeMode(): string {
  try {
    return JSON.parse(localStorage.getItem('RaStoreconsole.theme') ?? '"light"');
  } catch {
    return 'light';
  }
}

export default function PublicPages() {
  const [console] = useState(() =>
    createConsole({ plugins: [], features: [], translations: [pageTranslations as Record<string, Record<string, unknown>>] }),
  );
  const [theme] = useState(() => createTheme(withMotionPreference(storedThemeMode() === 'dark' ? darkTheme : lightTheme)));
  const i18n = console.get(i18nApiRef);

  return (
    <ConsoleProvider console={console}>
      <I18nextProvider i18n={i18n.i18n}>
        <ThemeProvider theme={theme}>
          <CssBaseline />
          <Suspense fallback={null}>
            <Routes>
              {publicRouteElements()}
              {/* A public path without a page (e.g. /auth/unknown): the sign-in page. */}
              <Route path="*" element={<Navigate to="/auth/login" replace />} />
            </Routes>
          </Suspense>
          <AlertHost />
        </ThemeProvider>
      </I18nextProvider>
    </ConsoleProvider>
  );
}
