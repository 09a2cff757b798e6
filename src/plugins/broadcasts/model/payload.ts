import type { BroadcastCreateInput, RenderedMessage as ApiRenderedMessage } from '../../../../contract/broadcasts';
import { audienceOf, type BroadcastDraft } from './draft';
import { mediaHeaderFormat, templateVariables, toApiVariables, type RenderedMessage, type TemplateLike } from './mapping';

/** POST /api/broadcasts's body from the draft and its template (id, name, language). */
export function createPayload(draft: BroadcastDraft, template: TemplateLike & { id?: number }): BroadcastCreateInput {
  const variables = toApiVariables(draft.mapping, templateVariables(template));
  const body: BroadcastCreateInput = {
    name: draft.name.trim(),
    page_id: draft.channelId as number,
    template: { ...(template.id ? { id: template.id } : {}), name: template.name, language: template.language },
    variables,
    audience: audienceOf(draft),
    schedule:
      draft.schedule.mode === 'later'
        ? { mode: 'later', at: `${draft.schedule.date}T${draft.schedule.time}`, time_zone: draft.schedule.timeZone }
        : { mode: 'now' },
  };
  if (mediaHeaderFormat(template) && draft.headerMedia) body.header_media_url = draft.headerMedia.url;
  return body;
}

/** The server's rendering of the first recipient's message, in the preview bubble's shape. */
export function fromApiMessage(message: ApiRenderedMessage): RenderedMessage {
  const header: RenderedMessage['header'] = message.header_format && message.header_format !== 'TEXT'
    ? { kind: 'media', format: message.header_format, url: message.header_media_url }
    : message.header
      ? { kind: 'text', text: message.header }
      : null;
  return { header, body: message.body, footer: message.footer, buttons: message.buttons.map((text) => ({ type: 'QUICK_REPLY', text })) };
}
