import { describe, expect, it } from 'vitest';
import type { BotDraft } from '../../../../contract/botDrafts';
import { createDraftSaver, type DraftSaveEvent } from './draftSaver';
import { graph, step } from './fixtures';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const answer = { bot: 1, step: null, fallback_step_id: null, steps: [], problems: [], unpublished_changes: true, published_version: null, updated_at: '' } as BotDraft;

describe('the draft saver', () => {
  it('saves the whole graph, one save at a time; a change made meanwhile is saved right after, and only the last save says nothing more waits', async () => {
    const events: DraftSaveEvent[] = [];
    const calls: { steps: string[]; done: ReturnType<typeof deferred<BotDraft>> }[] = [];
    const saver = createDraftSaver({
      delayMs: 60_000,
      onEvent: (e) => events.push(e),
      save: (content) => {
        const done = deferred<BotDraft>();
        calls.push({ steps: content.steps.map((s) => s.id), done });
        return done.promise;
      },
    });
    const first = saver.flush(graph([step('a')]));
    expect(calls.map((c) => c.steps)).toEqual([['a']]);
    const second = saver.flush(graph([step('a'), step('b')]));
    calls[0].done.resolve(answer);
    await Promise.resolve();
    await Promise.resolve();
    expect(calls.map((c) => c.steps)).toEqual([['a'], ['a', 'b']]);
    calls[1].done.resolve(answer);
    await Promise.all([first, second]);
    expect(events.filter((e) => e.type === 'saved').map((e) => (e as { more: boolean }).more)).toEqual([true, false]);
    expect(saver.pending()).toBe(false);
    saver.dispose();
  });

  it('a failed save is reported and the graph is kept for the next change', async () => {
    const events: DraftSaveEvent[] = [];
    let fail = true;
    const saver = createDraftSaver({
      delayMs: 60_000,
      onEvent: (e) => events.push(e),
      save: async () => {
        if (fail) throw new Error('offline');
        return answer;
      },
    });
    await saver.flush(graph([step('a')]));
    expect(events.map((e) => e.type)).toEqual(['saving', 'error']);
    fail = false;
    await saver.flush(graph([step('a')]));
    expect(events.map((e) => e.type)).toEqual(['saving', 'error', 'saving', 'saved']);
    saver.dispose();
  });

  it('a change scheduled while a save is in flight is saved right after it, and then the canvas says saved (its timer does not leave it waiting)', async () => {
    const events: DraftSaveEvent[] = [];
    const calls: ReturnType<typeof deferred<BotDraft>>[] = [];
    const saver = createDraftSaver({
      delayMs: 20,
      onEvent: (e) => events.push(e),
      save: () => {
        const done = deferred<BotDraft>();
        calls.push(done);
        return done.promise;
      },
    });
    const first = saver.flush(graph([step('a')]));
    saver.schedule(graph([step('a'), step('b')])); // typed while the first save is in flight
    calls[0].resolve(answer);
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The loop went on with the waiting change at once: its timer has nothing left to do.
    expect(calls).toHaveLength(2);
    calls[1].resolve(answer);
    await first;
    await new Promise((resolve) => setTimeout(resolve, 40)); // past the delay
    const saved = events.filter((e): e is Extract<DraftSaveEvent, { type: 'saved' }> => e.type === 'saved');
    expect(saved.map((e) => e.more)).toEqual([true, false]);
    expect(saver.pending()).toBe(false);
    expect(saver.scheduled()).toBe(false);
    saver.dispose();
  });
});
