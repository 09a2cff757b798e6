import { useState, type ErrorInfo, type ReactNode } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { Error as ErrorPage } from 'react-admin';
import { ChunkLoadFailed } from './ChunkLoadFailed';
import { retryFailedLazyPages } from '../routing/lazyPage';
import { isChunkLoadError } from './chunkLoadError';

/**
 * What react-admin's layout and admin UI put around a page: a render error shows react-admin's error page (its
 * message, the component stack outside production, a way back) instead of a blank console, and a navigation resets
 * it. `minHeight` keeps a whole-screen fallback as tall as the screen. A page whose code could not be fetched (offline,
 * or removed by a newer deploy) gets a page of its own, whose one button loads the console again; a reset (another
 * page chosen) lets every lazy page whose import failed import again (lazyPage.ts).
 */
export function ErrorPageBoundary({ children, minHeight }: { children: ReactNode; minHeight?: string }) {
  const [errorInfo, setErrorInfo] = useState<ErrorInfo | undefined>(undefined);
  return (
    <ErrorBoundary
      onError={(_error, info) => setErrorInfo(info)}
      onReset={retryFailedLazyPages} // a page or part whose code could not be fetched is fetched again
      fallbackRender={({ error, resetErrorBoundary }) =>
        isChunkLoadError(error) ? (
          <ChunkLoadFailed minHeight={minHeight} resetErrorBoundary={resetErrorBoundary} />
        ) : (
          <div style={minHeight ? { minHeight } : undefined}>
            <ErrorPage error={error} errorInfo={errorInfo} resetErrorBoundary={resetErrorBoundary} />
          </div>
        )
      }
    >
      {children}
    </ErrorBoundary>
  );
}
