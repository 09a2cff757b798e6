/**
 * The start_flow action's flow starter, supplied by the flows plugin through the bots' extension
 * point (the bots never import the flows). Until one is set the action names no flow: the bot goes on.
 */
import type { Message } from '../../../../contract/chats';
import type { RoomRecord } from '../../chats';
import type { BotFlowStarter } from '../index';
import type { FlowStarter } from './runtime';

export class FlowStarterSlot implements BotFlowStarter {
  private starter: FlowStarter | null = null;

  set(starter: FlowStarter): void {
    if (this.starter) throw new Error('A flow starter is set twice');
    this.starter = starter;
  }

  start(room: RoomRecord, flow: number | string, inbound: Message): Promise<boolean> {
    return this.starter ? this.starter(room, flow, inbound) : Promise.resolve(false);
  }
}
