/**
 * The signed-out pages as PublicPages loads them (React.lazy). The shell (App.tsx) imports the same
 * pages statically: the bundler then keeps them in one chunk shared by both, which bench/bundle
 * measured lighter for the sign-in page than a chunk per page (each would pull chunks split for the shell).
 */
import { lazy } from 'react';

export const LoginPage = lazy(() => import('./pages/auth/LoginPage').then((m) => ({ default: m.LoginPage })));
export const RegisterPage = lazy(() => import('./pages/auth/RegisterPage').then((m) => ({ default: m.RegisterPage })));
export const ResetPasswordConfirmPage = lazy(() => import('./pages/auth/ResetPasswordConfirmPage').then((m) => ({ default: m.ResetPasswordConfirmPage })));
export const ResetPasswordRequestPage = lazy(() => import('./pages/auth/ResetPasswordRequestPage').then((m) => ({ default: m.ResetPasswordRequestPage })));
export const SignupCheckEmailPage = lazy(() => import('./pages/signup/SignupCheckEmailPage').then((m) => ({ default: m.SignupCheckEmailPage })));
export const SignupCreateAccountPage = lazy(() => import('./pages/signup/SignupCreateAccountPage').then((m) => ({ default: m.SignupCreateAccountPage })));
export const SignupVerifyEmailPage = lazy(() => import('./pages/signup/SignupVerifyEmailPage').then((m) => ({ default: m.SignupVerifyEmailPage })));
export const SandboxSimulatorPage = lazy(() => import('./pages/sandbox/SandboxSimulatorPage').then((m) => ({ default: m.SandboxSimulatorPage })));
