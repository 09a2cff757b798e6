import { describe, expect, it } from 'vitest';
import type { Message } from '../../../contract/chats';
import { InboundPipelineRunner } from './inboundPipeline';
import type { RoomRecord } from './views';

const room = (id: number) => ({ id }) as RoomRecord;
const message = (text: string) => ({ text, origin: 'user' }) as Message;
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('inbound pipeline', () => {
  it('runs handlers in ascending order until one has handled the message', async () => {
    const pipeline = new InboundPipelineRunner();
    const seen: string[] = [];
    pipeline.add({ id: 'bots', order: 200, handle: async () => (seen.push('bots'), 'handled') });
    pipeline.add({ id: 'flows', order: 100, handle: async (_room, m) => (seen.push('flows'), m.text === 'tour' ? 'handled' : 'passed') });
    expect(pipeline.order).toEqual(['flows', 'bots']);
    await pipeline.run(room(1), message('tour'));
    expect(seen).toEqual(['flows']);
    await pipeline.run(room(1), message('hi'));
    expect(seen).toEqual(['flows', 'flows', 'bots']);
  });

  it("handles a room's messages one at a time in arrival order, other rooms meanwhile", async () => {
    const pipeline = new InboundPipelineRunner();
    const log: string[] = [];
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    pipeline.add({
      id: 'slow',
      order: 1,
      handle: async (r, m) => {
        log.push(`start ${r.id}:${m.text}`);
        if (m.text === 'first') await firstHeld;
        log.push(`end ${r.id}:${m.text}`);
        return 'handled';
      },
    });
    const first = pipeline.run(room(1), message('first'));
    const second = pipeline.run(room(1), message('second'));
    const other = pipeline.run(room(2), message('other'));
    await other;
    await tick();
    expect(log).toEqual(['start 1:first', 'start 2:other', 'end 2:other']);
    releaseFirst();
    await Promise.all([first, second]);
    expect(log.slice(3)).toEqual(['end 1:first', 'start 1:second', 'end 1:second']);
  });

  it("a failing handler fails that message only: the room's next message still runs", async () => {
    const pipeline = new InboundPipelineRunner();
    pipeline.add({ id: 'flaky', order: 1, handle: async (_r, m) => { if (m.text === 'boom') throw new Error('boom'); return 'handled'; } });
    await expect(pipeline.run(room(1), message('boom'))).rejects.toThrow('boom');
    await expect(pipeline.run(room(1), message('fine'))).resolves.toBeUndefined();
  });

  it('refuses a handler id added twice', () => {
    const pipeline = new InboundPipelineRunner();
    pipeline.add({ id: 'x', order: 1, handle: async () => 'passed' });
    expect(() => pipeline.add({ id: 'x', order: 2, handle: async () => 'passed' })).toThrow(/added twice/);
  });
});
