import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import { createConsole, type ApiOverride, type Console } from '../plugins/createConsole';
import { ConsoleProvider } from '../plugins/ConsoleContext';
import { i18nApiRef } from '../apis';
import type { ConsolePlugin } from '../plugins/types';

type Strings = Record<string, Record<string, unknown>>;
const modules = import.meta.glob<Record<string, Strings>>(['../../plugins/*/translations.ts', '../../plugins/*/lazyTranslations.ts'], { eager: true });

/** A plugin's lazily loaded strings, per locale: its lazyTranslations.ts (merged parts) or its translations.ts. */
function pluginStrings(id: string): Strings | undefined {
  const merged = modules[`../../plugins/${id}/lazyTranslations.ts`]?.lazyTranslations;
  if (merged) return merged;
  const own = modules[`../../plugins/${id}/translations.ts`];
  return own ? Object.values(own).find((v) => typeof v === 'object' && v !== null && 'en' in v) : undefined;
}

/**
 * Adds the enabled plugins' lazy strings (ConsolePlugin.lazyTranslations, loaded with a route's page
 * in the console) at once: tests render a page without its route.
 */
export function addLazyPluginStrings(console: Console): void {
  const i18n = console.get(i18nApiRef);
  for (const plugin of console.plugins) {
    const strings = pluginStrings(plugin.id);
    if (strings) i18n.addResources(strings);
  }
}

/** Renders `ui` inside a console (APIs, i18n, router) for hook/component tests. */
export function renderWithConsole(
  ui: ReactNode,
  options: { overrides?: ApiOverride[]; plugins?: ConsolePlugin[]; features?: string[]; path?: string } = {},
) {
  const console = createConsole({ plugins: options.plugins ?? [], features: options.features ?? [], overrides: options.overrides });
  addLazyPluginStrings(console);
  const result = render(
    <ConsoleProvider console={console}>
      <I18nextProvider i18n={console.get(i18nApiRef).i18n}>
        <MemoryRouter initialEntries={[options.path ?? '/']}>{ui}</MemoryRouter>
      </I18nextProvider>
    </ConsoleProvider>,
  );
  return { ...result, console };
}
