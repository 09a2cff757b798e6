/**
 * The account page's extension point: another plugin adds a section to /account by registering it
 * here from its `onInit` (e.g. billing's subscription and invoices). Sections show below the
 * account's own, lower `order` first, each only to members with view access to its `area`.
 */
import type { ComponentType } from 'react';
import { createApiFactory, createApiRef } from '../../core';

export interface AccountSection {
  /** Unique id, e.g. 'billing'. */
  id: string;
  component: ComponentType;
  /** Permission area whose view access shows the section (always shown when absent). */
  area?: string;
  /** Lower first. */
  order?: number;
}

export interface AccountSections {
  /** Adds a section; a second section with the same id replaces the first. */
  register(section: AccountSection): void;
  list(): AccountSection[];
}

export const accountSectionsApiRef = createApiRef<AccountSections>({ id: 'plugin.account.sections' });

export function createAccountSections(): AccountSections {
  const sections = new Map<string, AccountSection>();
  return {
    register(section) {
      sections.set(section.id, section);
    },
    list() {
      return [...sections.values()].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
    },
  };
}

export const accountSectionsApiFactory = createApiFactory({ api: accountSectionsApiRef, deps: {}, factory: () => createAccountSections() });
