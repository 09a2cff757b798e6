/**
 * Accounts plugin: sign-up onboarding, registration, login, tokens, password change/reset, and the
 * signed-in user's answers to company invitations (/api/invitations/).
 *
 * Needs: the database, config, clock, e-mail sender, rate limiter (sign-in and reset throttles),
 * sessions. Gives: routes only.
 */
import { coreServices, defineServerPlugin } from '../../core/plugins';
import { AccountService } from './service';
import { OnboardingService } from './onboardingService';
import { accountRoutes, onboardingRoutes } from './routes';
import { InvitationService, invitationRoutes } from './invitations';

export const accountsPlugin = defineServerPlugin({
  id: 'accounts',
  deps: {
    http: coreServices.http,
    db: coreServices.database,
    config: coreServices.config,
    clock: coreServices.clock,
    email: coreServices.emailSender,
    rateLimiter: coreServices.rateLimiter,
    sessions: coreServices.sessions,
  },
  init({ http, db, config, clock, email, rateLimiter, sessions }) {
    const common = { db, config, clock, email, rateLimiter, log: http.log };
    accountRoutes(http, new AccountService({ ...common, sessions }));
    onboardingRoutes(http, new OnboardingService(common));
    invitationRoutes(http, new InvitationService({ db, clock }));
  },
});
