// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { DashboardSetup } from '../../../contract/stats';
import { membership, testUser } from '../../core/account/testUsers';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { pageTranslations } from '../../app/pages/translations';
import { GettingStartedCard } from './GettingStartedCard';
import { gettingStartedSteps } from './gettingStartedSteps';
import { dashboardPlugin } from './index';

const NONE: DashboardSetup = { channel_connected: false, conversation_answered: false, teammate_invited: false, template_created: false, broadcast_sent: false, bot_built: false };
const steps = gettingStartedSteps.filter((s) => ['channels', 'chats', 'team'].includes(s.id));

function render(setup: DashboardSetup, withProgress = true, node = <GettingStartedCard steps={steps} withProgress={withProgress} />) {
  const http = createFakeHttp((_method, path) => {
    if (path === '/api/stats/dashboard/') return { setup };
    throw Object.assign(new Error('Not Found'), { status: 404 });
  });
  const company = membership(1, {}, { name: 'Demo Company', role: { id: 'admin', name: 'Admin' } });
  renderPluginPage(node, { translations: [pageTranslations], path: '/dashboard', http, user: testUser([company]), companyId: 1, plugins: [dashboardPlugin], features: ['dashboard'] });
  return http;
}

describe('GettingStartedCard', () => {
  it('marks the steps the company has taken as done (a check, still a link) and the others as to do', async () => {
    render({ ...NONE, channel_connected: true });
    const channels = await screen.findByTestId('getting-started-channels');
    expect(channels).toHaveAttribute('data-done', 'true');
    expect(screen.getByRole('link', { name: /Connect a channel \(done\)/ })).toHaveAttribute('href', '/channels');
    expect(screen.getByTestId('getting-started-chats')).toHaveAttribute('data-done', 'false');
    expect(screen.getByRole('link', { name: /Answer conversations/ })).not.toHaveAccessibleName(/\(done\)/);
    expect(screen.getByTestId('getting-started-team')).toHaveAttribute('data-done', 'false');
    expect(screen.getByText(/1 of 3 done\./)).toBeInTheDocument();
  });

  it('goes away once every step is done', async () => {
    // Beside it, a card with one more step (templates, not done) shows once the figures are in.
    const withTemplates = [...steps, gettingStartedSteps.find((s) => s.id === 'templates')!];
    render({ ...NONE, channel_connected: true, conversation_answered: true, teammate_invited: true }, true, (
      <>
        <GettingStartedCard steps={steps} withProgress />
        <GettingStartedCard steps={withTemplates} withProgress />
      </>
    ));
    expect(await screen.findByTestId('getting-started-templates')).toHaveAttribute('data-done', 'false');
    // Only that card: the one whose steps are all done is gone.
    expect(screen.getAllByTestId('getting-started')).toHaveLength(1);
    expect(screen.getByTestId('getting-started-channels')).toHaveAttribute('data-done', 'true');
    expect(screen.getByText(/3 of 4 done\./)).toBeInTheDocument();
  });

  it('shows every step as to do without the figures (no stats plugin), asking nothing', async () => {
    const http = render({ ...NONE, channel_connected: true }, false);
    expect(await screen.findByText('Getting started')).toBeInTheDocument();
    expect(screen.getAllByRole('listitem').map((li) => li.getAttribute('data-done'))).toEqual(['false', 'false', 'false']);
    expect(http.calls.filter((c) => c.path === '/api/stats/dashboard/')).toHaveLength(0);
  });
});
