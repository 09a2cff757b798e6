import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { AccessGuard, RequireSession } from '../routing/guards';
import { ConsoleAppBar } from './ConsoleAppBar';
import { ConsoleMenu } from './ConsoleMenu';
import { PendingInvitationsNotice } from './PendingInvitationsNotice';

/**
 * The dashboard shell. Everything inside needs login and a selected company, and the global
 * access guard decides before any page content renders.
 */
export function ConsoleLayout({ children }: { children?: ReactNode }) {
  return (
    <RequireSession>
      <Layout appBar={ConsoleAppBar} menu={ConsoleMenu}>
        <PendingInvitationsNotice />
        <AccessGuard>{children}</AccessGuard>
      </Layout>
    </RequireSession>
  );
}
