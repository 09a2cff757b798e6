import type { User } from '../../../../../contract/api';
import type { HttpProvider, SocialApi } from '../../../../core';
import { membership, testUser } from '../../../../core/account/testUsers';
import { renderPluginPage } from '../../../../core/testing/renderPluginPage';
import { whatsappIntegrationTranslations } from '../translations';
import WhatsAppIntegrationPage from '../WhatsAppIntegrationPage';

/** A user whose selected company (id 1, "Demo Company") grants `permissions`. */
export function integrationUser(permissions: Record<string, boolean> = { can_view_channels: true, can_manage_channels: true }): User {
  return testUser([membership(1, permissions, { name: 'Demo Company' }), membership(2, {}, { name: 'Other Co' })]);
}

/**
 * The onboarding's defaults on renderPluginPage: its page at /whatsapp-integration/* (polling fast),
 * its strings, signed in with company 1; `elsewhere` shows where the router went outside it.
 */
export function renderIntegration(options: { path: string; http: HttpProvider; social: SocialApi; user?: User; pollMs?: number }) {
  return renderPluginPage(<WhatsAppIntegrationPage pollMs={options.pollMs ?? 20} />, {
    features: ['channels'],
    translations: [whatsappIntegrationTranslations],
    path: options.path,
    route: '/whatsapp-integration/*',
    adminContext: false,
    markElsewhere: true,
    http: options.http,
    social: options.social,
    user: options.user ?? integrationUser(),
    companyId: 1,
  });
}
