import type { ReactElement } from 'react';
import type { Channel } from '../../../../contract/channels';
import type { WhatsAppTemplate } from '../../../../contract/templates';
import type { HttpProvider } from '../../../core';
import { membership, testUser } from '../../../core/account/testUsers';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { FakeSocket } from '../../../core/testing/fakeSocket';
import { templatesPlugin } from '../index';

export function channel(id: number, platform: Channel['platform'], name: string, extra: Partial<Channel> = {}): Channel {
  return {
    id,
    external_id: `ext-${id}`,
    platform,
    name,
    status: 'active',
    display_phone_number: platform === 'whatsapp' ? '+1 555 0100' : null,
    waba_id: platform === 'whatsapp' ? 'waba-1' : null,
    signup_status: platform === 'whatsapp' ? 'completed' : null,
    signup_error: null,
    steps: [],
    connected: true,
    simulator_url: null,
    created_at: '2026-01-01T00:00:00Z',
    ...extra,
  } as Channel;
}

export function template(id: number, name: string, extra: Partial<WhatsAppTemplate> = {}): WhatsAppTemplate {
  return {
    id,
    channel_id: 3,
    meta_template_id: `m${id}`,
    name,
    language: 'en_US',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: `Body of ${name}` }],
    status: 'APPROVED',
    rejected_reason: null,
    quality_score: 'UNKNOWN',
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-02T00:00:00Z',
    ...extra,
  };
}

/**
 * The templates plugin's defaults on renderPluginPage: a fake socket (its `emit` plays the server's
 * template_status events) and an admin of company 1 who may manage templates (unless `canManage` is false).
 */
export function renderTemplatesPage(
  ui: ReactElement,
  options: { path: string; route: string; http: HttpProvider; canManage?: boolean; features?: string[] },
) {
  const socket = new FakeSocket(() => ({ status: 'ok', response: {} }));
  const manage = options.canManage ?? true;
  const view = renderPluginPage(ui, {
    plugins: [templatesPlugin],
    features: options.features ?? ['whatsapp_templates', 'whatsapp_carousel'],
    path: options.path,
    route: options.route,
    http: options.http,
    user: testUser([membership(1, { can_view_whatsapp_templates: true, can_manage_whatsapp_templates: manage })]),
    companyId: 1,
    signedIn: true,
    socket: socket.asSocket(),
  });
  return { ...view, socket };
}
