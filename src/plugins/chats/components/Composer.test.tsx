// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { WHATSAPP_WINDOW_MS } from '../../../../contract/channels';
import type { Room } from '../../../../contract/chats';
import { i18nApiRef } from '../../../core';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { chatsPlugin } from '../index';
import { Composer } from './Composer';
import { createFakeHttp } from '../../../core/testing/fakeHttp';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const MIN = 60_000;
/** A WhatsApp room whose window closes in `ms`. */
const closingIn = (ms: number): Pick<Room, 'platform' | 'last_inbound_at'> => ({ platform: 'whatsapp', last_inbound_at: new Date(NOW + ms - WHATSAPP_WINDOW_MS).toISOString() });

function renderComposer(props: Partial<React.ComponentProps<typeof Composer>> = {}) {
  const onSend = vi.fn();
  const onTemplate = vi.fn();
  const view = renderPluginPage(<Composer onSend={onSend} onTemplate={onTemplate} {...props} />, { adminContext: false, route: false, plugins: [chatsPlugin], features: ['chats'] });
  return { ...view, onSend, onTemplate };
}

const countdown = () => screen.getByTestId('window-countdown');
const box = () => screen.getByRole('textbox', { name: /Type a message/ });

describe('Composer: WhatsApp 24-hour window', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  it('while open: "Window closes in 5 h 12 min", refreshed every 30 s, and a Template button', () => {
    const { onTemplate } = renderComposer({ room: closingIn((5 * 60 + 11) * MIN + 20_000) });
    expect(countdown()).toHaveTextContent('Window closes in 5 h 12 min');
    expect(countdown()).toHaveAttribute('data-warning', 'false');
    act(() => vi.advanceTimersByTime(29_000));
    expect(countdown()).toHaveTextContent('5 h 12 min');
    act(() => vi.advanceTimersByTime(1_000));
    expect(countdown()).toHaveTextContent('Window closes in 5 h 11 min');
    expect(box()).toBeEnabled();
    fireEvent.click(screen.getByRole('button', { name: 'Template' }));
    expect(onTemplate).toHaveBeenCalledTimes(1);
  });

  it('under an hour the countdown turns to the warning colour; it closes on time and the input gives way to the notice', () => {
    const { onTemplate, onSend } = renderComposer({ room: closingIn(45 * MIN) });
    expect(countdown()).toHaveTextContent('Window closes in 45 min');
    expect(countdown()).toHaveAttribute('data-warning', 'true');
    expect(countdown().className).toMatch(/colorWarning/);
    act(() => vi.advanceTimersByTime(44 * MIN + 30_000));
    expect(countdown()).toHaveTextContent('Window closes in 1 min');
    fireEvent.change(box(), { target: { value: 'last words' } });
    act(() => vi.advanceTimersByTime(30_000));
    // Closed: the notice, "Send template", and the typed text kept in a disabled input (nothing lost).
    expect(screen.queryByTestId('window-countdown')).not.toBeInTheDocument();
    const notice = screen.getByTestId('window-closed');
    expect(notice).toHaveTextContent('The 24-hour customer service window is closed. Send an approved template to reopen the conversation.');
    expect(box()).toBeDisabled();
    expect(box()).toHaveValue('last words');
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.click(within(notice).getByRole('button', { name: 'Send template' }));
    expect(onTemplate).toHaveBeenCalledTimes(1);
  });

  it('closed, or the customer never wrote: no text input, only the notice with "Send template"', () => {
    const { unmount } = renderComposer({ room: closingIn(-MIN) });
    expect(screen.getByTestId('window-closed')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
    unmount();
    renderComposer({ room: { platform: 'whatsapp', last_inbound_at: null } });
    expect(screen.getByRole('button', { name: 'Send template' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('other channels have no window: no countdown, no Template button', () => {
    renderComposer({ room: { platform: 'messenger', last_inbound_at: null }, onTemplate: undefined });
    expect(screen.queryByTestId('window-countdown')).not.toBeInTheDocument();
    expect(screen.queryByTestId('window-closed')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Template' })).not.toBeInTheDocument();
    expect(box()).toBeEnabled();
  });

  it('a refused send comes back into the input with the server message; dismissing calls back', () => {
    const onDismissRefusal = vi.fn();
    renderComposer({ room: closingIn(10 * MIN), refusal: { clientId: 'c-1', text: 'Are you there? 🙂', error: 'The 24-hour customer service window is closed: send an approved template instead.' }, onDismissRefusal });
    expect(screen.getByTestId('composer-refusal')).toHaveTextContent('The 24-hour customer service window is closed: send an approved template instead.');
    expect(box()).toHaveValue('Are you there? 🙂');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(onDismissRefusal).toHaveBeenCalled();
  });

  it('French, with plural-safe hours and minutes', () => {
    const { console: c } = renderComposer({ room: closingIn((2 * 60 + 1) * MIN) });
    act(() => void c.get(i18nApiRef).i18n.changeLanguage('fr'));
    expect(countdown()).toHaveTextContent('La fenêtre se ferme dans 2 h 1 min');
    act(() => vi.advanceTimersByTime(2 * 60 * MIN));
    expect(countdown()).toHaveTextContent('La fenêtre se ferme dans 1 min');
    act(() => vi.advanceTimersByTime(MIN));
    expect(screen.getByTestId('window-closed')).toHaveTextContent('La fenêtre de service client de 24 heures est fermée.');
    expect(screen.getByRole('button', { name: 'Envoyer un modèle' })).toBeInTheDocument();
  });
});

describe('Composer: a private note with a mention', () => {
  // In note mode the input is labelled for a note, not "Type a message".
  const noteBox = () => screen.getByRole('textbox');

  it('suggests members on @, inserts the chosen one once, and Enter then writes the note', async () => {
    const onNote = vi.fn();
    const onSend = vi.fn();
    const http = createFakeHttp((_method, path) => {
      if (path === '/api/chats/members/') {
        return { count: 2, results: [
          { user_id: 1, first_name: 'Ada', last_name: 'Admin', email: 'admin@demo.test', profile_avatar_url: null },
          { user_id: 2, first_name: 'Alex', last_name: 'Agent', email: 'agent@demo.test', profile_avatar_url: null },
        ] };
      }
      return { results: [] };
    });
    renderPluginPage(<Composer onSend={onSend} onNote={onNote} onTemplate={vi.fn()} />, { adminContext: false, route: false, plugins: [chatsPlugin], features: ['chats'], http });
    fireEvent.click(screen.getByTestId('composer-mode-note'));
    fireEvent.change(noteBox(), { target: { value: 'Refund approved? @ad' } });
    const suggestions = await screen.findByTestId('mention-suggestions');
    fireEvent.click(within(suggestions).getByRole('option', { name: /admin@demo\.test/ }));
    expect(noteBox()).toHaveValue('Refund approved? @admin@demo.test ');
    // The list closes with the mention complete: Enter writes the note, it does not insert the member again.
    expect(screen.queryByTestId('mention-suggestions')).not.toBeInTheDocument();
    fireEvent.keyDown(noteBox(), { key: 'Enter' });
    expect(onNote).toHaveBeenCalledTimes(1);
    expect(onNote.mock.calls[0][0]).toContain('Refund approved? @admin@demo.test');
    expect(onNote.mock.calls[0][0]).not.toContain('min@demo.test min@');
    expect(onSend).not.toHaveBeenCalled();
  });
});

describe('Composer: the copilot (issue #24)', () => {
  it('"Suggest a reply" fills the input with the suggestion and its sources; the agent edits, then sends', async () => {
    const onSuggest = vi.fn(async () => ({ text: 'Returns are free within 30 days.', sources: [{ id: 3, title: 'Returns and refunds' }] }));
    const { onSend } = renderComposer({ onSuggest, onSummarise: vi.fn(async () => true) });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Suggest a reply' })));
    expect(onSuggest).toHaveBeenCalledTimes(1);
    expect(box()).toHaveValue('Returns are free within 30 days.');
    expect(screen.getByTestId('suggestion-notice')).toHaveTextContent('From: Returns and refunds');
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.change(box(), { target: { value: 'Hi! Returns are free within 30 days.' } });
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('Hi! Returns are free within 30 days.');
  });

  it('nothing in the knowledge: the input stays as it was and a line says so; "Summarise" calls back; French', async () => {
    const onSummarise = vi.fn(async () => true);
    const { console: c } = renderComposer({ onSuggest: vi.fn(async () => ({ text: '', sources: [] })), onSummarise });
    fireEvent.change(box(), { target: { value: 'Draft' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Suggest a reply' })));
    expect(box()).toHaveValue('Draft');
    expect(screen.getByTestId('suggestion-notice')).toHaveTextContent('The knowledge holds no answer to the customer’s last messages.');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Summarise' })));
    expect(onSummarise).toHaveBeenCalledTimes(1);
    act(() => void c.get(i18nApiRef).i18n.changeLanguage('fr'));
    expect(screen.getByRole('button', { name: 'Suggérer une réponse' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Résumer' })).toBeInTheDocument();
  });

  it('without the callbacks (no chats manage) there are no copilot buttons', () => {
    renderComposer();
    expect(screen.queryByRole('button', { name: 'Suggest a reply' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Summarise' })).toBeNull();
  });
});
