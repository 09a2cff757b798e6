/**
 * The flow test chat's body and answer (POST /api/flows/{id}/test-chat/, server/plugins/flows/runtime/testChat.ts):
 * the bots' test-chat contract (contract/botRuntime.ts) plus `flow`, the editor's unsaved flow to run
 * instead of the stored one.
 */
import type { TestChatBody, TestChatResponse } from '../../../../contract/botRuntime';
import type { FlowSaveBody } from '../../../../contract/flows';

export type FlowTestChatBody = TestChatBody & { flow?: FlowSaveBody | null };
export type FlowTestChatResponse = TestChatResponse;
