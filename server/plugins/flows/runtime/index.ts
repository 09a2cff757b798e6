/** The flow runtime (./runtime.ts) and the editor's test chat (./testChat.ts); the flows plugin wires both. */
export { FlowRuntime, type FlowRuntimeDeps } from './runtime';
export { registerFlowTestChat } from './testChat';
