// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { DashboardStats } from '../../../contract/stats';
import { membership, testUser } from '../../core/account/testUsers';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { pageTranslations } from '../../app/pages/translations';
import { statsPlugin } from '../stats';
import { dashboardPlugin } from './index';
import { TodayCard } from './TodayCard';

const TODAY: DashboardStats = {
  scope: 'company',
  today: '2026-03-18',
  open_conversations: 3,
  unassigned_conversations: 2,
  messages_in_today: 14,
  messages_out_today: 9,
  first_response_today: { median: 300, p90: 600, count: 4 },
  bot_conversations_today: 1,
  conversations_today: 4,
  running_broadcasts: [{ id: 7, name: 'Going out', status: 'sending', n_users: 10, sent: 4, delivered: 3, read: 1, failed: 1, progress: 50 }],
  channels: [
    { id: 1, name: 'Sandbox', platform: 'sandbox', needs_attention: false, reason: null, messaging_limit: null, near_limit: false },
    { id: 2, name: 'WhatsApp +1 555', platform: 'whatsapp', needs_attention: true, reason: 'signup_partial', messaging_limit: { used: 210, limit: 250 }, near_limit: true },
  ],
  setup: { channel_connected: true, conversation_answered: true, teammate_invited: false, template_created: false, broadcast_sent: true, bot_built: false },
};

describe('TodayCard', () => {
  it('shows today’s figures, each a link to where it is acted on, running broadcasts with progress and channels needing attention', async () => {
    const http = createFakeHttp(() => TODAY);
    const company = membership(1, {}, { name: 'Demo Company', role: { id: 'admin', name: 'Admin' } });
    renderPluginPage(<TodayCard />, { translations: [pageTranslations], path: '/dashboard', http, user: testUser([company]), companyId: 1, plugins: [dashboardPlugin, statsPlugin], features: ['dashboard', 'stats'] });

    const unassigned = await screen.findByTestId('dashboard-figure-unassigned');
    expect(unassigned).toHaveTextContent('Unassigned2');
    // The inbox filtered to the unassigned conversations (/chats?filter=unassigned).
    expect(unassigned).toHaveAttribute('href', '/chats?filter=unassigned');
    expect(screen.getByTestId('dashboard-figure-first-response')).toHaveTextContent('5 min');
    expect(screen.getByTestId('dashboard-figure-first-response')).toHaveAttribute('href', '/stats');
    expect(screen.getByTestId('dashboard-figure-bot-share')).toHaveTextContent('25 %');
    expect(screen.getByTestId('dashboard-figure-bot-share')).toHaveTextContent('1 of 4 conversations');
    const broadcast = screen.getByTestId('dashboard-running-broadcast');
    expect(broadcast).toHaveAttribute('href', '/broadcast/7');
    expect(within(broadcast).getByRole('progressbar', { name: 'Progress of Going out' })).toHaveAttribute('aria-valuenow', '50');
    const channel = screen.getByTestId('dashboard-channel-attention');
    expect(channel).toHaveTextContent('The WhatsApp setup is incomplete');
    expect(channel).toHaveTextContent('Near the messaging limit: 210 of 250 recipients in 24 hours.');
    expect(http.calls[0]).toMatchObject({ path: '/api/stats/dashboard/' });
  });
});
