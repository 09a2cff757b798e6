// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { i18nApiRef } from '../apis';
import { renderPluginPage } from '../testing/renderPluginPage';
import { LanguageMenuButton } from './LanguageMenuButton';

describe('LanguageMenuButton', () => {
  it('says the language the page is shown in: the chosen one only once its strings have loaded', async () => {
    const { console } = renderPluginPage(<LanguageMenuButton />, { route: false, path: '/chats', signedIn: true });
    const i18n = console.get(i18nApiRef);
    // An opened plugin whose French strings are still on their way (a chunk over a slow network).
    let arrive: (messages: Record<string, unknown>) => void = () => {};
    i18n.registerBundle('slow', { en: async () => ({}), fr: () => new Promise((resolve) => (arrive = resolve)) });
    await act(() => i18n.loadBundles(['slow']));

    fireEvent.click(screen.getByRole('button', { name: 'English' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Français' }));
    // react-admin has stored the choice; the page is still English, and so is the button.
    await act(async () => {});
    expect(screen.getByRole('button', { name: 'English' })).toBeInTheDocument();
    expect(i18n.i18n.language).toBe('en');

    await act(async () => arrive({ slow: { title: 'Lent' } }));
    expect(await screen.findByRole('button', { name: 'Français' })).toBeInTheDocument();
    expect(i18n.i18n.language).toBe('fr');
  });

  it('mounts its menu only while open, and says which menu it controls then', async () => {
    localStorage.clear(); // the test above chose French
    renderPluginPage(<LanguageMenuButton />, { route: false, path: '/chats', signedIn: true });
    const button = screen.getByRole('button', { name: 'English' });
    expect(document.getElementById('language-menu')).toBeNull();
    expect(button).not.toHaveAttribute('aria-controls');
    fireEvent.click(button);
    expect(await screen.findByRole('menuitem', { name: 'Français' })).toBeInTheDocument();
    expect(button).toHaveAttribute('aria-controls', 'language-menu');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(document.getElementById('language-menu')).not.toBeNull();
  });
});
