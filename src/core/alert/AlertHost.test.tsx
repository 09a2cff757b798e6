// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, useNotify } from 'react-admin';
import { alertApiRef } from '../apis';
import { ApiProvider } from '../di/ApiProvider';
import { createConsole } from '../plugins/createConsole';
import { i18nApiRef } from '../apis';
import { ConsoleNotification } from './ConsoleNotification';

function NotifyButton() {
  const notify = useNotify();
  return <button onClick={() => notify('ra.notification.updated', { type: 'success', messageArgs: { smart_count: 2 } })}>notify</button>;
}

function setup() {
  const console = createConsole({ plugins: [], features: [] });
  render(
    <ApiProvider registry={console.registry}>
      <AdminContext i18nProvider={console.get(i18nApiRef).provider}>
        <NotifyButton />
        <ConsoleNotification />
      </AdminContext>
    </ApiProvider>,
  );
  return console.get(alertApiRef);
}

describe('ConsoleNotification / AlertHost', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.useRealTimers());

  it('shows AlertApi alerts with a countdown bar and a loader', () => {
    vi.useFakeTimers();
    const alert = setup();
    act(() => alert.show('Saving…', 'info', { loader: true }));
    expect(screen.getByTestId('alert-text')).toHaveTextContent('Saving…');
    expect(document.querySelector('.MuiCircularProgress-root')).not.toBeNull();
    expect(document.querySelector('.MuiLinearProgress-root')).toHaveAttribute('aria-valuenow', '100');
    act(() => vi.advanceTimersByTime(2500));
    expect(document.querySelector('.MuiLinearProgress-root')).toHaveAttribute('aria-valuenow', '50');
    act(() => vi.advanceTimersByTime(2500));
    expect(alert.getState().active).toBe(false);
  });

  it('a second alert shown while the first is up gets its whole countdown', () => {
    vi.useFakeTimers();
    const alert = setup();
    act(() => alert.success('Saved once'));
    act(() => vi.advanceTimersByTime(4000));
    act(() => alert.success('Saved twice'));
    act(() => vi.advanceTimersByTime(1500)); // past the first alert's 5 s
    expect(alert.getState()).toMatchObject({ active: true, text: 'Saved twice' });
    expect(screen.getByTestId('alert-text')).toHaveTextContent('Saved twice');
    act(() => vi.advanceTimersByTime(3600));
    expect(alert.getState().active).toBe(false);
  });

  it("forwards react-admin's notifications into the one alert UI, translated", async () => {
    const alert = setup();
    await userEvent.click(screen.getByText('notify'));
    expect(await screen.findByText('2 elements updated')).toBeInTheDocument();
    expect(alert.getState()).toMatchObject({ active: true, type: 'success' });
    act(() => alert.dismiss());
  });
});
