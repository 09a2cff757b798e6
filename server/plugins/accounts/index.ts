/**
 * Accounts plugin: sign-up onboarding, registration, login, tokens, password change/reset.
 * init(services) → services of the plugin → routes.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../core/services';
import { AccountService } from './service';
import { OnboardingService } from './onboardingService';
import { accountRoutes, onboardingRoutes } from './routes';

export function init(services: Services) {
  const common = {
    db: services.get('Database'),
    config: services.get('Config'),
    clock: services.get('Clock'),
    email: services.get('EmailSender'),
    rateLimiter: services.get('RateLimiter'),
  };
  return {
    accounts: new AccountService({ ...common, sessions: services.get('SessionService') }),
    onboarding: new OnboardingService(common),
  };
}

export default async function accountsPlugin(app: FastifyInstance): Promise<void> {
  const { accounts, onboarding } = init(app.services);
  accountRoutes(app, accounts);
  onboardingRoutes(app, onboarding);
}
