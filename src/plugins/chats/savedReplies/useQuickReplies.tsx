import { lazy, useId, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { AgentTemplate } from '../../../../contract/agentTemplates';
import { useSavedReplies } from './hooks';
import { WhenOpened } from '../components/WhenOpened';

const ManageRepliesDialog = lazy(() => import('./ManageRepliesDialog').then((m) => ({ default: m.ManageRepliesDialog })));
import { filterTemplates, insertTemplate, slashQuery } from './quickReply';
import { optionId, QuickReplyList } from './QuickReplyList';

export interface QuickReplies {
  open: boolean;
  /** The popup: render it inside a position: relative box. */
  popup: ReactNode;
  /** The management dialog: render it outside any form (React events bubble through its portal). */
  dialog: ReactNode;
  /** Keys while the popup is open (↑/↓, Enter, Tab, Esc); true when handled (the composer then does nothing more). */
  onKeyDown: (e: KeyboardEvent) => boolean;
  /** The "Saved replies" button: opens (or closes) the list. */
  toggle: () => void;
  /** ARIA attributes for the composer's input. */
  inputProps: Record<string, string | undefined>;
}

/**
 * The composer's saved replies: "/" at the start of the message opens the list filtered by what
 * follows; the "Saved replies" button opens it too. A chosen template replaces the "/query".
 */
export function useQuickReplies(text: string, setText: (text: string) => void, focusInput: () => void): QuickReplies {
  const { templates, loading, failed } = useSavedReplies();
  const listId = useId();
  const [byButton, setByButton] = useState(false);
  /** The text when Esc closed the popup: it stays closed until the text changes. */
  const [dismissedAt, setDismissedAt] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const [managing, setManaging] = useState(false);

  const query = slashQuery(text);
  const open = dismissedAt !== text && (byButton || query !== null);
  const shown = useMemo(() => filterTemplates(templates, query ?? ''), [templates, query]);
  const activeIndex = Math.min(active, Math.max(0, shown.length - 1));

  // A new query starts at the top of the list.
  const [lastQuery, setLastQuery] = useState(query);
  if (lastQuery !== query) {
    setLastQuery(query);
    setActive(0);
  }

  const close = () => {
    setByButton(false);
    setDismissedAt(text);
  };
  const pick = (template: AgentTemplate) => {
    const next = insertTemplate(text, template);
    setText(next);
    setByButton(false);
    setDismissedAt(next);
    focusInput();
  };

  const onKeyDown = (e: KeyboardEvent): boolean => {
    if (!open) return false;
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
      return true;
    }
    if (shown.length === 0) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + shown.length) % shown.length);
      return true;
    }
    if ((e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) || e.key === 'Tab') {
      e.preventDefault();
      pick(shown[activeIndex]);
      return true;
    }
    return false;
  };

  const popup = open && (
    <QuickReplyList
      id={listId}
      templates={shown}
      activeIndex={activeIndex}
      query={query ?? ''}
      loading={loading}
      failed={failed}
      hasAny={templates.length > 0}
      onPick={pick}
      onHover={setActive}
      onManage={() => {
        close();
        setManaging(true);
      }}
    />
  );
  const dialog = (
    <WhenOpened open={managing}>
      <ManageRepliesDialog open={managing} onClose={() => setManaging(false)} />
    </WhenOpened>
  );

  const activeTemplate = open ? shown[activeIndex] : undefined;
  return {
    open,
    popup,
    dialog,
    onKeyDown,
    toggle: () => {
      if (open) close();
      else {
        setDismissedAt(null);
        setByButton(true);
        setActive(0);
      }
      focusInput();
    },
    inputProps: {
      'aria-autocomplete': 'list',
      'aria-controls': open && shown.length ? listId : undefined,
      'aria-activedescendant': activeTemplate ? optionId(listId, activeTemplate) : undefined,
    },
  };
}
