import 'reflect-metadata'; // tsyringe needs it before anything registers
import { lazy, StrictMode, Suspense, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useLocation } from 'react-router-dom';
import { requestStartupConfig } from '../core/features/startupRequest';
import { canView } from '../../contract/permissions';
import { openEarlySocket, savedSocketUrl } from '../core/realtime/earlySocket';

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
      {/* public/favicon.svg, inline as in index.html (no request to wait for) */}
      <svg viewBox="0 0 64 64" width={56} height={56} aria-hidden="true" style={{ opacity: 0.7 }}>
        <rect width="64" height="64" rx="14" fill="#0B1F3A" />
        <path d="M16 20h32a4 4 0 0 1 4 4v16a4 4 0 0 1-4 4H30l-9 7v-7h-5a4 4 0 0 1-4-4V24a4 4 0 0 1 4-4z" fill="#4FC3F7" />
        <circle cx="24" cy="32" r="3" fill="#0B1F3A" />
        <circle cx="32" cy="32" r="3" fill="#0B1F3A" />
        <circle cx="40" cy="32" r="3" fill="#FF8A00" />
      </svg>
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

// A signed-in path's shell starts with the server's start-up keys: asked now, beside the shell's download, not after it.
// The company's socket is opened now too (every signed-in page holds it, for the bell), for the realtime factory to
// take when it connects (earlySocket.ts).
if (!PUBLIC_PATH.test(window.location.pathname)) {
  requestStartupConfig(String(import.meta.env.VITE_API_BASE ?? ''));
  // Only where a page will hold it: not on the company picker and creation pages (/company/*, outside the shell's
  // frame), and for a member who may view the chats, whose bell holds it on every page (the chats plugin's).
  const socketUrl = /^\/company(\/|$)/.test(window.location.pathname)
    ? null
    : savedSocketUrl(localStorage, String(import.meta.env.VITE_SOCKET_DOMAIN ?? ''), location, (company) => canView(company.permissions, 'chats'));
  if (socketUrl) openEarlySocket(socketUrl);
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <ConsoleRoot />
    </BrowserRouter>
  </StrictMode>,
);
