import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import { createConsole, type ApiOverride } from '../plugins/createConsole';
import { ConsoleProvider } from '../plugins/ConsoleContext';
import { i18nApiRef } from '../apis';
import type { ConsolePlugin } from '../plugins/types';

/** Renders `ui` inside a console (APIs, i18n, router) for hook/component tests. */
export function renderWithConsole(
  ui: ReactNode,
  options: { overrides?: ApiOverride[]; plugins?: ConsolePlugin[]; features?: string[]; path?: string } = {},
) {
  const console = createConsole({ plugins: options.plugins ?? [], features: options.features ?? [], overrides: options.overrides });
  const result = render(
    <ConsoleProvider console={console}>
      <I18nextProvider i18n={console.get(i18nApiRef).i18n}>
        <MemoryRouter initialEntries={[options.path ?? '/']}>{ui}</MemoryRouter>
      </I18nextProvider>
    </ConsoleProvider>,
  );
  return { ...result, console };
}
