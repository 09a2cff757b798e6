// @vitest-environment jsdom
import { lazy, Suspense, type ReactElement } from 'react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { membership, testUser } from '../account/testUsers';
import { createFakeHttp } from '../testing/fakeHttp';
import { renderPluginPage } from '../testing/renderPluginPage';
import { NavigationMemoryProvider } from '../routing/NavigationMemory';
import { ConsoleLayout } from './ConsoleLayout';
import { ChunkLoadFailed } from './ChunkLoadFailed';
import { isChunkLoadError } from './chunkLoadError';

function Broken(): never {
  throw new Error('the page broke');
}

function renderLayout(page: ReactElement) {
  const http = createFakeHttp((method, path) => {
    if (method === 'GET' && path === '/api/invitations/') return { count: 0, results: [] };
    throw new Error(`unexpected ${method} ${path}`);
  });
  // As the console does (src/app/App.tsx): the access guard inside the layout remembers the last allowed path.
  return renderPluginPage(
    <NavigationMemoryProvider>
      <ConsoleLayout>{page}</ConsoleLayout>
    </NavigationMemoryProvider>,
    {
    route: false,
    path: '/dashboard',
    signedIn: true,
    user: testUser([membership(1)]),
    companyId: 1,
    http,
    },
  );
}

describe('ConsoleLayout', () => {
  afterEach(() => vi.restoreAllMocks());

  it('frames the page with the skip link, the app bar and the menu, without reading the page width (that forced a layout)', async () => {
    // react-admin's Layout renders its preferences Inspector, which reads this on every render.
    const clientWidth = vi.spyOn(document.body, 'clientWidth', 'get').mockReturnValue(1440);
    renderLayout(<p>The page itself</p>);
    expect((await screen.findByText('The page itself')).closest('#main-content')).not.toBeNull();
    expect(document.querySelector('header')).not.toBeNull();
    expect(document.querySelector('.MuiDrawer-docked')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Skip to content' })).toHaveClass('skip-nav-button');
    // Not inside a tooltip (MUI's re-renders itself once mounted, inside the load's longest task).
    expect(document.querySelector('[aria-label="Skip to content"]')).toBeNull();
    expect(clientWidth).not.toHaveBeenCalled();
  });

  it('shows react-admin\'s error page in place of a page that throws, and keeps the frame', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {}); // React reports the caught error
    renderLayout(<Broken />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong');
    expect(screen.getAllByText(/the page broke/).length).toBeGreaterThan(0); // the page's own error, not the frame's
    expect(document.querySelector('header')).not.toBeNull();
  });

  it("shows a page of its own, with a way to load the console again, when a page's code cannot be fetched", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // What Chromium throws for a chunk the network refused, or that a newer deploy removed.
    const Unfetchable = lazy(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/RoomView-0ld.js')));
    renderLayout(
      <Suspense fallback={null}>
        <Unfetchable />
      </Suspense>,
    );
    expect(await screen.findByRole('heading', { name: 'This page could not be loaded' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(screen.queryByText(/dynamically imported module/)).toBeNull(); // not the browser's words
    expect(document.querySelector('header')).not.toBeNull();
  });
});

describe('a page whose code could not be fetched', () => {
  it("is told from other errors in each browser's words", () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: https://x/assets/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: https://x/assets/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/a.css'))).toBe(true);
    expect(isChunkLoadError(new Error('the page broke'))).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });

  it('loads the console again from its button', async () => {
    const reload = vi.fn();
    renderPluginPage(<ChunkLoadFailed reload={reload} />, { route: false });
    await userEvent.click(await screen.findByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
