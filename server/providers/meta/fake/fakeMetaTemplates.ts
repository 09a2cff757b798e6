/**
 * The fake Meta's template review and its webhooks (message_template_status_update,
 * message_template_quality_update), in Meta's published formats.
 *
 * The review rule (documented so a test or a demo can get either answer): after
 * `templateReviewDelayMs` (default 2 s), a template whose name contains `reject` is REJECTED with
 * reason INVALID_FORMAT; every other template is APPROVED. An edit sends the template back to
 * PENDING and reviews it again.
 */
import { TemplateDefinition, TemplateEdit } from '../../../../contract/templates';
import { FakeGraphError } from './fakeGraphError';
import type { FakeMetaContext } from './fakeMetaContext';
import type { FakeTemplate, FakeWaba } from './fakeMetaStore';

export const REJECTED_REASON = 'INVALID_FORMAT';

/** What the review decides for a template (see the rule above). */
export function reviewVerdict(template: Pick<FakeTemplate, 'name'>): { status: 'APPROVED' | 'REJECTED'; reason: string } {
  return template.name.includes('reject') ? { status: 'REJECTED', reason: REJECTED_REASON } : { status: 'APPROVED', reason: 'NONE' };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function templateEnvelope(wabaId: string, field: string, value: Record<string, unknown>): Record<string, unknown> {
  return { object: 'whatsapp_business_account', entry: [{ id: wabaId, time: nowSeconds(), changes: [{ value, field }] }] };
}

export function templateStatusPayload(wabaId: string, template: FakeTemplate, event: string, reason = 'NONE'): Record<string, unknown> {
  return templateEnvelope(wabaId, 'message_template_status_update', {
    event,
    message_template_id: Number(template.id),
    message_template_name: template.name,
    message_template_language: template.language,
    reason,
  });
}

export function templateQualityPayload(wabaId: string, template: FakeTemplate, previous: string, next: string): Record<string, unknown> {
  return templateEnvelope(wabaId, 'message_template_quality_update', {
    previous_quality_score: previous,
    new_quality_score: next,
    message_template_id: Number(template.id),
    message_template_name: template.name,
    message_template_language: template.language,
  });
}

/** Meta's refusal of an invalid template: (#100) Invalid parameter, subcode 2388043, the problem in error_user_msg style details. */
export function invalidTemplate(details: string): FakeGraphError {
  return new FakeGraphError(400, 100, 'Invalid parameter', 'OAuthException', 2388043, details);
}

/** Checks a creation or edit the way Meta does (the same published rules our contract encodes). */
export function validateTemplateBody(body: Record<string, unknown>, kind: 'create' | 'edit'): void {
  const result = kind === 'create' ? TemplateDefinition.safeParse(body) : TemplateEdit.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw invalidTemplate(`${issue.path.join('.') || 'template'}: ${issue.message}`);
  }
}

/** Reviews the template after the delay, then posts the signed status webhook. */
export function scheduleReview(ctx: FakeMetaContext, waba: FakeWaba, template: FakeTemplate): void {
  ctx.after(ctx.templateReviewDelayMs, async () => {
    if (!waba.templates.includes(template) || template.status !== 'PENDING') return;
    const verdict = reviewVerdict(template);
    template.status = verdict.status;
    template.rejected_reason = verdict.reason;
    ctx.store.save();
    await ctx.webhook(templateStatusPayload(waba.id, template, verdict.status, verdict.reason));
  });
}
