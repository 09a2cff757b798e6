/**
 * The signed-out pages, React.lazy: PublicPages and the shell (App.tsx) both load them so, each page
 * its own chunk. (When the shell imported them statically, the bench could not see the sign-in
 * page's chunk and counted PublicPages alone: ~230 KB instead of the ~290 KB a browser fetches.)
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
/** Shell only: its react-admin form (react-hook-form) would otherwise be loaded with the shell. */
export const CompanyCreatePage = lazy(() => import('./pages/company/CompanyCreatePage').then((m) => ({ default: m.CompanyCreatePage })));
