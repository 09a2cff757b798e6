// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { useQuery } from '@tanstack/react-query';
import { renderPluginPage } from '../testing/renderPluginPage';
import { ConsoleAppBar } from './ConsoleAppBar';

/** A query that never answers: react-admin's loading indicator shows while it runs. */
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
});
