// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { Profiler } from 'react';
import { useQuery } from '@tanstack/react-query';
import { renderPluginPage } from '../testing/renderPluginPage';
import { ConsoleAppBar } from './ConsoleAppBar';

/** A query that never answers: the loading indicator shows while it runs. */
function Reloading() {
  useQuery({ queryKey: ['never'], queryFn: () => new Promise<never>(() => {}) });
  return null;
}

describe('ConsoleAppBar', () => {
  it('names the spinner it shows while a query reloads (axe: aria-progressbar-name)', async () => {
    renderPluginPage(
      <>
        <ConsoleAppBar />
        <Reloading />
      </>,
      { route: false, path: '/dashboard', signedIn: true },
    );
    expect(await screen.findByRole('progressbar', { name: 'Loading…' })).toBeInTheDocument();
  });

  it("draws react-admin's buttons: the side menu's (its name follows the menu), refresh, and the user menu", async () => {
    renderPluginPage(<ConsoleAppBar />, { route: false, path: '/dashboard', signedIn: true });
    const menuButton = await screen.findByRole('button', { name: /^(Open|Close) menu$/ });
    const before = menuButton.getAttribute('aria-label');
    fireEvent.click(menuButton);
    expect(await screen.findByRole('button', { name: before === 'Open menu' ? 'Close menu' : 'Open menu' })).toBe(menuButton);
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Profile' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Account', 'Sign out']);
  });

  it('schedules no render inside the commit that mounts it (MUI’s tooltips did, pulling the effects into that task)', async () => {
    const phases: string[] = [];
    await act(async () => {
      renderPluginPage(
        <Profiler id="app-bar" onRender={(_id, phase) => phases.push(phase)}>
          <ConsoleAppBar />
        </Profiler>,
        { route: false, path: '/dashboard', signedIn: true },
      );
    });
    expect(phases).toContain('mount');
    expect(phases).not.toContain('nested-update');
  });
});
