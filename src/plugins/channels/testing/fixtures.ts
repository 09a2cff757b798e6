import type { Channel, ChannelsListResponse, FacebookPage } from '../../../../contract/channels';
import type { RoleId } from '../../../../contract/permissions';
import { membership, testUser } from '../../../core/account/testUsers';

const ROLE_LABELS: Record<RoleId, string> = { admin: 'Admin', manager: 'Manager', agent: 'Agent' };

/** A channel of `platform`; WhatsApp channels default to a completed signup. */
export function channel(id: number, platform: Channel['platform'], extra: Partial<Channel> = {}): Channel {
  const whatsapp = platform === 'whatsapp';
  return {
    id,
    external_id: platform === 'sandbox' ? 'sandbox-1' : `${platform}-${id}`,
    platform,
    name: `${platform} ${id}`,
    status: 'active',
    display_phone_number: whatsapp ? `+1 555 010${id}` : null,
    waba_id: whatsapp ? `waba-${id}` : null,
    signup_status: whatsapp ? 'completed' : null,
    signup_error: null,
    steps: [],
    connected: true,
    simulator_url: platform === 'sandbox' ? 'http://localhost/sandbox/key-1' : null,
    created_at: '2024-03-12T10:00:00Z',
    ...extra,
  };
}

/** One channel per status the page shows, plus the sandbox. */
export const CHANNELS: Channel[] = [
  channel(1, 'whatsapp', { name: 'Support line', display_phone_number: '+1 555 0101' }),
  channel(2, 'whatsapp', { name: 'Sales line', display_phone_number: '+1 555 0102', signup_status: 'in_progress', status: 'pending', connected: false }),
  channel(3, 'whatsapp', {
    name: 'Billing line',
    display_phone_number: '+1 555 0103',
    external_id: 'pn-3',
    signup_status: 'partial_failure',
    signup_error: 'Registering the phone number failed: PIN mismatch',
  }),
  channel(4, 'whatsapp', { name: 'Old line', signup_status: 'failed', status: 'pending', connected: false, signup_error: null }),
  channel(5, 'messenger', { name: 'Acme Store', external_id: '1001' }),
  channel(6, 'instagram', { name: 'acme.store', external_id: '17841400000000001', status: 'disconnected', connected: false }),
  channel(7, 'sandbox', { name: 'Sandbox' }),
];

/** GET /api/channels/ for a page of `all`. */
export function channelsPage(all: Channel[], query: { page?: unknown; page_size?: unknown } = {}, companyConnected = true): ChannelsListResponse {
  const page = Number(query.page ?? 1);
  const size = Number(query.page_size ?? 25);
  return { results: all.slice((page - 1) * size, page * size), count: all.length, company_connected: companyConnected };
}

export const FACEBOOK_PAGES: FacebookPage[] = [
  { id: '1001', name: 'Acme Store', instagram: { id: '178001', username: 'acme.store', connected: true }, connected: true },
  { id: '1002', name: 'Acme Outlet', instagram: null, connected: false },
  { id: '1003', name: 'Acme Café', instagram: { id: '178003', username: 'acme.cafe', connected: false }, connected: false },
];

/** A signed-in user whose selected company (id 1) grants `permissions` with `role`; a second company (id 2) alike. */
export function viewer(permissions: Record<string, boolean>, role: RoleId = 'admin') {
  const r = { id: role, name: ROLE_LABELS[role] };
  return testUser([membership(1, permissions, { name: 'Demo Company', role: r }), membership(2, permissions, { name: 'Other Company', role: r })]);
}

export const MANAGER = viewer({ can_view_channels: true, can_manage_channels: true });
export const AGENT = viewer({ can_view_channels: true }, 'agent');
