/** The pages outside the dashboard shell: sign-in, sign-up, password reset and company choice. */
export { LoginPage } from './auth/LoginPage';
export { RegisterPage } from './auth/RegisterPage';
export { ResetPasswordRequestPage } from './auth/ResetPasswordRequestPage';
export { ResetPasswordConfirmPage } from './auth/ResetPasswordConfirmPage';
export { SignupCheckEmailPage } from './signup/SignupCheckEmailPage';
export { SignupCreateAccountPage } from './signup/SignupCreateAccountPage';
export { SignupVerifyEmailPage } from './signup/SignupVerifyEmailPage';
export { CompanySelectPage } from './company/CompanySelectPage';
export { CompanyCreatePage } from './company/CompanyCreatePage';
export { pageTranslations } from './translations';
export { SandboxSimulatorPage } from './sandbox/SandboxSimulatorPage';
