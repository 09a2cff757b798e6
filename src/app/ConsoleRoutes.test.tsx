// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { ConsoleRoutes } from './ConsoleRoutes';

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <ConsoleRoutes
        title="Console"
        resources={[{ name: 'broadcasts' }, { name: 'contacts', list: () => <p>The contacts list</p> }]}
        outsideLayout={null}
        insideLayout={null}
        layout={({ children }: { children?: ReactNode }) => <main>{children}</main>}
        notification={() => null}
        accessDenied={() => <p>Access denied</p>}
        catchAll={() => <p>Page not found</p>}
      />
    </MemoryRouter>,
  );
}

describe('ConsoleRoutes', () => {
  it('serves a resource that has a page at /<name>', async () => {
    renderAt('/contacts');
    expect(await screen.findByText('The contacts list')).toBeInTheDocument();
  });

  it('answers "not found" at the address of a resource without a page, not a blank page', async () => {
    renderAt('/broadcasts');
    expect(await screen.findByText('Page not found')).toBeInTheDocument();
  });
});
