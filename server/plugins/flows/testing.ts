/**
 * Test helpers of the flows plugin, the only way other plugins' tests reach into it: the runtime's
 * table, which the inbound pipeline's crash tests read (server/plugins/chats/killedMidAnswer.test.ts).
 */
export { flowRuns } from './schema';
