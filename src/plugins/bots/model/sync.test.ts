import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { graph, step } from './fixtures';
import { addOption, addStep, connect, moveStep, optionNodeId, removeNodes } from './graph';
import { createSyncer, plan, type SyncBackend, type SyncEvent } from './sync';

function backend() {
  const calls: string[] = [];
  const b: SyncBackend & { calls: string[] } = {
    calls,
    createStep: vi.fn(async (s) => void calls.push(`create ${s.id} next=${s.next_step_id} opts=${s.options.map((o: { next_step: string | null }) => o.next_step).join(',')}`)),
    updateStep: vi.fn(async (id, patch) => void calls.push(`update ${id} next=${patch.next_step_id} opts=${patch.options.map((o: { next_step: string | null }) => o.next_step).join(',')}`)),
    deleteStep: vi.fn(async (id) => void calls.push(`delete ${id}`)),
    setStartStep: vi.fn(async (id) => void calls.push(`start ${id}`)),
  };
  return b;
}

describe('plan', () => {
  it('creates, updates (layout only or content) and deletes', () => {
    const saved = graph([step('a'), step('b'), step('c')]);
    let current = moveStep(saved, 'a', { x: 1, y: 2 });
    current = connect(current, { source: 'b', target: 'a' });
    current = removeNodes(current, ['c']);
    current = addStep(current, 'Hi', undefined, 'd').graph;
    const p = plan(saved, current);
    expect(p.creates.map((s) => s.id)).toEqual(['d']);
    expect(p.deletes).toEqual(['c']);
    expect(p.updates.find((u) => u.step.id === 'b')?.layoutOnly).toBe(false);
  });
});

describe('syncer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('debounces: many quick changes make one save of the last graph', async () => {
    const b = backend();
    const initial = graph([step('a')]);
    const s = createSyncer({ initial, backend: b, delayMs: 500 });
    let g = initial;
    for (let i = 0; i < 5; i++) {
      g = moveStep(g, 'a', { x: i, y: i });
      s.schedule(g);
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(b.updateStep).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(500);
    expect(b.updateStep).toHaveBeenCalledTimes(1);
    expect(vi.mocked(b.updateStep).mock.calls[0][1].layout).toEqual({ x: 4, y: 4 });
    expect(s.saved()).toBe(s.saved());
    expect(s.saved().steps[0].layout).toEqual({ x: 4, y: 4 });
  });

  it('creates new steps bare, then links them, then deletes: never a link to a missing step', async () => {
    const b = backend();
    const initial = graph([step('a', { o: null }), step('old')]);
    let g = addStep(initial, 'B', undefined, 'b').graph;
    g = connect(g, { source: optionNodeId('o'), target: 'b' });
    g = connect(g, { source: 'b', target: 'a' });
    g = removeNodes(g, ['old']);
    const events: SyncEvent[] = [];
    const s = createSyncer({ initial, backend: b, onEvent: (e) => events.push(e) });
    await s.flush(g);
    expect(b.calls).toEqual(['create b next=null opts=', 'update a next=null opts=b', 'update b next=a opts=', 'delete old']);
    expect(events.map((e) => e.type)).toEqual(['saving', 'created', 'updated', 'updated', 'deleted', 'saved']);
  });

  it('undo after a save sends the way back', async () => {
    const b = backend();
    const initial = graph([step('a')]);
    const s = createSyncer({ initial, backend: b });
    const changed = addOption(initial, 'a', 'Button', 'o1');
    await s.flush(changed);
    await s.flush(initial); // undo
    expect(vi.mocked(b.updateStep).mock.calls.map((c) => c[1].options.length)).toEqual([1, 0]);
  });

  it('reports an error and keeps the saved graph as it was for the failed step', async () => {
    const b = backend();
    b.updateStep = vi.fn(async () => {
      throw new Error('boom');
    });
    const initial = graph([step('a')]);
    const events: SyncEvent[] = [];
    const s = createSyncer({ initial, backend: b, onEvent: (e) => events.push(e) });
    await s.flush(moveStep(initial, 'a', { x: 1, y: 1 }));
    expect(events.find((e) => e.type === 'error')).toMatchObject({ op: 'update', stepId: 'a' });
    expect(s.saved().steps[0].layout).toBeNull();
  });

  it('saves a new start step', async () => {
    const b = backend();
    const initial = graph([step('a'), step('b')]);
    const s = createSyncer({ initial, backend: b });
    await s.flush({ ...initial, step: 'b' });
    expect(b.calls).toEqual(['start b']);
  });
});

describe('syncer: the fallback', () => {
  it('saves a new fallback step, and a hand-over (null) when it is cleared', async () => {
    const b = backend();
    b.setFallbackStep = vi.fn(async (id) => void b.calls.push(`fallback ${id}`));
    const initial = graph([step('a'), step('b')]);
    const events: SyncEvent[] = [];
    const s = createSyncer({ initial, backend: b, onEvent: (e) => events.push(e) });
    await s.flush({ ...initial, fallback_step_id: 'b' });
    await s.flush(initial); // undo: back to a person
    expect(b.calls).toEqual(['fallback b', 'fallback null']);
    expect(events.filter((e) => e.type === 'fallbackChanged').map((e) => (e as { stepId: string | null }).stepId)).toEqual(['b', null]);
    expect(s.saved().fallback_step_id).toBeNull();
  });

  it('deleting the fallback step clears the fallback before the deletion (the service refuses otherwise)', async () => {
    const b = backend();
    b.setFallbackStep = vi.fn(async (id) => void b.calls.push(`fallback ${id}`));
    const initial = { ...graph([step('a'), step('b')]), fallback_step_id: 'b' };
    const s = createSyncer({ initial, backend: b });
    await s.flush(removeNodes(initial, ['b']));
    expect(b.calls).toEqual(['fallback null', 'delete b']);
  });
});
