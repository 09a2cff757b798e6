/**
 * The canvas's state: the bot graph with undo/redo, a drag preview, and the debounced saver that
 * sends every change to the bot's DRAFT (issue #25): half-built steps are saved as they are, never
 * refused; what they still lack is shown on their nodes, and Publish makes the draft live.
 * The spec's alerts (§8) still mark a step added, deleted or changed once its save is done.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlert, useApi } from '../../../core';
import { botServiceApiRef } from '../api/botService';
import type { BotDraft } from '../../../../contract/botDrafts';
import { canRedo, canUndo, createHistory, record, redo, undo, type History } from '../model/history';
import { createDraftSaver, type DraftSaveEvent, type DraftSaver } from '../model/draftSaver';
import type { BotGraph, BotStep } from '../model/types';

export type SaveStatus = 'saved' | 'pending' | 'saving' | 'error';

export const SAVE_DELAY_MS = 700;

export function graphOf(draft: BotDraft): BotGraph {
  return { id: draft.bot, step: draft.step, fallback_step_id: draft.fallback_step_id, steps: draft.steps };
}

/** A step without its position on the canvas (moving a node is no change worth an alert). */
function contentKey(step: BotStep): string {
  return JSON.stringify({ ...step, layout: null, position: 0 });
}

/** Which alert a save deserves: a step added, deleted, or changed (other than moved). */
export function saveAlert(before: BotGraph, after: BotGraph): 'stepAdded' | 'stepDeleted' | 'stepUpdated' | null {
  const old = new Map(before.steps.map((s) => [s.id, s]));
  const now = new Set(after.steps.map((s) => s.id));
  if (after.steps.some((s) => !old.has(s.id))) return 'stepAdded';
  if (before.steps.some((s) => !now.has(s.id))) return 'stepDeleted';
  const changed = after.steps.some((s) => contentKey(s) !== contentKey(old.get(s.id)!));
  if (changed || (before.fallback_step_id ?? null) !== (after.fallback_step_id ?? null) || before.step !== after.step) return 'stepUpdated';
  return null;
}

export function useBotEditor(initial: BotDraft) {
  const { t } = useTranslation();
  const alert = useAlert();
  const service = useApi(botServiceApiRef);
  const [history, setHistory] = useState<History<BotGraph>>(() => createHistory(graphOf(initial)));
  const [preview, setPreview] = useState<BotGraph | null>(null);
  const [status, setStatus] = useState<SaveStatus>('saved');
  /** The draft as the server last answered it (publish state, version). */
  const [draft, setDraft] = useState<BotDraft>(initial);
  const saverRef = useRef<DraftSaver | null>(null);
  const lastSaved = useRef<BotGraph>(graphOf(initial));

  const onEvent = useCallback(
    (event: DraftSaveEvent) => {
      switch (event.type) {
        case 'saving':
          setStatus('saving');
          break;
        case 'error':
          setStatus('error');
          alert.error(t('bots.draft.saveError'));
          break;
        case 'saved': {
          const which = saveAlert(lastSaved.current, event.graph);
          lastSaved.current = event.graph;
          setDraft(event.draft);
          setStatus(event.more ? 'pending' : 'saved');
          if (which) alert.success(t(`bots.canvas.${which}`));
          break;
        }
      }
    },
    [alert, t],
  );

  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;
  if (!saverRef.current) {
    saverRef.current = createDraftSaver({
      delayMs: SAVE_DELAY_MS,
      onEvent: (e) => onEventRef.current(e),
      save: (content) => service.saveDraft(initial.bot, content),
    });
  }
  // leaving the canvas saves what is still waiting
  useEffect(() => {
    const saver = saverRef.current!;
    return () => {
      if (saver.pending()) void saver.flush();
      saver.dispose();
    };
  }, []);

  const graph = preview ?? history.present;

  /** Records a change (undoable) and saves it: now for additions and deletions, debounced otherwise. */
  const commit = useCallback((next: BotGraph, options: { coalesce?: string; now?: boolean } = {}) => {
    setPreview(null);
    setHistory((h) => record(h, next, options.coalesce));
    setStatus('pending');
    if (options.now) void saverRef.current!.flush(next);
    else saverRef.current!.schedule(next);
  }, []);

  const applyHistory = useCallback((fn: (h: History<BotGraph>) => History<BotGraph>) => {
    setPreview(null);
    setHistory((h) => {
      const next = fn(h);
      if (next !== h) {
        setStatus('pending');
        saverRef.current!.schedule(next.present);
      }
      return next;
    });
  }, []);

  /** Replaces the whole graph with what the server answered (a restored version), as a new undoable state. */
  const replace = useCallback((next: BotDraft) => {
    const nextGraph = graphOf(next);
    lastSaved.current = nextGraph;
    setPreview(null);
    setHistory((h) => record(h, nextGraph));
    setDraft(next);
    setStatus('saved');
  }, []);

  return useMemo(
    () => ({
      graph,
      status,
      draft,
      setDraft,
      replace,
      commit,
      setPreview,
      undo: () => applyHistory(undo),
      redo: () => applyHistory(redo),
      canUndo: canUndo(history),
      canRedo: canRedo(history),
      flush: () => saverRef.current!.flush(),
    }),
    [graph, status, draft, replace, commit, applyHistory, history],
  );
}
