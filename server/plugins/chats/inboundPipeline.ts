/**
 * The inbound-message pipeline (chats' extension point): after a customer's message is stored, the
 * handlers other plugins added (flows, bots, the assistant, business hours) run in ascending order until
 * one has handled it. Which message runs when, one at a time per room and in arrival order across every
 * process, is the inbound queue's business (./inboundQueue.ts); this is the ordered chain it runs.
 */
import type { Message } from '../../../contract/chats';
import type { InboundHandler, InboundPipeline } from './index';
import type { RoomRecord } from './views';

export class InboundPipelineRunner implements InboundPipeline {
  private handlers: InboundHandler[] = [];

  add(handler: InboundHandler): void {
    if (this.handlers.some((h) => h.id === handler.id)) throw new Error(`Inbound handler "${handler.id}" is added twice`);
    // Stable: handlers of equal order keep the order they were added in.
    this.handlers = [...this.handlers, handler].sort((a, b) => a.order - b.order);
  }

  /** The handlers' ids in the order they run (tests, diagnostics). */
  get order(): string[] {
    return this.handlers.map((h) => h.id);
  }

  /** Runs the handlers for one message, in ascending order, until one has handled it (a throw ends the chain). */
  async handle(room: RoomRecord, message: Message): Promise<void> {
    for (const handler of this.handlers) {
      if ((await handler.handle(room, message)) === 'handled') return;
    }
  }
}
