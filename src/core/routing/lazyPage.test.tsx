// @vitest-environment jsdom
import { Suspense, type ComponentType } from 'react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ErrorBoundary } from 'react-error-boundary';
import { describe, expect, it } from 'vitest';
import { deferred } from '../testing/deferred';
import { lazyPage, retryFailedLazyPages } from './lazyPage';

const Page = () => <p>the page</p>;

function renderInSuspense(Lazy: ComponentType) {
  render(
    <Suspense fallback={<p>loading</p>}>
      <Lazy />
    </Suspense>,
  );
}

describe('lazyPage', () => {
  it('preloaded, renders at once: no fallback, nothing for React to hold back', async () => {
    const Lazy = lazyPage(async () => ({ default: Page }));
    await Lazy.preload();
    renderInSuspense(Lazy);
    expect(screen.getByText('the page')).toBeInTheDocument();
    expect(screen.queryByText('loading')).toBeNull();
  });

  it('not yet loaded, shows the fallback until its module is there, and loads it once', async () => {
    const chunk = deferred<{ default: typeof Page }>();
    let calls = 0;
    const Lazy = lazyPage(() => {
      calls++;
      return chunk.promise;
    });
    const preloading = Lazy.preload();
    renderInSuspense(Lazy);
    expect(screen.getByText('loading')).toBeInTheDocument();
    await act(async () => {
      chunk.resolve({ default: Page });
      await preloading;
    });
    expect(await screen.findByText('the page')).toBeInTheDocument();
    expect(calls).toBe(1);
  });

  it('a failed preload is tried again by the next one', async () => {
    let attempt = 0;
    const Lazy = lazyPage(async () => {
      attempt++;
      if (attempt === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return { default: Page };
    });
    await expect(Lazy.preload()).rejects.toThrow('Failed to fetch');
    await Lazy.preload();
    renderInSuspense(Lazy);
    expect(screen.getByText('the page')).toBeInTheDocument();
    expect(attempt).toBe(2);
  });

  it('a render whose import failed imports again when its error boundary resets (React.lazy alone keeps the failure)', async () => {
    let online = false;
    const Lazy = lazyPage(async () => {
      if (!online) throw new TypeError('Failed to fetch dynamically imported module');
      return { default: Page };
    });
    render(
      <ErrorBoundary onReset={retryFailedLazyPages} fallbackRender={({ resetErrorBoundary }) => <button onClick={resetErrorBoundary}>try again</button>}>
        <Suspense fallback={<p>loading</p>}>
          <Lazy />
        </Suspense>
      </ErrorBoundary>,
    );
    const tryAgain = await screen.findByRole('button', { name: 'try again' });
    online = true; // the network is back
    await userEvent.click(tryAgain);
    expect(await screen.findByText('the page')).toBeInTheDocument();
  });
});
