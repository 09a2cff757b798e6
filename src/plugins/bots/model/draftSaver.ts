/**
 * Saves the canvas's graph to the bot's draft (issue #25): one PUT of the whole graph, debounced,
 * one at a time (a change made while a save is in flight is saved right after it). The draft accepts
 * half-built steps, so a save fails only when the server cannot be reached or refuses what is no
 * draft at all; the canvas keeps the graph and the next change tries again.
 */
import type { BotDraft } from '../../../../contract/botDrafts';
import { contentOf } from './problems';
import type { BotGraph } from './types';

/** `more`: another change waits to be saved (the canvas still says "not saved yet"). */
export type DraftSaveEvent = { type: 'saving' } | { type: 'saved'; draft: BotDraft; graph: BotGraph; more: boolean } | { type: 'error'; error: unknown };

export interface DraftSaver {
  /** Saves `graph` after the delay (a later call replaces it). */
  schedule(graph: BotGraph): void;
  /** Saves now what is scheduled (or `graph`), and resolves once everything is saved. */
  flush(graph?: BotGraph): Promise<void>;
  /** A save is scheduled or in flight. */
  pending(): boolean;
  /** A save is scheduled (not yet started). */
  scheduled(): boolean;
  dispose(): void;
}

export function createDraftSaver(options: { delayMs: number; save: (body: ReturnType<typeof contentOf>) => Promise<BotDraft>; onEvent: (event: DraftSaveEvent) => void }): DraftSaver {
  let waiting: BotGraph | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  let disposed = false;

  const clearTimer = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };

  async function run(): Promise<void> {
    while (waiting && !disposed) {
      const graph = waiting;
      waiting = null;
      // A change scheduled while the previous save was in flight is saved now: its timer has nothing left to do,
      // and left running it would make this save say "more waits" with nothing to follow (stuck "not saved yet").
      clearTimer();
      options.onEvent({ type: 'saving' });
      try {
        const draft = await options.save(contentOf(graph));
        if (!disposed) options.onEvent({ type: 'saved', draft, graph, more: waiting !== null || timer !== null });
      } catch (error) {
        if (!disposed) options.onEvent({ type: 'error', error });
        return;
      }
    }
  }

  function start(): Promise<void> {
    clearTimer();
    if (!running) {
      running = run().finally(() => {
        running = null;
        // a change scheduled while saving, whose timer already fired
        if (waiting && !timer && !disposed) void start();
      });
    }
    return running;
  }

  return {
    schedule(graph) {
      waiting = graph;
      clearTimer();
      timer = setTimeout(() => {
        timer = null;
        void start();
      }, options.delayMs);
    },
    async flush(graph) {
      if (graph) waiting = graph;
      if (!waiting && !running) return;
      await start();
      if (waiting) await start();
    },
    pending: () => waiting !== null || running !== null,
    scheduled: () => timer !== null,
    dispose() {
      disposed = true;
      clearTimer();
    },
  };
}
