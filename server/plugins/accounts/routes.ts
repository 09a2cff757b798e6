/** Routes of the accounts plugin (paths and trailing slashes as the console calls them). */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  EmailQuery,
  LoginBody,
  LogoutBody,
  OnboardingSubmitBody,
  PasswordChangeRequest,
  RefreshBody,
  ResetPasswordBody,
  ResetPasswordConfirmBody,
  TokenQuery,
} from '../../../contract/validation';
import { InviteCheckQuery, InviteRegistrationBody } from '../../../contract/team';
import { currentUser } from '../../core/auth/requireUser';
import { access } from '../../core/access';
import type { AccountService } from './service';
import { VERIFY_LINK_INVALID, type OnboardingService } from './onboardingService';
import { socialLoginRoutes } from './socialLogin';

type Body<S extends z.ZodType> = { Body: z.infer<S> };
type Query<S extends z.ZodType> = { Querystring: z.infer<S> };

export function accountRoutes(app: FastifyInstance, accounts: AccountService): void {
  app.post<Body<typeof InviteRegistrationBody>>('/account/registration/', { config: { access: access.public('sign-up with a verified e-mail or an invite token') }, schema: { body: InviteRegistrationBody } }, async (request, reply) => {
    await accounts.register(request.body);
    return reply.code(201).send({ detail: 'Account created.' });
  });

  app.post<Body<typeof LoginBody>>('/account/login/', { config: { access: access.public('sign-in') }, schema: { body: LoginBody } }, async (request, reply) => {
    const { response, knownDeviceCookie } = await accounts.login(request.body.email, request.body.password, request.ip, request.headers.cookie);
    // The browser is now a known device of the account (server/core/auth/knownDevice.ts).
    return reply.header('set-cookie', knownDeviceCookie).send(response);
  });

  // POST /account/facebook/ and /account/google/ (social sign-in).
  socialLoginRoutes(app, accounts);

  app.post<Body<typeof RefreshBody>>('/account/token/refresh/', { config: { access: access.public('the refresh token in the body authenticates') }, schema: { body: RefreshBody } }, async (request) => {
    return accounts.refresh(request.body.refresh);
  });

  app.post<Body<typeof LogoutBody>>('/account/logout/', { schema: { body: LogoutBody }, config: { access: access.user() } }, async (request) => {
    await accounts.logout(currentUser(request));
    return { detail: 'Successfully logged out.' };
  });

  app.get('/account/user/', { config: { access: access.user() } }, async (request) => accounts.userView(currentUser(request).id));

  app.post<Body<typeof PasswordChangeRequest>>(
    '/account/password/change/',
    { schema: { body: PasswordChangeRequest }, config: { access: access.user() } },
    async (request) => {
      await accounts.changePassword(currentUser(request), request.body);
      return { detail: 'New password has been saved.' };
    },
  );

  app.post<Body<typeof ResetPasswordBody>>('/account/reset-password/', { config: { access: access.public('asks for a reset link by e-mail') }, schema: { body: ResetPasswordBody } }, async (request) => {
    await accounts.requestPasswordReset(request.body.email, request.ip);
    return { detail: 'If an account exists for this e-mail, a reset link has been sent.' };
  });

  app.post<Body<typeof ResetPasswordConfirmBody>>(
    '/account/reset-password/confirm/',
    { config: { access: access.public('the reset token in the body authorises') }, schema: { body: ResetPasswordConfirmBody } },
    async (request) => {
      await accounts.confirmPasswordReset(request.body.token, request.body.password);
      return { detail: 'Password has been reset.' };
    },
  );
}

export function onboardingRoutes(app: FastifyInstance, onboarding: OnboardingService): void {
  app.post<Body<typeof OnboardingSubmitBody>>(
    '/api/onboarding-request/submit/',
    { config: { access: access.public('sign-up: asks for a verification e-mail') }, schema: { body: OnboardingSubmitBody } },
    async (request) => {
      await onboarding.submit(request.body.email, request.body.needs_whatsapp_number);
      return { success: true };
    },
  );

  app.get<Query<typeof EmailQuery>>('/api/onboarding-request/status/', { config: { access: access.public('sign-up: the page polls its verification state') }, schema: { querystring: EmailQuery } }, async (request) => {
    return onboarding.status(request.query.email);
  });

  app.get<Query<typeof TokenQuery>>('/api/onboarding-request/verify/', { config: { access: access.public('the verification token in the query authorises') }, schema: { querystring: TokenQuery } }, async (request, reply) => {
    const verified = await onboarding.verify(request.query.token);
    // The console reads `success` or `error` here (spec §7), not the usual error shape.
    if (!verified) return reply.code(400).send({ error: VERIFY_LINK_INVALID });
    return { success: true, email: verified.email };
  });

  // Public (the invitation link's page asks before sign-in): it answers the same for every address
  // unless the caller holds that address's invitation token.
  app.get<Query<typeof InviteCheckQuery>>('/api/invites/check_email/', { config: { access: access.public('the invitation page asks before sign-in') }, schema: { querystring: InviteCheckQuery } }, async (request) => {
    return onboarding.checkEmail(request.query.email, request.query.token);
  });
}
