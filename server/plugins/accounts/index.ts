/**
 * Accounts plugin: sign-up onboarding, registration, login, tokens, password change/reset, and the
 * signed-in user's answers to company invitations (/api/invitations/).
 * init(services) → services of the plugin → routes.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Services } from '../../core/services';
import { AccountService } from './service';
import { OnboardingService } from './onboardingService';
import { accountRoutes, onboardingRoutes } from './routes';
import { InvitationService, invitationRoutes } from './invitations';

export function init(services: Services, log?: FastifyBaseLogger) {
  const common = {
    db: services.get('Database'),
    config: services.get('Config'),
    clock: services.get('Clock'),
    email: services.get('EmailSender'),
    rateLimiter: services.get('RateLimiter'),
  };
  return {
    accounts: new AccountService({ ...common, sessions: services.get('SessionService'), log }),
    onboarding: new OnboardingService({ ...common, log }),
    invitations: new InvitationService({ db: common.db, clock: common.clock }),
  };
}

export default async function accountsPlugin(app: FastifyInstance): Promise<void> {
  const { accounts, onboarding, invitations } = init(app.services, app.log);
  accountRoutes(app, accounts);
  onboardingRoutes(app, onboarding);
  invitationRoutes(app, invitations);
}
