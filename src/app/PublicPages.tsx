/**
 * The pages a signed-out visitor opens (sign-in, sign-up, password reset, the sandbox simulator),
 * without react-admin's shell or any plugin: main.tsx loads this chunk for /auth/* and /sandbox/*
 * and the shell (ConsoleShell) only once a signed-in route opens. It builds a console with the core
 * APIs only; the session lives in localStorage, so the shell picks it up after sign-in.
 */
import { Suspense, useState } from 'react';
import { AdminContext, localStorageStore } from 'react-admin';
import { Navigate, Outlet, Route, Routes } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import { QueryClient } from '@tanstack/react-query';
import {
  authApiRef,
  ConsoleNotification,
  ConsoleProvider,
  createConsole,
  darkTheme,
  dataProviderApiRef,
  i18nApiRef,
  lightTheme,
  RedirectSignedIn,
} from '../core';

import {
  LoginPage,
  RegisterPage,
  ResetPasswordConfirmPage,
  ResetPasswordRequestPage,
  SandboxSimulatorPage,
  SignupCheckEmailPage,
  SignupCreateAccountPage,
  SignupVerifyEmailPage,
} from './lazyPages';
import { pageTranslations } from './pages/translations';

/** Paths served by this chunk; every other path loads the shell. Keep in step with the routes below. */
export const PUBLIC_PATH = /^\/(auth|sandbox)(\/|$)/;

/** The same /auth routes as the shell's (src/app/App.tsx), for signed-out visitors. */
export function publicRouteElements() {
  return (
    <>
      <Route
        path="/auth"
        element={
          <RedirectSignedIn>
            <Outlet />
          </RedirectSignedIn>
        }
      >
        <Route index element={<Navigate to="/auth/login" replace />} />
        <Route path="login" element={<LoginPage />} />
        <Route path="register" element={<RegisterPage />} />
        <Route path="reset-password" element={<ResetPasswordRequestPage />} />
        <Route path="signup">
          <Route index element={<Navigate to="/auth/signup/check-email" replace />} />
          <Route path="check-email" element={<SignupCheckEmailPage />} />
          <Route path="create-account" element={<SignupCreateAccountPage />} />
          <Route path="verify-account-email" element={<SignupVerifyEmailPage />} />
        </Route>
      </Route>
      <Route path="/auth/reset-password/:token" element={<ResetPasswordConfirmPage />} />
      <Route path="/sandbox/:key" element={<SandboxSimulatorPage />} />
    </>
  );
}

export default function PublicPages() {
  const [console] = useState(() =>
    createConsole({ plugins: [], features: [], translations: [pageTranslations as Record<string, Record<string, unknown>>] }),
  );
  const [queryClient] = useState(() => new QueryClient());
  // The shell's store: the theme chosen there applies here too.
  const [store] = useState(() => localStorageStore(undefined, 'console'));
  const i18n = console.get(i18nApiRef);

  return (
    <ConsoleProvider console={console}>
      <I18nextProvider i18n={i18n.i18n}>
        <AdminContext
          authProvider={console.get(authApiRef)}
          dataProvider={console.get(dataProviderApiRef)}
          i18nProvider={i18n.provider}
          queryClient={queryClient}
          store={store}
          theme={lightTheme}
          darkTheme={darkTheme}
          defaultTheme="light"
        >
          <Suspense fallback={null}>
            <Routes>
              {publicRouteElements()}
              {/* A public path without a page (e.g. /auth/unknown): the sign-in page. */}
              <Route path="*" element={<Navigate to="/auth/login" replace />} />
            </Routes>
          </Suspense>
          <ConsoleNotification />
        </AdminContext>
      </I18nextProvider>
    </ConsoleProvider>
  );
}
