/**
 * The flow editor's test chat (issue #13): the live runtime's engine (./engine: startFlow,
 * continueFlow, keywords, hand-over) on a private conversation whose state the client carries —
 * the bots' test-chat contract (contract/botRuntime.ts TestChatBody/TestChatResponse), plus `flow`:
 * the editor's unsaved flow (validated like a save) to run instead of the stored one.
 *
 *   POST /api/flows/{id}/test-chat/   → 200 TestChatResponse   (main API: bearer + Company, flows manage)
 *
 * Nothing is stored: no room, no run, no step visit (the editor's per-step counts stay the customers').
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { TestChatBody, type TestChatAction, type TestChatMessage, type TestChatResponse, type TestChatState } from '../../../../contract/botRuntime';
import { FlowSaveBody } from '../../../../contract/flows';
import { access } from '../../../core/access';
import { notFound } from '../../../core/errors';
import { mediaUrlForCompany } from '../../../providers/storage/privateMedia';
import type { OutgoingBotMessage } from '../../bots';
import type { MediaStorage } from '../../../providers/storage/types';
import type { FlowService } from '../service';
import { continueFlow, flowForKeyword, HAND_OVER_TEXT, isHandOver, startFlow, type FlowPlan, type RuntimeFlow } from './engine';

export const FlowTestChatBody = TestChatBody.extend({
  /** The editor's flow as it is now (unsaved); null/absent: the stored flow. */
  flow: FlowSaveBody.nullable().default(null),
});
export type ParsedFlowTestChatBody = z.output<typeof FlowTestChatBody>;

/** The step a message belongs to: its buttons' step, else the visited step that says this text. */
function stepOf(out: OutgoingBotMessage, flow: RuntimeFlow, visited: readonly string[]): string | null {
  const fromButton = out.buttons?.[0]?.id.match(/^flow:(.+):\d+$/)?.[1];
  if (fromButton) return fromButton;
  if (out.text === null) return null;
  return visited.find((id) => flow.steps.find((s) => s.step_id === id)?.step_msg === out.text) ?? null;
}

/**
 * One turn of the test conversation. Pure: the state comes in and goes out with the answer. `otherFlow`: the
 * company's other flow whose keyword the text is (the caller looks it up), which in a room would take the
 * conversation over; the test chat says so (a start_flow action, not applied) and ends, instead of reading
 * the keyword as an answer to this flow or staying silent (issue #25: "a second flow's keyword got no reply").
 */
export function runFlowTestChat(
  flow: RuntimeFlow,
  body: Pick<ParsedFlowTestChatBody, 'state' | 'reset' | 'text' | 'button_id'>,
  signMedia: (url: string | null) => string | null,
  otherFlow: { flow_name: string } | null = null,
): TestChatResponse {
  const incoming: TestChatState | null = body.reset ? null : body.state;
  const answer = (plan: FlowPlan | null, state: { stepId: string | null; handedOver: boolean }, actions: TestChatAction[] = []): TestChatResponse => {
    const visited = plan?.visited ?? [];
    const messages: TestChatMessage[] = (plan?.messages ?? []).map((out) => ({ type: out.type, text: out.text, media_url: signMedia(out.media_url), buttons: out.buttons, step_id: stepOf(out, flow, visited) }));
    return {
      messages,
      actions,
      step_id: state.stepId,
      visited: [...visited],
      handed_over: state.handedOver,
      state: { step_id: state.stepId, fallback_count: 0, handed_over: state.handedOver, variables: {} },
    };
  };
  const fromPlan = (plan: FlowPlan) => answer(plan, { stepId: plan.status === 'active' ? plan.stepId : null, handedOver: plan.status === 'handed_over' });

  // A new conversation: the flow as a keyword starts it.
  if (!incoming) return fromPlan(startFlow(flow));
  // Handed over: a person answers now; start over with reset.
  if (incoming.handed_over) return answer(null, { stepId: null, handedOver: true });
  const reply = { buttonId: body.button_id, text: body.text };
  // As in a room: one of the flow's keywords alone starts it again.
  if (!reply.buttonId && flowForKeyword([flow], reply.text)) return fromPlan(startFlow(flow));
  // Another flow's keyword: in a room that flow starts now (keywords win over a running flow).
  if (!reply.buttonId && otherFlow) {
    const starts: TestChatAction = { step_id: null, type: 'start_flow', description: `Starts the flow "${otherFlow.flow_name}": in a conversation, that flow answers now`, applied: false, error: null };
    return answer(null, { stepId: null, handedOver: false }, [starts]);
  }
  // Ended: the live runtime leaves the message to the bot; the test chat stays silent.
  if (incoming.step_id === null) return answer(null, { stepId: null, handedOver: false });
  if (isHandOver(reply.text)) {
    return answer({ messages: [{ type: 'text', text: HAND_OVER_TEXT, media_url: null, buttons: null }], stepId: incoming.step_id, status: 'handed_over', visited: [] }, { stepId: null, handedOver: true });
  }
  return fromPlan(continueFlow(flow, incoming.step_id, reply));
}

type IdParams = { Params: { id: string } };

/** Registers POST /api/flows/{id}/test-chat/ on the main API. */
export function registerFlowTestChat(app: FastifyInstance, flows: FlowService, storage: MediaStorage): void {
  app.post<IdParams & { Body: ParsedFlowTestChatBody }>(
    '/api/flows/:id/test-chat/',
    { config: { access: access.company('flows', 'manage') }, schema: { body: FlowTestChatBody } },
    async (request: FastifyRequest<IdParams & { Body: ParsedFlowTestChatBody }>) => {
      if (!/^\d{1,9}$/.test(request.params.id) || Number(request.params.id) < 1) throw notFound();
      const companyId = request.company!.id;
      const stored = await flows.get(companyId, Number(request.params.id)); // 404 for another company's flow
      const draft = request.body.flow;
      const flow: RuntimeFlow = draft ? { ...draft, id: stored.id } : stored;
      const { text, button_id: buttonId, state, reset } = request.body;
      // Only a conversation under way can be taken over by another flow's keyword (a new one starts this flow).
      const otherFlow = text && !buttonId && state && !reset && !flowForKeyword([flow], text) ? await flows.byKeyword(companyId, text, stored.id) : null;
      return runFlowTestChat(flow, request.body, (url) => mediaUrlForCompany(storage, url, companyId), otherFlow);
    },
  );
}
