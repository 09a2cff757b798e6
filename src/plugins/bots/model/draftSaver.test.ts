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
});
