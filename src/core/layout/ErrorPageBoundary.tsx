import { useState, type ErrorInfo, type ReactNode } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { Error as ErrorPage } from 'react-admin';

/**
 * What react-admin's layout and admin UI put around a page: a render error shows react-admin's error page (its
 * message, the component stack outside production, a way back) instead of a blank console, and a navigation resets
 * it. `minHeight` keeps a whole-screen fallback as tall as the screen.
 */
export function ErrorPageBoundary({ children, minHeight }: { children: ReactNode; minHeight?: string }) {
  const [errorInfo, setErrorInfo] = useState<ErrorInfo | undefined>(undefined);
  return (
    <ErrorBoundary
      onError={(_error, info) => setErrorInfo(info)}
      fallbackRender={({ error, resetErrorBoundary }) => (
        <div style={minHeight ? { minHeight } : undefined}>
          <ErrorPage error={error} errorInfo={errorInfo} resetErrorBoundary={resetErrorBoundary} />
        </div>
      )}
    >
      {children}
    </ErrorBoundary>
  );
}
