import type { ReactNode } from 'react';
import { Navigate, Outlet, Route } from 'react-router-dom';
import { RedirectSignedIn } from '../core';
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

/**
 * The signed-out pages' routes (sign-in, sign-up, password reset, the sandbox simulator), the same in the public
 * chunk (PublicPages) and in the shell (App). Each page is its own chunk; `wrap` puts a page where it may wait for
 * it (the shell's Suspense with its loading view; the public chunk has one around all its routes).
 */
export function publicRouteElements(wrap: (page: ReactNode) => ReactNode = (page) => page) {
  return (
    <>
      <Route
        path="/auth"
        element={<RedirectSignedIn>{wrap(<Outlet />)}</RedirectSignedIn>}
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
      {/*
        A reset link from an e-mail stays reachable while signed in (as Chatwoot does): the token alone proves the
        mailbox, the person may be resetting because they fear the password is known, or be another person on a
        shared browser; sending them to the console would strand the link. The confirm page then goes to sign-in,
        which leads a still-valid session on.
      */}
      <Route path="/auth/reset-password/:token" element={wrap(<ResetPasswordConfirmPage />)} />
      {/* The sandbox channel's customer simulator: public, the key in the link is the secret. */}
      <Route path="/sandbox/:key" element={wrap(<SandboxSimulatorPage />)} />
    </>
  );
}
