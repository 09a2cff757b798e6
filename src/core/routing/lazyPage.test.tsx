// @vitest-environment jsdom
import { Suspense } from 'react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { lazyPage } from './lazyPage';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const Page = () => <p>the page</p>;

describe('lazyPage', () => {
  it('preloaded, renders at once: no fallback, nothing for React to hold back', async () => {
    const Lazy = lazyPage(async () => ({ default: Page }));
    await Lazy.preload();
    render(
      <Suspense fallback={<p>loading</p>}>
        <Lazy />
      </Suspense>,
    );
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
    render(
      <Suspense fallback={<p>loading</p>}>
        <Lazy />
      </Suspense>,
    );
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
    render(
      <Suspense fallback={<p>loading</p>}>
        <Lazy />
      </Suspense>,
    );
    expect(screen.getByText('the page')).toBeInTheDocument();
    expect(attempt).toBe(2);
  });
});
