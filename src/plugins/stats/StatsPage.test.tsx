// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { StatsReport } from '../../../contract/stats';
import { membership, testUser } from '../../core/account/testUsers';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { pageTranslations } from '../../app/pages/translations';
import StatsPage from './StatsPage';
import { statsPlugin } from './index';
import { presetRange } from './model';
import { duration } from '../../core/stats/format';

const durations = (median: number | null, p90: number | null, count: number) => ({ median, p90, count });

function report(over: Partial<StatsReport> = {}): StatsReport {
  return {
    scope: 'company',
    from: '2026-03-10',
    to: '2026-03-11',
    tz: 'UTC',
    channel_id: null,
    totals: {
      conversations_started: 4,
      conversations_closed: 3,
      messages_in: 6,
      messages_out: 7,
      bot_handled: 1,
      human_handled: 3,
      first_response: durations(1200, 1680, 3),
      resolution: durations(1800, 26640, 5),
    },
    daily: [
      { date: '2026-03-10', started: 1, closed: 2, messages_in: 3, messages_out: 3 },
      { date: '2026-03-11', started: 3, closed: 1, messages_in: 3, messages_out: 4 },
    ],
    agents: [{ user_id: 2, name: 'Ann One', email: 'ann@x.test', first_response: durations(900, 1140, 2), resolution: durations(1800, 1800, 1), messages_out: 3 }],
    channels: [{ channel_id: 1, name: 'Sandbox', platform: 'sandbox', started: 4, messages_in: 6, messages_out: 7 }],
    heatmap: [{ weekday: 2, hour: 9, messages: 2 }],
    broadcasts: [{ id: 1, name: 'Spring offer', created_at: '2026-03-10T08:00:00.000Z', status: 'completed', n_users: 12, sent: 10, delivered: 8, read: 5, replied: 2, failed: 2 }],
    csat: { responses: 3, satisfied: 2, score: 66.7, agents: [{ user_id: 2, name: 'Ann One', email: 'ann@x.test', responses: 2, satisfied: 2, score: 100 }] },
    assistant: {
      questions: 10,
      answered: 7,
      rephrased: 1,
      handovers: 2,
      answer_rate: 70,
      unanswered: [{ question: 'Do you sell gift cards?', count: 2, last_asked: '2026-03-11T09:00:00.000Z' }],
    },
    ...over,
  };
}

function renderStats(answer: StatsReport, features = ['stats', 'broadcast_engagement']) {
  const http = createFakeHttp((_m, path) => (path === '/api/stats/' ? answer : { results: [{ id: 1, name: 'Sandbox' }] }));
  const company = membership(1, {}, { name: 'Demo Company', role: { id: 'admin', name: 'Admin' } });
  renderPluginPage(<StatsPage />, { translations: [pageTranslations], path: '/stats', http, user: testUser([company]), companyId: 1, plugins: [statsPlugin], features });
  return http;
}

describe('StatsPage', () => {
  it('shows the totals, a table beside each chart and the broadcast funnel, and asks for the last 30 days in the browser’s zone', async () => {
    const http = renderStats(report());
    expect(await screen.findByText('Conversations started')).toBeInTheDocument();
    expect(screen.getByTestId('stats-total-first-response')).toHaveTextContent('20 min');
    expect(screen.getByTestId('stats-total-first-response')).toHaveTextContent('median · p90 28 min');
    const agents = screen.getByTestId('stats-section-agents');
    expect(within(agents).getByRole('row', { name: /Ann One/ })).toHaveTextContent('15 min');
    const funnel = screen.getByTestId('stats-section-broadcasts');
    expect(within(funnel).getByRole('row', { name: /Spring offer/ })).toHaveTextContent('1210852');
    const call = http.calls.find((c) => c.path === '/api/stats/')!;
    expect(call.options.query).toMatchObject(presetRange('last30'));
    expect(call.options.query?.tz).toBeTruthy();
  });

  it('shows the CSAT score (share of 4 and 5) with its responses, and per agent', async () => {
    renderStats(report());
    expect(await screen.findByTestId('stats-total-csat')).toHaveTextContent('66.7 %');
    expect(screen.getByTestId('stats-total-csat')).toHaveTextContent('3 responses');
    const csat = screen.getByTestId('stats-section-csat');
    expect(within(csat).getByRole('row', { name: /Ann One/ })).toHaveTextContent('ann@x.test22100 %');
  });

  it('shows the assistant’s answer rate and the questions it could not answer; none of it without company figures', async () => {
    renderStats(report());
    expect(await screen.findByTestId('stats-total-assistant')).toHaveTextContent('70 %');
    expect(screen.getByTestId('stats-total-assistant')).toHaveTextContent('7 of 10 questions answered · 2 handed over');
    const gaps = screen.getByTestId('stats-section-assistant');
    expect(within(gaps).getByRole('heading', { name: 'Questions the assistant could not answer' })).toBeInTheDocument();
    expect(within(gaps).getByRole('row', { name: /Do you sell gift cards\?/ })).toHaveTextContent('2');
    cleanup();
    renderStats(report({ assistant: null }));
    expect(await screen.findByTestId('stats-total-csat')).toBeInTheDocument();
    expect(screen.queryByTestId('stats-total-assistant')).not.toBeInTheDocument();
    expect(screen.queryByTestId('stats-section-assistant')).not.toBeInTheDocument();
  });

  it('exports a table as CSV', async () => {
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:x';
    });
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderStats(report());
    fireEvent.click(await screen.findByRole('button', { name: 'Export Response times by agent as CSV' }));
    expect(created).toHaveLength(1);
    expect(click).toHaveBeenCalledTimes(1);
    click.mockRestore();
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(created[0]);
    });
    expect(text).toContain('Agent,E-mail,Conversations answered');
    expect(text).toContain('Ann One,ann@x.test,2,900,1140,1,1800,1800,3');
  });

  it('tells an agent the figures are their own and hides broadcasts; the empty view where nothing happened', async () => {
    renderStats(report({ scope: 'own', broadcasts: [] }));
    expect(await screen.findByTestId('stats-own-scope')).toBeInTheDocument();
    expect(screen.queryByTestId('stats-section-broadcasts')).not.toBeInTheDocument();
  });

  it('shows the spec’s empty view when the range has no data', async () => {
    const zero = report();
    zero.totals = { ...zero.totals, conversations_started: 0, conversations_closed: 0, messages_in: 0, messages_out: 0 };
    renderStats({ ...zero, broadcasts: [] });
    expect(await screen.findByText('Nothing Found.')).toBeInTheDocument();
  });

  it('words durations', () => {
    const t = ((key: string, o: Record<string, number>) => `${key}:${Object.values(o ?? {}).join(',')}`) as never;
    expect(duration(t, null)).toBe('stats.none:');
    expect(duration(t, 45)).toBe('stats.units.s:45');
    expect(duration(t, 6000)).toBe('stats.units.hmin:1,40');
    expect(duration(t, 3 * 86400 + 7200)).toBe('stats.units.dh:3,2');
  });
});
