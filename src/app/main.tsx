import 'reflect-metadata'; // tsyringe needs it before anything registers
import { lazy, StrictMode, Suspense, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useLocation } from 'react-router-dom';

/**
 * Two lazy chunks (bench/bundle checks their weight): the signed-out pages (sign-in, sign-up,
 * password reset, sandbox simulator) without react-admin's shell, and the shell with the plugins,
 * loaded when any other route opens. Once loaded, the shell stays: it has the /auth pages too.
 */
const PublicPages = lazy(() => import('./PublicPages'));
const ConsoleShell = lazy(() => import('./ConsoleShell'));

/** Kept in step with PUBLIC_PATH in PublicPages.tsx (not imported: it would pull that chunk in). */
const PUBLIC_PATH = /^\/(auth|sandbox)(\/|$)/;

/** The same as index.html's boot splash, so the page does not blink between the two while a chunk loads. */
function Loading() {
  return (
    <div role="progressbar" aria-label="Loading" aria-busy="true" style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <img src="/favicon.svg" alt="" width={56} height={56} style={{ opacity: 0.7 }} />
    </div>
  );
}

function ConsoleRoot() {
  const { pathname } = useLocation();
  const isPublic = PUBLIC_PATH.test(pathname);
  const [shellOpened, setShellOpened] = useState(!isPublic);
  useEffect(() => {
    if (!isPublic) setShellOpened(true);
  }, [isPublic]);
  const showShell = shellOpened || !isPublic;
  return <Suspense fallback={<Loading />}>{showShell ? <ConsoleShell /> : <PublicPages />}</Suspense>;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <ConsoleRoot />
    </BrowserRouter>
  </StrictMode>,
);
