/**
 * The start_flow action's flow starter, supplied by the flows plugin through the bots' extension
 * point (the bots never import the flows). Until one is set the action names no flow: the bot goes on.
 */
import type { Message } from '../../../../contract/chats';
import type { Database } from '../../../core/db/client';
import type { RoomRecord } from '../../chats';
import type { BotFlowStarter } from '../index';
import type { FlowStarter } from './runtime';

/**
 * Whether the company has a flow of that id (or that name, case-insensitive), read through `db`: the
 * caller's transaction when it is in one (an embedded database has one connection).
 */
export type FlowLookup = (companyId: number, flow: number | string, db: Database) => Promise<boolean>;

export class FlowStarterSlot implements BotFlowStarter {
  private starter: FlowStarter | null = null;
  private lookup: FlowLookup | null = null;

  set(starter: FlowStarter, lookup?: FlowLookup): void {
    if (this.starter) throw new Error('A flow starter is set twice');
    this.starter = starter;
    this.lookup = lookup ?? null;
  }

  /** Whether the company has the flow a start_flow action names (null: no flows plugin, nothing to check against). */
  exists(companyId: number, flow: number | string, db: Database): Promise<boolean> | null {
    return this.lookup ? this.lookup(companyId, flow, db) : null;
  }

  start(room: RoomRecord, flow: number | string, inbound: Message): Promise<boolean> {
    return this.starter ? this.starter(room, flow, inbound) : Promise.resolve(false);
  }
}
