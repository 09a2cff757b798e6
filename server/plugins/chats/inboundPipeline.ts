/**
 * The inbound-message pipeline (chats' extension point): after a customer's message is stored, the
 * handlers other plugins added (flows, bots, the assistant, business hours) run in ascending order until
 * one has handled it. A room's messages go through one at a time, in arrival order, so an answer to an
 * earlier message is never overtaken by a later one's. (Within this process; across processes the
 * cluster work serialises it per room.)
 */
import type { Message } from '../../../contract/chats';
import type { InboundHandler, InboundPipeline } from './index';
import type { RoomRecord } from './views';

export class InboundPipelineRunner implements InboundPipeline {
  private handlers: InboundHandler[] = [];
  private readonly queues = new Map<number, Promise<void>>();

  add(handler: InboundHandler): void {
    if (this.handlers.some((h) => h.id === handler.id)) throw new Error(`Inbound handler "${handler.id}" is added twice`);
    // Stable: handlers of equal order keep the order they were added in.
    this.handlers = [...this.handlers, handler].sort((a, b) => a.order - b.order);
  }

  /** The handlers' ids in the order they run (tests, diagnostics). */
  get order(): string[] {
    return this.handlers.map((h) => h.id);
  }

  /** Runs the pipeline for one message once the room's earlier messages are through it. */
  run(room: RoomRecord, message: Message): Promise<void> {
    const previous = this.queues.get(room.id) ?? Promise.resolve();
    const run = previous.then(() => this.handle(room, message));
    const settled = run.catch(() => {});
    this.queues.set(room.id, settled);
    void settled.then(() => {
      if (this.queues.get(room.id) === settled) this.queues.delete(room.id);
    });
    return run;
  }

  private async handle(room: RoomRecord, message: Message): Promise<void> {
    for (const handler of this.handlers) {
      if ((await handler.handle(room, message)) === 'handled') return;
    }
  }
}
