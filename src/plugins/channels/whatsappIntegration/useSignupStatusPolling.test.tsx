// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { SignupStatusResponse } from '../../../../contract/channels';
import { ConsoleProvider, createConsole, httpApiRef, overrideApi } from '../../../core';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { SIGNUP_POLL_MS, useSignupStatusPolling } from './useSignupStatusPolling';

const answer = (status: SignupStatusResponse['status']): SignupStatusResponse => ({
  status,
  external_id: 'pn-1',
  channel_id: 1,
  steps: [],
  error: null,
  already_connected: false,
});

function setup(answers: SignupStatusResponse['status'][], onStatus: (s: SignupStatusResponse) => boolean | void) {
  let i = 0;
  const http = createFakeHttp(() => answer(answers[Math.min(i++, answers.length - 1)]));
  const console = createConsole({ plugins: [], features: [], overrides: [overrideApi(httpApiRef, http)] });
  const wrapper = ({ children }: { children: ReactNode }) => <ConsoleProvider console={console}>{children}</ConsoleProvider>;
  const hook = renderHook(({ id }: { id: string | null }) => useSignupStatusPolling(id, onStatus), { wrapper, initialProps: { id: 'pn-1' as string | null } });
  return { http, hook };
}

const tick = async (ms: number) => {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
};

describe('useSignupStatusPolling', () => {
  afterEach(() => vi.useRealTimers());

  it('asks every 2 s with external_id and stops on unmount', async () => {
    vi.useFakeTimers();
    const seen: string[] = [];
    const { http, hook } = setup(['in_progress'], (s) => void seen.push(s.status));
    expect(SIGNUP_POLL_MS).toBe(2000);
    await tick(1999);
    expect(http.calls).toHaveLength(0);
    await tick(1);
    expect(http.calls).toHaveLength(1);
    expect(http.calls[0]).toMatchObject({ method: 'GET', path: '/api/wa-onboard/signup_status/', options: { query: { external_id: 'pn-1' } } });
    await tick(2000);
    expect(http.calls).toHaveLength(2);
    hook.unmount();
    await tick(10_000);
    expect(http.calls).toHaveLength(2);
    expect(seen).toEqual(['in_progress', 'in_progress']);
  });

  it('stops when onStatus says the status is final, or the id goes', async () => {
    vi.useFakeTimers();
    const { http } = setup(['in_progress', 'completed', 'completed'], (s) => s.status === 'completed');
    await tick(10_000);
    expect(http.calls).toHaveLength(2);

    const other = setup(['in_progress'], () => undefined);
    await tick(2000);
    const before = other.http.calls.length;
    other.hook.rerender({ id: null });
    await tick(10_000);
    expect(other.http.calls.length).toBe(before);
  });
});
